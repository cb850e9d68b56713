"""``WindowState``: what the main window remembers between runs, in ``window.ini`` of the config
directory.

Invariants: geometry, dock state and both splitters are restored only from non-empty saved values
(otherwise the defaults apply) and saved together with the last open thread; ``save_window``
writes the file through before it returns.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray

WINDOW_SETTINGS = "window.ini"
DEFAULT_SIZE = (1280, 800)


class WindowState:
    """Mixin of ``MainWindow``; expects ``window_settings``, ``splitter``, ``centre``."""

    def _restore_window(self) -> None:
        geometry = self.window_settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(*DEFAULT_SIZE)
        state = self.window_settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        sizes = self.window_settings.value("window/splitter")
        if isinstance(sizes, QByteArray) and not sizes.isEmpty():
            self.splitter.restoreState(sizes)
        centre = self.window_settings.value("window/centre")
        if isinstance(centre, QByteArray) and not centre.isEmpty():
            self.centre.restoreState(centre)
        else:
            self.centre.setSizes([640, 120])

    def save_window(self) -> None:
        """Remember geometry, dock state, splitters and the last thread."""
        self.window_settings.setValue("window/geometry", self.saveGeometry())
        self.window_settings.setValue("window/state", self.saveState())
        self.window_settings.setValue("window/splitter", self.splitter.saveState())
        self.window_settings.setValue("window/centre", self.centre.saveState())
        if self.current_thread:
            self.window_settings.setValue("threads/last", self.current_thread)
        self.window_settings.sync()
