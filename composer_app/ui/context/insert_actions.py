"""``InsertActions``: the entries of the Insert menu and of the composer's ``+`` button.

One ``QAction`` per entry, with the object names, texts and shortcuts the window and tests rely
on: ``attachFiles`` (Ctrl+U), ``captureScreenshot``, ``insertMention``, ``insertSkill``,
``insertThread``, ``runCommand``, ``insertPullRequest``, ``showChanges`` (Ctrl+Shift+G).
``menu()`` builds the *Insert* menu (object name ``insertMenu``); ``add_context_button()`` the
``+`` button (object name ``addContextButton``) that opens the same entries. The window connects
each action's ``triggered``; ``type_trigger`` is what the mention, skill and thread entries do in
the composer.

Invariants: the entries that need a workspace (files, commands, changes) are disabled, with a
tooltip saying why, while the thread has none; the menu and the button share the same actions, so
their state never diverges.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QTextEdit, QToolButton, QWidget

from composer_app.ui.context.completion_logic import from_units, trigger_text

NO_WORKSPACE = "This thread has no workspace: choose one with Thread ▸ Workspace folder…"

ENTRIES: tuple[tuple[str, str, str, str, bool], ...] = (
    # object name, text, shortcut, what it does, needs a workspace
    ("attachFiles", "&Attach files…", "Ctrl+U", "Attach files from this computer", False),
    ("captureScreenshot", "&Screenshot…", "Ctrl+Alt+S", "Capture a screen region", False),
    ("insertMention", "&File from workspace…", "Ctrl+Alt+F", "Mention a workspace file (@)",
     True),
    ("insertSkill", "S&kill…", "Ctrl+Alt+K", "Use a skill (/)", False),
    ("insertThread", "&Thread…", "Ctrl+Alt+H", "Reference another thread (#)", False),
    ("runCommand", "&Run a command…", "Ctrl+Alt+R", "Run a command in the workspace (!)", True),
    ("insertPullRequest", "&Pull request…", "Ctrl+Alt+P", "Attach a GitHub pull request", False),
    ("showChanges", "&Changes", "Ctrl+Shift+G", "Show the workspace's changes", True),
)
TRIGGERS = {"insertMention": "@", "insertSkill": "/", "insertThread": "#"}


class InsertActions(QObject):
    """The Insert entries; see the module docstring."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.actions: dict[str, QAction] = {}
        self._needs_workspace: set[str] = set()
        self._tips: dict[str, str] = {}
        for name, text, shortcut, tip, needs in ENTRIES:
            action = QAction(text, parent)
            action.setObjectName(name)
            action.setShortcut(QKeySequence(shortcut))
            tooltip = f"{tip} ({shortcut})"
            action.setToolTip(tooltip)
            action.setStatusTip(tip)
            self._tips[name] = tooltip
            if needs:
                self._needs_workspace.add(name)
            self.actions[name] = action
        self.set_workspace_available(False)

    def action(self, name: str) -> QAction:
        """The action with object name ``name``."""
        return self.actions[name]

    def set_workspace_available(self, available: bool) -> None:
        """Enable the workspace entries (or disable them with the reason as tooltip)."""
        for name in self._needs_workspace:
            action = self.actions[name]
            action.setEnabled(available)
            action.setToolTip(self._tips[name] if available else NO_WORKSPACE)

    def menu(self, parent: QWidget | None = None) -> QMenu:
        """The *Insert* menu."""
        menu = QMenu("&Insert", parent)
        menu.setObjectName("insertMenu")
        menu.setToolTipsVisible(True)
        for index, (name, *_rest) in enumerate(ENTRIES):
            if index in (2, 6):
                menu.addSeparator()
            menu.addAction(self.actions[name])
        return menu

    def add_context_button(self, parent: QWidget | None = None) -> QToolButton:
        """The composer's ``+`` button, opening the same entries."""
        button = QToolButton(parent)
        button.setObjectName("addContextButton")
        button.setText("+")
        button.setToolTip("Add context: files, screenshots, workspace files, skills, threads…")
        button.setAccessibleName("Add context")
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        button.setMenu(self.menu(button))
        return button


def type_trigger(editor: QTextEdit, action_name: str) -> bool:
    """Type the trigger character of a mention, skill or thread entry at the caret (with a
    space first when needed) and focus the editor; False for other entries."""
    character = TRIGGERS.get(action_name)
    if character is None:
        return False
    cursor = editor.textCursor()
    line = cursor.block().text()
    before = line[: from_units(line, cursor.positionInBlock())]
    editor.setFocus()
    cursor.insertText(trigger_text(before, character))
    editor.setTextCursor(cursor)
    return True
