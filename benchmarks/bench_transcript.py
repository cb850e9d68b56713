"""Transcript benchmark: a thread of 10,000 messages (chip prompts and sourced answers mixed).

Measures, offscreen, in one process:

* **open to first paint** — ``TranscriptModel.load`` of the wire messages, showing the window and
  the first complete paint of the viewport (the view opens at the bottom, as a transcript does);
* **scrolled viewport paint** — scrolling up one page at a time from the bottom, the time of the
  scroll step plus one synchronous viewport repaint (rows not yet laid out are laid out inside that
  paint; between steps the view lays out a few rows around the viewport in idle time, as it does
  between frames),
  median and 95th percentile; the relayout that replaces estimated heights by exact ones runs
  once scrolling pauses and is reported separately, as is a repaint of a viewport already painted
  once (warm);
* **resident memory** of the process with the thread open after the scroll pass (``VmRSS``).

Budgets: first paint <= 500 ms, median scrolled paint <= 16 ms, resident memory <= 400 MB.

    ./dev bench transcript [--messages N] [--steps N] [--write docs/benchmarks_transcript.md]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication, QMainWindow

from composer_app.ui.transcript.samples import long_thread
from composer_app.ui.transcript.view import TranscriptView

BUDGETS = {"first_paint_ms": 500.0, "scroll_paint_median_ms": 16.0, "rss_mb": 400.0}


def rss_mb() -> float:
    """Resident set size of this process in MB (Linux ``/proc``)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run(messages: int, steps: int) -> dict[str, float]:
    """Open a thread of ``messages`` and scroll ``steps`` pages; returns the figures."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    thread = long_thread(messages)
    baseline = rss_mb()
    window = QMainWindow()
    window.resize(1100, 800)
    view = TranscriptView()
    window.setCentralWidget(view)
    start = time.perf_counter()
    view.transcript_model().load(thread)
    window.show()
    app.processEvents()
    view.viewport().repaint()
    first_paint = (time.perf_counter() - start) * 1000
    assert view.delegate().paint_count > 0
    bar = view.verticalScrollBar()
    page = max(1, view.viewport().height() - 40)
    cold: list[float] = []
    settle: list[float] = []
    positions: list[int] = []
    for _ in range(steps):
        begin = time.perf_counter()
        bar.setValue(max(0, bar.value() - page))
        view.viewport().repaint()
        cold.append((time.perf_counter() - begin) * 1000)
        begin = time.perf_counter()
        app.processEvents()  # exact heights of the new rows replace their estimates
        settle.append((time.perf_counter() - begin) * 1000)
        positions.append(bar.value())
    warm: list[float] = []
    for value in positions:
        bar.setValue(value)
        app.processEvents()
        begin = time.perf_counter()
        view.viewport().repaint()
        warm.append((time.perf_counter() - begin) * 1000)
    jumps: list[float] = []
    for step in range(20):  # far jumps to rows nothing has laid out yet: cold paints
        target = int(bar.maximum() * (0.05 + 0.04 * step))
        begin = time.perf_counter()
        bar.setValue(target)
        view.viewport().repaint()
        jumps.append((time.perf_counter() - begin) * 1000)
        app.processEvents()
    view.invalidate_layout()
    begin = time.perf_counter()
    view.doItemsLayout()
    relayout = (time.perf_counter() - begin) * 1000
    app.processEvents()
    memory = rss_mb()
    window.close()
    cold.sort()
    return {
        "messages": float(messages),
        "first_paint_ms": first_paint,
        "scroll_paint_median_ms": statistics.median(cold),
        "scroll_paint_p95_ms": cold[int(len(cold) * 0.95) - 1],
        "warm_paint_median_ms": statistics.median(warm),
        "settle_median_ms": statistics.median(settle),
        "jump_paint_median_ms": statistics.median(jumps),
        "relayout_ms": relayout,
        "layouts": float(view.renderer.layout_count),
        "rss_mb": memory,
        "rss_before_open_mb": baseline,
    }


def report(figures: dict[str, float]) -> str:
    """The Markdown report."""

    def verdict(name: str) -> str:
        return "pass" if figures[name] <= BUDGETS[name] else "FAIL"

    lines = [
        "# Transcript benchmark",
        "",
        f"A thread of {int(figures['messages']):,} messages (every other one a sourced answer with "
        "tokens and section labels; every fourth a prompt with a chip of every kind), rendered "
        "offscreen by `TranscriptView` at 1100x800.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, {platform.system()}.",
        "",
        "| measure | result | budget | |",
        "|---|---|---|---|",
        f"| open to first paint | {figures['first_paint_ms']:.0f} ms | 500 ms | "
        f"{verdict('first_paint_ms')} |",
        f"| scrolled viewport paint, median (one page per step) | "
        f"{figures['scroll_paint_median_ms']:.1f} ms | 16 ms | "
        f"{verdict('scroll_paint_median_ms')} |",
        f"| scrolled viewport paint, 95th percentile | "
        f"{figures['scroll_paint_p95_ms']:.1f} ms | | |",
        f"| viewport paint after a jump to rows never laid out, median | "
        f"{figures['jump_paint_median_ms']:.1f} ms | | |",
        f"| repaint of an already laid-out viewport, median | "
        f"{figures['warm_paint_median_ms']:.1f} ms | | |",
        f"| event processing after a scroll step, median | "
        f"{figures['settle_median_ms']:.1f} ms | | |",
        f"| deferred relayout once scrolling pauses (exact heights replace estimates) | "
        f"{figures['relayout_ms']:.0f} ms | | |",
        f"| resident memory with the thread open | {figures['rss_mb']:.0f} MB | 400 MB | "
        f"{verdict('rss_mb')} |",
        "",
        f"Rows laid out during the run: {int(figures['layouts'])} of "
        f"{int(figures['messages']):,} (heights of the others are estimates until first painted). "
        f"Resident memory before the thread was opened: {figures['rss_before_open_mb']:.0f} MB.",
        "",
        "Reproduce with `./dev bench transcript --write docs/benchmarks_transcript.md`.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    """Parse arguments, run, print and optionally write the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--write", type=Path)
    args = parser.parse_args()
    text = report(run(args.messages, args.steps))
    print(text)
    if args.write:
        args.write.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
