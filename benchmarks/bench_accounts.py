"""Cold start and idle memory of the desktop app with three accounts: the embedded server and two
remote servers (real servers on loopback, each with its own data and token).

Each run prepares a fresh data folder whose account list names the two remote servers (their
tokens in the opt-in credentials file, as a machine without a keyring keeps them), spawns the app
offscreen with ``COMPOSER_READY_FILE`` and measures, like ``bench_startup``, the time from the spawn
to the app's ``ready`` line (window shown, the embedded server's engine connected, the first
thread listed, the event loop responsive). The remote accounts connect in the background: the time
until both have connected (their client caches have recorded the server's environment, which the
engine does on connecting) is reported too. After ``IDLE_SECONDS`` the resident memory of the app
is read, then it gets SIGTERM and must exit cleanly. The second run of each pair reuses the data.

Budgets: ready <= 1.5 s, idle RSS <= 250 MB.

Usage: ``.venv/bin/python benchmarks/bench_accounts.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_startup import READY_TIMEOUT_S, machine, one_run, source_launch
from keyring.backends import fail

from composer_app.server.embedded import EmbeddedServer, start_embedded
from composer_app.sync.accounts import AccountBook
from composer_app.sync.engine import DATABASE_FILE
from composer_app.sync.secrets import TokenStore
from composer_app.ui.settings.settings_logic import app_paths

START_BUDGET_S = 1.5
RSS_BUDGET_MB = 250.0


def prepare(scratch: Path, remotes: list[EmbeddedServer]) -> list[Path]:
    """The account list and tokens in the run's data folder; the remote client caches."""
    paths = app_paths(scratch / "data")
    book = AccountBook.load(paths.config_dir)
    tokens = TokenStore(paths.config_dir, backend=fail.Keyring())  # type: ignore[no-untyped-call]
    for number, server in enumerate(remotes, 1):
        book.add(server.url, f"Remote {number}")
        tokens.set(server.url, server.token)
    tokens.remember_on_device()
    book.select("embedded")
    return [paths.client_dir(server.url) / DATABASE_FILE for server in remotes]


def connected(cache: Path) -> bool:
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True, timeout=0.1) as db:
            return bool(db.execute("SELECT count(*) FROM environments").fetchone()[0])
    except sqlite3.Error:
        return False


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ready: list[float] = []
    all_connected: list[float] = []
    memory: list[float] = []
    with tempfile.TemporaryDirectory(prefix="composer-bench-servers-") as servers_dir:
        remotes = [start_embedded(Path(servers_dir) / f"remote-{n}") for n in (1, 2)]
        try:
            for _ in range(args.runs):
                with tempfile.TemporaryDirectory(prefix="composer-bench-") as tmp:
                    scratch = Path(tmp)
                    caches = prepare(scratch, remotes)
                    for _pair in range(2):
                        for cache in caches:
                            cache.unlink(missing_ok=True) if _pair == 0 else None
                        watcher = Watcher(caches)
                        seconds, rss, _quit = one_run(watched_launch(watcher), scratch)
                        ready.append(seconds)
                        memory.append(rss)
                        if watcher.seconds is not None:
                            all_connected.append(watcher.seconds)
        finally:
            for server in remotes:
                server.stop()
    rows = [("cold and warm start to a usable window (embedded connected, thread listed)",
             ready, "s", START_BUDGET_S),
            ("both remote servers connected (in the background)", all_connected, "s", 0.0),
            ("idle resident memory (VmRSS) after 3 s, three accounts", memory, "MB",
             RSS_BUDGET_MB)]
    ok = True
    print(f"Machine: {machine()}; {args.runs} pairs of runs")
    print("| Measure | Median | Worst | Budget | OK |\n|---|---|---|---|---|")
    for name, values, unit, budget in rows:
        if not values:
            print(f"| {name} | - | - | - | no |")
            ok = False
            continue
        worst = max(values)
        passed = budget == 0.0 or worst <= budget
        ok &= passed
        shown = f"<= {budget:g} {unit}" if budget else "reported"
        print(f"| {name} | {statistics.median(values):.2f} {unit} | {worst:.2f} {unit} | "
              f"{shown} | {'yes' if passed else 'no'} |")
    return 0 if ok else 1


class Watcher:
    """Polls the remote client caches on a thread from the spawn on."""

    def __init__(self, caches: list[Path]) -> None:
        self.caches = caches
        self.seconds: float | None = None

    def start(self) -> None:
        import threading

        spawned = time.time()

        def poll() -> None:
            deadline = time.monotonic() + READY_TIMEOUT_S
            while time.monotonic() < deadline:
                if all(connected(c) for c in self.caches):
                    self.seconds = time.time() - spawned
                    return
                time.sleep(0.02)

        threading.Thread(target=poll, daemon=True).start()


def watched_launch(watcher: Watcher):  # type: ignore[no-untyped-def]
    def launch(scratch: Path, ready_fifo: Path) -> tuple[list[str], dict[str, str]]:
        argv, env = source_launch(scratch, ready_fifo)
        env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
        watcher.start()
        return argv, env
    return launch


if __name__ == "__main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.exit(main())
