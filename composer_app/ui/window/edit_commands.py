"""``EditCommands``: *Edit ▸ Undo, Redo, Cut, Copy, Paste, Select All* acting on the widget that
has the keyboard focus.

Invariants: each command carries Qt's standard key for the platform (``QKeySequence.StandardKey``);
a text field that handles the key itself (line edits, the composer) keeps doing so — Qt gives it
the key before any window shortcut — so the menu entry and the key do the same thing; a command
runs on the focused widget only when that widget has the matching method (``undo``, ``redo``,
``cut``, ``copy``, ``paste``, ``selectAll``; the transcript copies its selection), else it does
nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QWidget

__all__ = ["EDIT_COMMANDS", "EditCommands"]

EDIT_COMMANDS: tuple[tuple[str, str, QKeySequence.StandardKey], ...] = (
    ("undo", "&Undo", QKeySequence.StandardKey.Undo),
    ("redo", "&Redo", QKeySequence.StandardKey.Redo),
    ("cut", "Cu&t", QKeySequence.StandardKey.Cut),
    ("copy", "&Copy", QKeySequence.StandardKey.Copy),
    ("paste", "&Paste", QKeySequence.StandardKey.Paste),
    ("selectAll", "Select &All", QKeySequence.StandardKey.SelectAll),
)
"""(method of the focused widget, menu text, standard key), in menu order."""

_FALLBACKS = {"copy": "copy_selection"}  # the transcript copies its selection


class EditCommands(QObject):
    """One action per standard edit command, added to ``window``."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.actions: dict[str, QAction] = {}
        for method, text, key in EDIT_COMMANDS:
            action = QAction(text, self)
            action.setObjectName(f"edit:{method}")
            action.setShortcuts(QKeySequence.keyBindings(key))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(lambda _checked=False, m=method: self.run(m))
            window.addAction(action)
            self.actions[method] = action

    @staticmethod
    def run(method: str) -> bool:
        """Run ``method`` on the focused widget; False when it has no such command."""
        widget = QApplication.focusWidget()
        if widget is None:
            return False
        for name in (method, _FALLBACKS.get(method, "")):
            command = getattr(widget, name, None) if name else None
            if callable(command):
                command()
                return True
        return False
