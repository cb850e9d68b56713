"""Cold start of the desktop app and its idle memory, from the source tree and as the bundle.

Each run spawns the app offscreen with ``COMPOSER_READY_FILE`` pointing at a FIFO and measures the
time from the spawn (``time.time()`` just before it) to the wall-clock stamp of the app's
``ready`` line: the main window is shown, the sync engine is connected to the embedded server
with the first thread listed, and the event loop has then answered a zero-delay timer. The
process then idles for ``IDLE_SECONDS`` and its resident memory (``VmRSS``, summed over the
process and any children) is read from ``/proc``; finally it gets SIGTERM and the time until it
has exited cleanly (window state and drafts saved, sync engine and embedded server stopped, exit
code 0) is the quit time. A second run on the same data gives the warm start.

* Source: ``python -m composer_app --data-dir <fresh dir>`` with this environment (bytecode
  cached).
* Bundle (``--bundle PATH``, default ``dist/composer-app/composer-app`` when it exists): the
  PyInstaller one-folder executable with no arguments, in the minimal environment CI's self-test
  uses (``PATH=/usr/bin:/bin HOME=<fresh dir> LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen``, nothing
  else), so settings, data and caches all start empty under the fresh ``HOME`` on the cold run.
  The bundle's Python code is compiled at build time, so nothing is compiled at start-up.

Budgets: start <= 1.5 s, idle RSS <= 250 MB; quit on SIGTERM <= 2 s (our own).

Usage: ``.venv/bin/python benchmarks/bench_startup.py [--runs N] [--bundle PATH | --no-bundle]
[--no-source] [--write docs/benchmarks_app.md]``
"""

from __future__ import annotations

import argparse
import os
import platform
import selectors
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BUNDLE = ROOT / "dist" / "composer-app" / "composer-app"
START_BUDGET_S = 1.5
RSS_BUDGET_MB = 250.0
IDLE_SECONDS = 3.0
QUIT_BUDGET_S = 2.0  # ours: a session logout must not wait on the app
READY_TIMEOUT_S = 60.0
NOTES = "\n## Notes"  # --write keeps this section of the page and everything after it

# (argv, environment) for one launch, given the run's scratch directory and the ready FIFO.
Launch = Callable[[Path, Path], tuple[list[str], dict[str, str]]]


def source_launch(scratch: Path, ready: Path) -> tuple[list[str], dict[str, str]]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "LANG": "C.UTF-8",
           "XDG_CACHE_HOME": str(scratch / "xdg-cache"), "COMPOSER_READY_FILE": str(ready)}
    return [sys.executable, "-m", "composer_app", "--data-dir", str(scratch / "data")], env


def bundle_launch(executable: Path) -> Launch:
    def launch(scratch: Path, ready: Path) -> tuple[list[str], dict[str, str]]:
        home = scratch / "home"
        home.mkdir(exist_ok=True)
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
               "QT_QPA_PLATFORM": "offscreen", "COMPOSER_READY_FILE": str(ready)}
        return [str(executable)], env
    return launch


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (a bootloader may run the app in a child)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        for child in children:
            found.extend(process_tree(int(child)))
    return found


def rss_mb(pid: int) -> float:
    total = 0
    for member in process_tree(pid):
        for line in Path(f"/proc/{member}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def read_ready(fd: int, child: subprocess.Popen[bytes]) -> str:
    """The first line from the ready FIFO (opened non-blocking before the spawn)."""
    received = b""
    deadline = time.monotonic() + READY_TIMEOUT_S
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while b"\n" not in received and (left := deadline - time.monotonic()) > 0:
            if child.poll() is not None:
                raise RuntimeError(f"the app exited with {child.returncode} before it was ready")
            if selector.select(min(left, 0.5)):
                chunk = os.read(fd, 4096)
                if not chunk:
                    break
                received += chunk
    return received.decode().partition("\n")[0]


def one_run(launch: Launch, scratch: Path) -> tuple[float, float, float]:
    """(seconds to ready, idle RSS in MB, seconds from SIGTERM to a clean exit) for one launch."""
    ready = scratch / "ready.fifo"
    if ready.exists():
        ready.unlink()
    os.mkfifo(ready)
    argv, env = launch(scratch, ready)
    fd = os.open(ready, os.O_RDONLY | os.O_NONBLOCK)
    try:
        spawned = time.time()
        with (scratch / "stderr.txt").open("wb") as errors:
            child = subprocess.Popen(argv, cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=errors)
        try:
            try:
                line = read_ready(fd, child)
            except RuntimeError as exc:
                said = (scratch / "stderr.txt").read_text(errors="replace").strip()
                raise RuntimeError(f"{exc}: {said[-2000:]}") from None
            word, _, stamp = line.partition(" ")
            if word != "ready":
                raise RuntimeError(f"the app did not become ready: {line!r}")
            elapsed = float(stamp) - spawned
            time.sleep(IDLE_SECONDS)  # a benchmark idles on purpose before reading memory
            memory = rss_mb(child.pid)
            quit_start = time.perf_counter()
            child.terminate()
            code = child.wait(timeout=30)
            quit_seconds = time.perf_counter() - quit_start
            if code != 0:
                raise RuntimeError(f"the app exited with {code} on SIGTERM")
        finally:
            if child.poll() is None:
                child.kill()
                child.wait(timeout=30)
    finally:
        os.close(fd)
    return elapsed, memory, quit_seconds


def measure(name: str, launch: Launch, runs: int) -> list[tuple[str, list[float], str, float]]:
    """Table rows for ``runs`` cold/warm pairs of one way of launching."""
    cold: list[float] = []
    warm: list[float] = []
    memory: list[float] = []
    quits: list[float] = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="composer-bench-") as tmp:
            for starts in (cold, warm):
                seconds, rss, quit_seconds = one_run(launch, Path(tmp))
                starts.append(seconds)
                memory.append(rss)
                quits.append(quit_seconds)
    return [
        (f"{name}: cold start, first run (fresh data) to a shown, responsive, connected window",
         cold, "s", START_BUDGET_S),
        (f"{name}: warm start, second run (same data)", warm, "s", START_BUDGET_S),
        (f"{name}: idle resident memory (VmRSS) after 3 s", memory, "MB", RSS_BUDGET_MB),
        (f"{name}: quit on SIGTERM to a clean exit (state saved, engine and server stopped)",
         quits, "s", QUIT_BUDGET_S),
    ]


