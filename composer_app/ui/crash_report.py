"""Unexpected errors are written down and shown, never lost on a terminal nobody reads.

``CrashReporter.install`` routes three streams into one rotating log file in the platform log
folder: Python's ``logging`` (INFO and above), uncaught exceptions (``sys.excepthook``, which
PySide6 also calls for an exception raised in a slot, and ``threading.excepthook``) and Qt's own
messages (``qInstallMessageHandler``). An uncaught exception on the GUI thread also opens one
dialog saying what happened, with *Copy details* (the traceback to the clipboard) and the log's
path; exceptions on other threads are logged and shown the next time the GUI thread runs.

Invariants: the reporter never raises (a failure to write the log or show the dialog falls back to
stderr); at most one dialog is open at a time, and further errors while it is open are logged and
counted in it, not stacked; ``uninstall`` restores every hook it replaced; log files are private
to the user (0600) and rotate at ``LOG_BYTES`` with ``LOG_BACKUPS`` old files kept.
"""

from __future__ import annotations

import contextlib
import html
import logging
import logging.handlers
import os
import sys
import threading
import traceback
from pathlib import Path
from types import TracebackType
from typing import Any

from PySide6.QtCore import (
    QMessageLogContext,
    QObject,
    Qt,
    QtMsgType,
    QUrl,
    Signal,
    qInstallMessageHandler,
)
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

LOG_FILE_NAME = "composer.log"
LOG_BYTES = 1_000_000
LOG_BACKUPS = 3

_log = logging.getLogger("composer_app")
_qt_log = logging.getLogger("composer_app.qt")

_QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


class _PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating file handler whose files are created readable by the user only."""

    def _open(self) -> Any:
        stream = super()._open()
        with contextlib.suppress(OSError):
            os.chmod(self.baseFilename, 0o600)
        return stream


def open_log_file(log_dir: Path) -> logging.Handler:
    """A handler writing to ``log_dir/composer.log`` (folder 0700, file 0600), rotating."""
    log_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        os.chmod(log_dir, 0o700)
    handler = _PrivateRotatingFileHandler(log_dir / LOG_FILE_NAME, maxBytes=LOG_BYTES,
                                          backupCount=LOG_BACKUPS, encoding="utf-8")
    handler.setFormatter(logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"))
    handler.setLevel(logging.INFO)
    return handler


def describe(exc_info: ExcInfo) -> str:
    """The one-line summary a person reads: the exception's type and message."""
    exc_type, exc, _tb = exc_info
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{exc_type.__name__}: {message}" if message else exc_type.__name__


