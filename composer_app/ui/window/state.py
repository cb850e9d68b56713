"""``WindowState``: what the main window remembers between runs, in ``window.ini`` of the config
directory — geometry, dock state, both splitters, the last open thread and the archived threads.

Invariants: geometry, dock state and both splitters are restored only from non-empty saved values
(otherwise the defaults apply) and saved together with the last open thread; ``save`` writes the
file through before it returns; the archived threads are kept sorted, on this device only.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QObject, QSettings
from PySide6.QtWidgets import QMainWindow, QSplitter

from composer_app.ui.threads import navigation_logic as logic

__all__ = ["DEFAULT_CENTRE_SIZES", "DEFAULT_SIZE", "WINDOW_SETTINGS", "WindowState"]

WINDOW_SETTINGS = "window.ini"
DEFAULT_SIZE = (1280, 800)
DEFAULT_CENTRE_SIZES = (640, 120)


def _saved(value: object) -> QByteArray | None:
    return value if isinstance(value, QByteArray) and not value.isEmpty() else None


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
