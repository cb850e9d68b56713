"""``WindowActions``: the main window's actions and its menu bar.

Invariants: every action is added to the window (so its shortcut works wherever the focus is in
it) and has exactly one menu entry; the shortcuts are those of the issue (Ctrl+N, Ctrl+K, Ctrl+S,
Ctrl+Shift+V, Ctrl+Shift+S, F6); a checkable action calls its slot on ``toggled``, any other on
``triggered``; *Thread ▸ Assistant* holds one checkable entry per provider choice, at most one of
them checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

from composer_app.ui.window import main_window_logic as logic

SOURCES_KEY = "Ctrl+Shift+S"


class WindowActions:
    """Mixin of ``MainWindow`` that builds its actions (``_build_actions``) and menus."""

    def _action(self, text: str, slot: Callable[..., Any], shortcut: str | None = None, *,
                checkable: bool = False, name: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setCheckable(checkable)
        action.setObjectName(name or text)
        (action.toggled if checkable else action.triggered).connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        a = self._action
        self.new_thread_action = a("&New thread", self.new_thread, "Ctrl+N", name="newThread")
        self.switcher_action = a("&Switch to thread…", self.open_switcher, "Ctrl+K",
                                 name="quickSwitcher")
        self.find_action = a("&Find thread by title", self.focus_search, "Ctrl+F",
                             name="findThread")
        self.settings_action = a("Se&ttings…", self.open_settings, "Ctrl+,", name="settings")
        self.quit_action = a("&Quit", self.close, "Ctrl+Q", name="quit")
        self.send_action = a("S&end message", self._on_send_triggered, name="send")
        self.stash_action = a("&Stash prompt", self.stash_prompt, "Ctrl+S", name="stash")
        self.restore_stash_action = a("&Restore stashed prompt", self.restore_stash,
                                      name="restoreStash")
        self.plain_paste_action = a("Paste as &plain text", self.paste_plain, "Ctrl+Shift+V",
                                    name="plainPaste")
        self.rename_action = a("&Rename thread…", self.rename_current, "F2", name="rename")
        self.archive_action = a("&Archive thread", self.toggle_archive_current, name="archive")
        self.show_archived_action = a("Show a&rchived threads", self._on_show_archived_toggled,
                                      checkable=True, name="showArchived")
        self.unsent_action = a("&Unsent messages…", self.open_unsent, name="unsent")
        self.retry_action = a("Retry &connection now", self._on_retry_now, name="retryNow")
        self.sources_action = a("&Sources panel", self.set_sources_visible, SOURCES_KEY,
                                checkable=True, name="toggleSources")
        self.next_pane_action = a("&Next pane", self.focus_next_pane, "F6", name="nextPane")
        self.previous_pane_action = a("&Previous pane", self.focus_previous_pane, "Shift+F6",
                                      name="previousPane")
        self.about_action = a("&About Composer", self.show_about, name="about")

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.new_thread_action, self.switcher_action, self.find_action])
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = bar.addMenu("&Edit")
        edit_menu.addActions([self.send_action, self.stash_action, self.restore_stash_action,
                              self.plain_paste_action])
        thread_menu = bar.addMenu("&Thread")
        thread_menu.addActions([self.rename_action, self.archive_action,
                                self.show_archived_action])
        self._build_assistant_menu(thread_menu)
        thread_menu.addSeparator()
        thread_menu.addActions([self.unsent_action, self.retry_action])
        view_menu = bar.addMenu("&View")
        view_menu.addActions([self.sources_action, self.next_pane_action,
                              self.previous_pane_action])
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(self.about_action)

    def _build_assistant_menu(self, thread_menu: QMenu) -> None:
        """*Thread ▸ Assistant*: one checkable entry per provider a thread can use."""
        self.assistant_menu = thread_menu.addMenu("A&ssistant")
        self.assistant_menu.setObjectName("assistantMenu")
        self.assistant_group = QActionGroup(self)
        self.assistant_group.setExclusionPolicy(
            QActionGroup.ExclusionPolicy.ExclusiveOptional)  # none checked for other providers
        self.assistant_actions: dict[str, QAction] = {}
        for name, label in logic.ASSISTANT_CHOICES:
            action = QAction(label, self)
            action.setCheckable(True)
            action.setObjectName(f"assistant:{name}")
            action.triggered.connect(lambda _checked=False, n=name: self._on_assistant_chosen(n))
            self.assistant_group.addAction(action)
            self.assistant_menu.addAction(action)
            self.assistant_actions[name] = action
