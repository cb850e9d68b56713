"""How long the app's GUI thread stalls while the embedded server does heavy work.

The scenario is a first question to the local assistant over a fresh 2,000-file knowledge folder:
the server builds its full-text index and then answers. Meanwhile a Qt event loop on the main
thread (the GUI thread's stand-in, offscreen) runs a 5 ms timer, as a window does while the user
types, and every gap between two ticks beyond the interval is a stall. The run ends when the
assistant's reply has arrived in the client cache.

Two ways of running the embedded server are compared on the same folder and question:

* ``in-process``: ``backend.start_embedded_server`` (the server's threads share this process's
  interpreter lock with the GUI thread, as the app did before the server had its own process);
* ``process``: ``server_process.ServerProcess`` (what the app runs).

The sync engine runs in this process in both, on its own thread, as in the app.

Reported per way: the longest stall, the 99th percentile of tick gaps, the time above one frame
(16 ms) in total, and the time to the reply. Budget (ours, from the editor's rule that nothing
blocks the GUI thread for more than one frame): longest stall <= 16 ms with ``process``.

    .venv/bin/python benchmarks/bench_gui_stall.py [--files N] [--megabytes M]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_local_provider import generate
from PySide6.QtCore import QCoreApplication, QTimer

from composer_app.sync.engine import SyncEngine
from composer_app.ui.backend import RunningServer, start_embedded_server
from composer_app.ui.server_process import ServerConfig, ServerProcess
from composer_app.ui.settings.settings_logic import AppSettings, app_paths

TICK_MS = 5
FRAME_MS = 16.0
BUDGET_MS = 16.0
TIMEOUT_S = 300.0


def start(way: str, data: Path, knowledge: Path) -> RunningServer:
    paths = app_paths(data)
    settings = AppSettings(knowledge_dir=str(knowledge))
    if way == "in-process":
        return start_embedded_server(paths, settings)
    paths.server_dir.mkdir(parents=True, exist_ok=True)
    return ServerProcess.start(ServerConfig.of(paths, settings))


def measure(app: QCoreApplication, way: str, scratch: Path, knowledge: Path,
            question: str) -> dict[str, float]:
    server = start(way, scratch / way, knowledge)
    engine = SyncEngine(server.url, server.token, scratch / way / "client")
    engine.start()
    gaps: list[float] = []
    try:
        thread_id = engine.create_thread("stall").result(30)
        replied: list[float] = []
        began = time.perf_counter()
        last = [began]

        def answered() -> bool:
            rows = engine.messages(thread_id).result(30)
            return any(r.role == "assistant" and not r.is_streaming and r.text for r in rows)

        checks = [0]

        def tick() -> None:
            now = time.perf_counter()
            gaps.append((now - last[0]) * 1000.0)
            last[0] = now
            checks[0] += 1
            if checks[0] % 20 == 0 and answered():  # about every 100 ms
                replied.append(now - began)
                app.quit()
            elif now - began > TIMEOUT_S:
                app.quit()

        timer = QTimer()
        timer.setInterval(TICK_MS)
        timer.timeout.connect(tick)
        engine.send_message(thread_id, question, None, []).result(30)
        timer.start()
        app.exec()
        timer.stop()
        if not replied:
            raise RuntimeError(f"{way}: no reply within {TIMEOUT_S:.0f} s")
    finally:
        engine.stop()
        server.stop()
    stalls = [g - TICK_MS for g in gaps]
    ordered = sorted(stalls)
    return {"longest": max(stalls), "p99": ordered[int(0.99 * (len(ordered) - 1))],
            "over_frame": sum(s for s in stalls if s > FRAME_MS) / 1000.0,
            "median": statistics.median(stalls), "reply": replied[0]}


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--megabytes", type=int, default=50)
    args = parser.parse_args()
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])
    rows: list[tuple[str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory(prefix="composer-bench-stall-") as tmp:
        scratch = Path(tmp)
        knowledge = scratch / "knowledge"
        knowledge.mkdir()
        facts = generate(knowledge, args.files, args.megabytes * 1024 * 1024)
        question = facts[len(facts) // 2][1]
        for way in ("in-process", "process"):
            rows.append((way, measure(app, way, scratch, knowledge, question)))
    print(f"Machine: {machine()}; load average {os.getloadavg()[0]:.1f}; "
          f"{args.files} files, {args.megabytes} MB; tick {TICK_MS} ms")
    print("| Embedded server | Longest GUI stall | p99 stall | Time stalled over 16 ms "
          "| Median stall | Reply after |")
    print("|---|---|---|---|---|---|")
    show: Callable[[float], str] = "{:.1f} ms".format
    for way, row in rows:
        print(f"| {way} | {show(row['longest'])} | {show(row['p99'])} | "
              f"{row['over_frame']:.2f} s | {show(row['median'])} | {row['reply']:.1f} s |")
    longest = dict(rows)["process"]["longest"]
    print(f"Budget: longest stall <= {BUDGET_MS:.0f} ms with the server's own process: "
          f"{'met' if longest <= BUDGET_MS else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
