"""Unexpected errors reach a private, rotating log file and one dialog; hooks are restored."""

from __future__ import annotations

import logging
import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer, qWarning
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from composer_app.ui.crash_report import LOG_FILE_NAME, CrashReporter, describe


@pytest.fixture
def reporter(qtbot: QtBot, tmp_path: Path) -> Iterator[CrashReporter]:
    before_hook, before_thread_hook = sys.excepthook, threading.excepthook
    made = CrashReporter(tmp_path / "logs")
    made.install()
    yield made
    if made.dialog is not None:
        made.dialog.close()
    made.uninstall()
    assert sys.excepthook is before_hook
    assert threading.excepthook is before_thread_hook


def _log_text(reporter: CrashReporter) -> str:
    for handler in logging.getLogger().handlers:
        handler.flush()
    return (reporter.log_dir / LOG_FILE_NAME).read_text(encoding="utf-8")


def _raise(message: str) -> None:
    raise ValueError(message)


def test_uncaught_exception_is_logged_with_its_traceback_and_shown(
        reporter: CrashReporter, qtbot: QtBot) -> None:
    try:
        _raise("the thread list is gone")
    except ValueError:
        sys.excepthook(*sys.exc_info())  # type: ignore[arg-type]
    text = _log_text(reporter)
    assert "Unexpected error: ValueError: the thread list is gone" in text
    assert "in _raise" in text  # the traceback, not only the message
    dialog = reporter.dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.objectName() == "crashDialog"
    assert str(reporter.log_path) in dialog.note()


@pytest.mark.qt_no_exception_capture
def test_exception_in_a_slot_reaches_the_log(reporter: CrashReporter, qtbot: QtBot) -> None:
    with qtbot.waitSignal(reporter.error_reported, timeout=2000) as blocker:
        QTimer.singleShot(0, lambda: _raise("raised in a slot"))
    assert blocker.args is not None and blocker.args[0] == "ValueError: raised in a slot"
    assert "raised in a slot" in _log_text(reporter)


def test_more_errors_while_the_dialog_is_open_are_counted_not_stacked(
        reporter: CrashReporter, qtbot: QtBot) -> None:
    for n in range(3):
        try:
            _raise(f"error {n}")
        except ValueError:
            reporter.handle_exception(*sys.exc_info())  # type: ignore[arg-type]
    dialog = reporter.dialog
    assert dialog is not None
    assert "2 more errors happened since" in dialog.note()
    dialog.accept()
    qtbot.waitUntil(lambda: reporter.dialog is None)


def test_copy_details_puts_the_traceback_and_log_path_on_the_clipboard(
        reporter: CrashReporter, qtbot: QtBot) -> None:
    try:
        _raise("copy me")
    except ValueError:
        reporter.handle_exception(*sys.exc_info())  # type: ignore[arg-type]
    assert reporter.dialog is not None
    reporter.dialog.copy_details()
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith("ValueError: copy me")
    assert "Traceback" in copied and str(reporter.log_path) in copied


def test_exception_on_another_thread_is_logged_and_shown_on_the_gui_thread(
        reporter: CrashReporter, qtbot: QtBot) -> None:
    worker = threading.Thread(target=lambda: _raise("from a worker"), name="worker")
    with qtbot.waitSignal(reporter.error_reported, timeout=2000):
        worker.start()
        worker.join()
    assert "from a worker" in _log_text(reporter)
    assert reporter.dialog is not None


def test_qt_messages_go_to_the_log(reporter: CrashReporter) -> None:
    qWarning("a warning from Qt")
    assert "a warning from Qt" in _log_text(reporter)


def test_log_folder_and_file_are_private(reporter: CrashReporter) -> None:
    logging.getLogger("composer_app.test").warning("hello")
    assert stat.S_IMODE(reporter.log_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE(reporter.log_path.stat().st_mode) == 0o600


def test_describe_uses_the_first_line_of_the_message() -> None:
    error = RuntimeError("first line\nsecond line")
    assert describe((RuntimeError, error, None)) == "RuntimeError: first line"
    assert describe((KeyError, KeyError(), None)) == "KeyError"