class CrashReporter(QObject):
    """Owns the log file and the error dialog; see the module docstring for the invariants."""

    error_reported = Signal(str, str)  # summary, full details (traceback)
    _error_from_thread = Signal(str, str)

    def __init__(self, log_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.log_dir = log_dir
        self.log_path = log_dir / LOG_FILE_NAME
        self._handler: logging.Handler | None = None
        self._previous_hook: Any = None
        self._previous_thread_hook: Any = None
        self._previous_level = logging.WARNING
        self._installed = False
        self._dialog: CrashDialog | None = None
        self._more_while_open = 0
        self.show_dialogs = True
        self._error_from_thread.connect(self._show, Qt.ConnectionType.QueuedConnection)

    # -- installation --------------------------------------------------------------------------

    def install(self) -> None:
        """Start logging to the file and take over the exception and Qt message hooks."""
        if self._installed:
            return
        root = logging.getLogger()
        try:
            self._handler = open_log_file(self.log_dir)
            root.addHandler(self._handler)
        except OSError as exc:
            print(f"composer-app: cannot write the log in {self.log_dir}: {exc}", file=sys.stderr)
        self._previous_level = root.level
        if root.level == logging.NOTSET or root.level > logging.INFO:
            root.setLevel(logging.INFO)
        self._previous_hook = sys.excepthook
        self._previous_thread_hook = threading.excepthook
        sys.excepthook = self.handle_exception
        threading.excepthook = self._handle_thread_exception
        qInstallMessageHandler(self._handle_qt_message)
        self._installed = True
        _log.info("Composer started; log file %s", self.log_path)

    def uninstall(self) -> None:
        """Put every replaced hook back and close the log file."""
        if not self._installed:
            return
        sys.excepthook = self._previous_hook
        threading.excepthook = self._previous_thread_hook
        qInstallMessageHandler(None)
        root = logging.getLogger()
        root.setLevel(self._previous_level)
        if self._handler is not None:
            root.removeHandler(self._handler)
            self._handler.close()
            self._handler = None
        self._installed = False

    # -- hooks ---------------------------------------------------------------------------------

    def handle_exception(self, exc_type: type[BaseException], exc: BaseException,
                         tb: TracebackType | None) -> None:
        """``sys.excepthook``: log the traceback and tell the person (GUI thread: at once)."""
        if issubclass(exc_type, KeyboardInterrupt):
            if self._previous_hook is not None:
                self._previous_hook(exc_type, exc, tb)
            return
        self._report((exc_type, exc, tb))

    def _handle_thread_exception(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None:
            return
        self._report((args.exc_type, args.exc_value, args.exc_traceback))

    def _handle_qt_message(self, kind: QtMsgType, context: QMessageLogContext,
                           message: str) -> None:
        try:
            where = f" ({context.category})" if context.category not in (None, "default") else ""
            _qt_log.log(_QT_LEVELS.get(kind, logging.WARNING), "%s%s", message, where)
        except Exception:  # never let logging take the app down
            print(message, file=sys.stderr)

    def _report(self, exc_info: ExcInfo) -> None:
        details = "".join(traceback.format_exception(*exc_info))
        summary = describe(exc_info)
        try:
            _log.critical("Unexpected error: %s\n%s", summary, details.rstrip())
        except Exception:
            print(details, file=sys.stderr)
        if threading.current_thread() is threading.main_thread():
            self._show(summary, details)
        else:
            self._error_from_thread.emit(summary, details)

    # -- the dialog ----------------------------------------------------------------------------

    def _show(self, summary: str, details: str) -> None:
        self.error_reported.emit(summary, details)
        if not self.show_dialogs or not isinstance(QApplication.instance(), QApplication):
            return
        if self._dialog is not None:
            self._more_while_open += 1
            self._dialog.set_note(self._informative(self._more_while_open))
            return
        try:
            self._dialog = self._build_dialog(summary, details)
            self._dialog.finished.connect(self._on_dialog_finished)
            self._dialog.open()
        except Exception:
            print(details, file=sys.stderr)

    def _informative(self, more: int) -> str:
        text = f"Details are in the log file: {self.log_path}"
        if more:
            text += (f"\n{more} more error{'s' if more != 1 else ''} happened since; "
                     "they are in the log too.")
        return text

    def _build_dialog(self, summary: str, details: str) -> CrashDialog:
        parent = QApplication.activeWindow()
        return CrashDialog(summary, details, self._informative(0), self.log_dir,
                           parent if isinstance(parent, QWidget) else None)

    def _on_dialog_finished(self, _result: int) -> None:
        if self._dialog is not None:
            self._dialog.deleteLater()
        self._dialog = None
        self._more_while_open = 0

    @property
    def dialog(self) -> CrashDialog | None:
        """The error dialog while it is open."""
        return self._dialog


class CrashDialog(QDialog):
    """What happened, in one sentence; the traceback below; *Copy details*, *Open log folder*,
    *Close*. Non-modal, so the window (and the draft) stay usable behind it."""

    def __init__(self, summary: str, details: str, note: str, log_dir: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("crashDialog")
        self.setWindowTitle("Composer: unexpected error")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self._summary = summary
        self._details = details
        self._log_dir = log_dir
        layout = QVBoxLayout(self)
        headline = QLabel(f"<b>Something went wrong.</b> {html.escape(summary)}")
        headline.setWordWrap(True)
        headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(headline)
        layout.addWidget(QLabel("Your drafts are kept. If this keeps happening, please report "
                                "it with the details below."))
        self._note = QLabel(note)
        self._note.setObjectName("crashLogNote")
        self._note.setWordWrap(True)
        self._note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self._note)
        text = QPlainTextEdit(details)
        text.setObjectName("crashDetails")
        text.setReadOnly(True)
        text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        text.setMinimumSize(520, 160)
        text.setAccessibleName("Error details")
        layout.addWidget(text)
        buttons = QDialogButtonBox()
        copy = buttons.addButton("&Copy details", QDialogButtonBox.ButtonRole.ActionRole)
        copy.setObjectName("copyDetails")
        copy.clicked.connect(self.copy_details)
        folder = buttons.addButton("Open &log folder", QDialogButtonBox.ButtonRole.ActionRole)
        folder.setObjectName("openLogFolder")
        folder.clicked.connect(self.open_log_folder)
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        close.clicked.connect(self.accept)
        close.setDefault(True)
        layout.addWidget(buttons)

    def set_note(self, note: str) -> None:
        self._note.setText(note)

    def note(self) -> str:
        return self._note.text()

    def copy_details(self) -> None:
        """Put the summary, the traceback and the log's path on the clipboard."""
        QGuiApplication.clipboard().setText(
            f"{self._summary}\n\n{self._details}\nLog: {self._log_dir / LOG_FILE_NAME}\n")

    def open_log_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self._log_dir)))
