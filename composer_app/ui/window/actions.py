"""``WindowActions``: the main window's actions and its menu bar.

Invariants: every action is added to the window (so its shortcut works wherever the focus is in
it) and has exactly one menu entry; the shortcuts are those of the issue (Ctrl+N, Ctrl+K, Ctrl+S,
Ctrl+Shift+V, Ctrl+Shift+S, F6) and Qt's standard keys for *Edit ▸ Undo … Select All*
(``EditCommands``); the actions only say what the user asked for — the composition
root connects ``triggered`` (``toggled`` for a checkable action) to the part that does it;
*Thread ▸ Assistant* holds one checkable entry per provider choice, at most one of them checked,
and reports a choice with ``assistant_chosen``.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar, QWidget

from composer_app.ui.threads import navigation_logic as logic
from composer_app.ui.window.edit_commands import EditCommands

__all__ = ["SOURCES_KEY", "WindowActions"]

SOURCES_KEY = "Ctrl+Shift+S"


class WindowActions(QObject):
    """The window's actions (one attribute each) and the menus that list them."""

    assistant_chosen = Signal(str)  # a provider name of ``ASSISTANT_CHOICES``

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        a = self._action
        self.new_thread_action = a("&New thread", "Ctrl+N", name="newThread")
        self.switcher_action = a("&Switch to thread…", "Ctrl+K", name="quickSwitcher")
        self.find_action = a("&Find in threads and messages", "Ctrl+F",
                                   name="findThread")
        self.settings_action = a("Se&ttings…", "Ctrl+,", name="settings")
        self.quit_action = a("&Quit", "Ctrl+Q", name="quit")
        self.send_action = a("S&end message", name="send")
        self.stash_action = a("&Stash prompt", "Ctrl+S", name="stash")
        self.restore_stash_action = a("&Restore stashed prompt", name="restoreStash")
        self.plain_paste_action = a("Paste as &plain text", "Ctrl+Shift+V", name="plainPaste")
        self.rename_action = a("&Rename thread…", "F2", name="rename")
        self.archive_action = a("&Archive thread", name="archive")
        self.show_archived_action = a("Show a&rchived threads", checkable=True,
                                      name="showArchived")
        self.unsent_action = a("&Unsent messages…", name="unsent")
        self.retry_action = a("Retry &connection now", name="retryNow")
        self.sources_action = a("&Sources panel", SOURCES_KEY, checkable=True,
                                name="toggleSources")
        self.next_pane_action = a("&Next pane", "F6", name="nextPane")
        self.previous_pane_action = a("&Previous pane", "Shift+F6", name="previousPane")
        self.about_action = a("&About Composer", name="about")
        self.share_action = a("S&hare…", name="shareThread")
        self.log_folder_action = a("Open &log folder", name="openLogFolder")
        self.edit_commands = EditCommands(window)
        self.assistant_group = QActionGroup(self)
        self.assistant_group.setExclusionPolicy(
            QActionGroup.ExclusionPolicy.ExclusiveOptional)  # none checked for other providers
        self.assistant_actions: dict[str, QAction] = {}
        for name, label in logic.ASSISTANT_CHOICES:
            action = QAction(label, self)
            action.setCheckable(True)
            action.setObjectName(f"assistant:{name}")
            action.triggered.connect(lambda _checked=False, n=name: self.assistant_chosen.emit(n))
            self.assistant_group.addAction(action)
            self.assistant_actions[name] = action
        self.assistant_menu = QMenu("A&ssistant", window)
        self.assistant_menu.setObjectName("assistantMenu")
        self.assistant_menu.addActions(list(self.assistant_actions.values()))
        self.set_thread_state(False, False)  # no thread is open until the list has loaded
        self.set_assistant(False, "")

    def _action(self, text: str, shortcut: str | None = None, *, checkable: bool = False,
                name: str) -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setCheckable(checkable)
        action.setObjectName(name)
        self._window.addAction(action)
        return action

    def build_menus(self, bar: QMenuBar) -> None:
        """File, Edit, Thread (with Assistant), View and Help."""
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_thread_action, self.switcher_action, self.find_action])
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = bar.addMenu("&Edit")
        edit_menu.addActions(list(self.edit_commands.actions.values())[:2])
        edit_menu.addSeparator()
        edit_menu.addActions(list(self.edit_commands.actions.values())[2:])
        edit_menu.addSeparator()
        edit_menu.addActions([self.send_action, self.stash_action, self.restore_stash_action,
                              self.plain_paste_action])
        thread_menu = bar.addMenu("&Thread")
        thread_menu.addActions([self.rename_action, self.share_action, self.archive_action,
                                self.show_archived_action])
        thread_menu.addMenu(self.assistant_menu)
        thread_menu.addSeparator()
        thread_menu.addActions([self.unsent_action, self.retry_action])
        view_menu = bar.addMenu("&View")
        view_menu.addActions([self.sources_action, self.next_pane_action,
                              self.previous_pane_action])
        help_menu = bar.addMenu("&Help")
        help_menu.addActions([self.log_folder_action, self.about_action])

    # -- state shown by the actions ----------------------------------------------------------------
    def set_thread_state(self, has_thread: bool, archived: bool) -> None:
        """Rename and Archive apply to the open thread; Archive reads Unarchive when it is."""
        self.rename_action.setEnabled(has_thread)
        self.share_action.setEnabled(has_thread)
        self.archive_action.setEnabled(has_thread)
        self.archive_action.setText("Un&archive thread" if archived else "&Archive thread")

    def set_assistant(self, enabled: bool, checked: str) -> None:
        """Enable *Assistant* and check the entry named ``checked`` ("" checks none)."""
        self.assistant_menu.setEnabled(enabled)
        for name, action in self.assistant_actions.items():
            action.setChecked(name == checked)

    def set_sources_checked(self, visible: bool) -> None:
        """Mirror the Sources panel's visibility without toggling it again."""
        if self.sources_action.isChecked() != visible:
            self.sources_action.blockSignals(True)
            self.sources_action.setChecked(visible)
            self.sources_action.blockSignals(False)