def machine() -> str:
    cpu = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    system = platform.freedesktop_os_release().get("PRETTY_NAME", platform.system())
    return (f"{cpu}, {os.cpu_count()} cores, {pages / 2**30:.0f} GiB, {system}, "
            f"Python {platform.python_version()}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bundle", type=Path,
                        default=DEFAULT_BUNDLE if DEFAULT_BUNDLE.exists() else None,
                        help="the bundle's executable (default: dist/composer-app/composer-app "
                             "when built)")
    parser.add_argument("--no-bundle", action="store_true", help="measure the source run only")
    parser.add_argument("--no-source", action="store_true", help="measure the bundle only")
    parser.add_argument("--write", type=Path, help="write the Markdown page here")
    args = parser.parse_args()
    rows: list[tuple[str, list[float], str, float]] = []
    if not args.no_source:
        rows += measure("Source", source_launch, args.runs)
    bundle = None if args.no_bundle else args.bundle
    if bundle is not None:
        rows += measure("Bundle", bundle_launch(bundle.resolve()), args.runs)
    lines = ["| Measure | Median | Worst | Budget | OK |", "|---|---|---|---|---|"]
    ok = True
    for name, values, unit, budget in rows:
        worst = max(values)
        passed = worst <= budget
        ok &= passed
        lines.append(f"| {name} | {statistics.median(values):.2f} {unit} | {worst:.2f} {unit} "
                     f"| <= {budget:g} {unit} | {'yes' if passed else 'no'} |")
    table = "\n".join(lines)
    print(table)
    if args.write:
        previous = args.write.read_text(encoding="utf-8") if args.write.exists() else ""
        notes = previous[previous.find(NOTES) + 1:] if NOTES in previous else ""  # kept by hand
        args.write.write_text(
            "# Desktop app start-up\n\n"
            "`benchmarks/bench_startup.py` launches the app offscreen and times it from the spawn "
            "until the app reports, through `COMPOSER_READY_FILE`, that the main window is shown, "
            "the sync engine is connected to the embedded server with the first thread listed "
            "and its event loop has answered a zero-delay timer (the app writes the wall-clock "
            "time of that moment). The first run of each pair starts from nothing (the embedded "
            "server, its database, the client cache and the settings are created on that run); "
            "the second reuses them. After 3 s idle the resident memory is read, then the app "
            "gets SIGTERM, timed until it has exited with code 0 (window state and drafts saved, "
            "sync engine and embedded server stopped).\n\n"
            "* **Source**: `python -m composer_app --data-dir <fresh dir>` from the development "
            "venv, Python bytecode cached.\n"
            "* **Bundle**: the installed one-folder bundle `dist/composer-app/composer-app` "
            "(`packaging/build`), with no arguments, in the environment CI's self-test uses "
            "(`env -i PATH=/usr/bin:/bin HOME=<fresh dir> LANG=C.UTF-8 "
            "QT_QPA_PLATFORM=offscreen`), so its settings, data and caches live under a fresh "
            "`HOME`. Its Python code is compiled at build time: nothing is compiled at start-up. "
            "The operating system's file cache is warm (the bundle was just built or run).\n\n"
            f"Machine: {machine()}, shared with other work. Runs: {args.runs} pairs per way "
            "of launching.\n\n"
            f"{table}\n" + (f"\n{notes}" if notes else ""), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
