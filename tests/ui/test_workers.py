"""Background work reports back on the GUI thread."""

from __future__ import annotations

import threading

from pytestqt.qtbot import QtBot

from composer_app.ui.workers import BackgroundRunner, inline_runner


def test_result_and_error_arrive_on_the_gui_thread(qtbot: QtBot) -> None:
    runner = BackgroundRunner()
    seen: list[tuple[str, object, bool]] = []
    worker_threads: list[bool] = []

    def work(x: int) -> int:
        worker_threads.append(threading.current_thread() is threading.main_thread())
        return x * 2

    def fail() -> None:
        raise ValueError("boom")

    on_gui = lambda: threading.current_thread() is threading.main_thread()  # noqa: E731
    with qtbot.waitSignal(runner.finished):
        runner.run(work, 21, on_done=lambda v: seen.append(("done", v, on_gui())))
    with qtbot.waitSignal(runner.failed):
        runner.run(fail, on_error=lambda e: seen.append(("error", str(e), on_gui())))
    assert seen == [("done", 42, True), ("error", "boom", True)]
    assert worker_threads == [False]
    assert runner.pending == 0


def test_as_a_runner_done_gets_the_result_or_the_exception(qtbot: QtBot) -> None:
    runner = BackgroundRunner()
    outcomes: list[object] = []

    def fail() -> None:
        raise OSError("disk full")

    runner(lambda: "written", outcomes.append)
    runner(fail, outcomes.append)
    qtbot.waitUntil(lambda: len(outcomes) == 2, timeout=5000)
    assert "written" in outcomes
    [error] = [o for o in outcomes if isinstance(o, OSError)]
    assert str(error) == "disk full"
    assert runner.pending == 0


def test_inline_runner_keeps_the_same_contract() -> None:
    outcomes: list[object] = []
    inline_runner(lambda: 7, outcomes.append)
    inline_runner(lambda: 1 // 0, outcomes.append)
    assert outcomes[0] == 7 and isinstance(outcomes[1], ZeroDivisionError)
