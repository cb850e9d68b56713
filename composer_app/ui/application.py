"""The Qt application of the desktop app: its identity, icon and style, and the order in which a
run ends.

Invariants: the application id is ``APP_ID`` (the desktop entry's name) and the style Fusion;
``shut_down`` runs on every exit path — the window first (drafts, geometry, sends still waiting for
an upload to be registered), then the sync engine, then the embedded server, then the clipboard
(data made by Python must not outlive the interpreter); Qt is imported only inside the functions.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from composer_app import APP_ID, __version__

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from composer_app.ui.backend import Started
    from composer_app.ui.window.main_window import MainWindow

__all__ = ["ICON_NAME", "app_icon", "create_application", "icons_dir", "quit_now",
           "release_clipboard", "shut_down"]

ICON_NAME = f"{APP_ID}.png"


def icons_dir() -> Path:
    """``resources/icons`` of the bundle or of the source tree."""
    base = getattr(sys, "_MEIPASS", None)
    if base:
        return Path(base) / "resources" / "icons"
    return Path(__file__).resolve().parents[2] / "resources" / "icons"


def app_icon() -> QIcon:
    from PySide6.QtGui import QIcon

    icon = QIcon()
    root = icons_dir() / "hicolor"
    for png in sorted(root.glob(f"*/apps/{ICON_NAME}")):
        icon.addFile(str(png))
    if icon.isNull():
        return QIcon.fromTheme(APP_ID)
    return icon


def create_application(argv: Sequence[str] | None = None) -> QApplication:
    """The ``QApplication`` with the app's identity, icon and style."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(
        list(argv) if argv is not None else sys.argv[:1])
    QGuiApplication.setApplicationName("Composer")
    QGuiApplication.setApplicationDisplayName("Composer")
    QGuiApplication.setOrganizationName("ComposerApp")
    QGuiApplication.setApplicationVersion(__version__)
    QGuiApplication.setDesktopFileName(APP_ID)
    app.setStyle("Fusion")
    app.setWindowIcon(app_icon())
    return app


def release_clipboard() -> None:
    """Before Python shuts down, swap clipboard data this app put there for a Qt-made copy of its
    text: Qt destroys the clipboard's data after the interpreter is gone, and data made from Python
    would crash the process at exit. Other applications keep the Markdown text."""
    from PySide6.QtGui import QClipboard, QGuiApplication

    clipboard = QGuiApplication.clipboard()
    for mode in (QClipboard.Mode.Clipboard, QClipboard.Mode.Selection):
        if mode == QClipboard.Mode.Selection and not clipboard.supportsSelection():
            continue
        data = clipboard.mimeData(mode)
        if data is None or not data.formats():
            continue
        owned = (clipboard.ownsClipboard() if mode == QClipboard.Mode.Clipboard
                 else clipboard.ownsSelection())
        if owned or QGuiApplication.platformName() == "offscreen":
            text = data.text()
            if text:
                clipboard.setText(text, mode)
            else:
                clipboard.clear(mode)


def quit_now() -> None:
    """Close every window (dialogs included) and leave the event loop."""
    from PySide6.QtWidgets import QApplication

    QApplication.closeAllWindows()
    QApplication.quit()


def shut_down(window: MainWindow | None, started: Started) -> None:
    """Every exit path: the window (drafts, geometry, sends still waiting for an upload to be
    registered), then the sync engine, then the embedded server, then the clipboard (data made
    by Python must not outlive the interpreter)."""
    try:
        if window is not None:
            window.shutdown()
    finally:
        try:
            started.stop()
        finally:
            release_clipboard()
