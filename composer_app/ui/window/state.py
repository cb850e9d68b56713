"""``WindowState``: what the main window remembers between runs, in ``window.ini`` of the config
directory — geometry, dock state, both splitters, the last open thread and the archived threads.

Invariants: geometry, dock state and both splitters are restored only from non-empty saved values
(otherwise the defaults apply), the restored window lies wholly on its screen (moved, and shrunk
when it must, into the available area: a geometry saved at another scale never ends partly
off-screen), and they are saved together with the last open thread; ``save`` writes the
file through before it returns; the archived threads are kept sorted, on this device only.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QObject, QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget

from composer_app.ui.threads import navigation_logic as logic
from composer_app.ui.threads.server_groups_logic import SeenMarks
from composer_app.ui.window import main_window_logic as window_logic

__all__ = ["DEFAULT_CENTRE_SIZES", "DEFAULT_SIZE", "WINDOW_SETTINGS", "WindowState",
           "fit_window_on_screen"]

WINDOW_SETTINGS = "window.ini"
DEFAULT_SIZE = (1280, 800)
DEFAULT_CENTRE_SIZES = (640, 120)


def _saved(value: object) -> QByteArray | None:
    return value if isinstance(value, QByteArray) and not value.isEmpty() else None


def fit_window_on_screen(window: QWidget) -> None:
    """Move and shrink a window (with its frame) into its screen's available area."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None or window.isMaximized() or window.isFullScreen():
        return
    area = screen.availableGeometry()
    inner, outer = window.geometry(), window.frameGeometry()
    extra_w, extra_h = outer.width() - inner.width(), outer.height() - inner.height()
    x, y, w, h = window_logic.fit_on_screen(
        (outer.x(), outer.y(), outer.width(), outer.height()),
        (area.x(), area.y(), area.width(), area.height()))
    window.resize(max(w - extra_w, 1), max(h - extra_h, 1))
    window.move(x, y)


class WindowState(QObject):
    """The window's settings file and what it holds."""

    def __init__(self, config_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = QSettings(str(config_dir / WINDOW_SETTINGS), QSettings.Format.IniFormat)

    # -- threads ---------------------------------------------------------------------------------
    def last_thread(self) -> str:
        """The thread that was open last ("" when none)."""
        return str(self.settings.value("threads/last", "") or "")

    def remember_thread(self, thread_id: str) -> None:
        self.settings.setValue("threads/last", thread_id)

    def archived(self) -> frozenset[str]:
        """The threads archived on this device."""
        return logic.parse_archived(self.settings.value("threads/archived"))

    def set_archived(self, archived: frozenset[str]) -> None:
        self.settings.setValue("threads/archived", sorted(archived))

    def unread(self) -> frozenset[str]:
        """The threads left unread when the app last ran."""
        return logic.parse_archived(self.settings.value("threads/unread"))

    def set_unread(self, unread: frozenset[str]) -> None:
        self.settings.setValue("threads/unread", sorted(unread))

    def seen_marks(self) -> SeenMarks:
        """What the user had seen of each thread and server when the app last ran."""
        return SeenMarks.from_json(self.settings.value("threads/seen"))

    def set_seen_marks(self, marks: SeenMarks) -> None:
        self.settings.setValue("threads/seen", marks.to_json())

    # -- geometry --------------------------------------------------------------------------------
    def restore(self, window: QMainWindow, splitter: QSplitter, centre: QSplitter) -> None:
        """Geometry, dock state and splitters as saved, or the defaults."""
        if (geometry := _saved(self.settings.value("window/geometry"))) is not None:
            window.restoreGeometry(geometry)
        else:
            window.resize(*DEFAULT_SIZE)
        if (state := _saved(self.settings.value("window/state"))) is not None:
            window.restoreState(state)
        if (sizes := _saved(self.settings.value("window/splitter"))) is not None:
            splitter.restoreState(sizes)
        if (centre_sizes := _saved(self.settings.value("window/centre"))) is not None:
            centre.restoreState(centre_sizes)
        else:
            centre.setSizes(list(DEFAULT_CENTRE_SIZES))
        fit_window_on_screen(window)

    def save(self, window: QMainWindow, splitter: QSplitter, centre: QSplitter,
             current_thread: str) -> None:
        """Remember geometry, dock state, splitters and the last thread; written through."""
        self.settings.setValue("window/geometry", window.saveGeometry())
        self.settings.setValue("window/state", window.saveState())
        self.settings.setValue("window/splitter", splitter.saveState())
        self.settings.setValue("window/centre", centre.saveState())
        if current_thread:
            self.remember_thread(current_thread)
        self.settings.sync()
