"""``ThreadNavigation``: which thread the window shows, and the thread commands around it — the
list, search, the quick switcher, rename, archive and the *Thread ▸ Assistant* choice.

Invariants: the composer always shows the draft of the thread the list selects (``open_thread``
switches the list selection, the draft autosave, the editor and the transcript together); the last
thread and the archived threads are remembered in the window settings; archiving is kept on this
device, while renames and provider changes go to the engine, queued like every command; the
*Assistant* menu checks the current thread's provider and is enabled only when it can be changed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QInputDialog

from composer_app.sync.store import ThreadRow
from composer_app.ui.composer.drafts import DraftAutosave
from composer_app.ui.threads.thread_list_model import thread_title
from composer_app.ui.window import main_window_logic as logic


class ThreadNavigation:
    """Mixin of ``MainWindow`` for opening, creating, renaming and archiving threads."""

    def reload_threads(self) -> None:
        """Ask the cache for the thread list."""
        self.call("threads", then=self._on_threads)

    def _on_threads(self, rows: Any, error: str) -> None:
        if error:
            self.status.showMessage(f"Could not read the thread list: {error}", 8000)
            return
        self._threads = list(rows or [])
        self.thread_pane.set_threads(self._threads, self.archived)
        ids = [r.thread_id for r in self.thread_pane.model_rows(all_rows=True)]
        self._awaiting_listing.difference_update(r.thread_id for r in self._threads)
        remembered = str(self.window_settings.value("threads/last", "") or "")
        target = logic.thread_to_open(ids, remembered, self.current_thread,
                                      self._awaiting_listing)
        if target and target != self.current_thread:
            self.open_thread(target)
        elif (not target and not self._threads and self.session.embedded
              and not self._creating_first):
            self._creating_first = True
            self.new_thread()
        self._update_thread_actions()

    def new_thread(self, title: str | None = None) -> None:
        """Create a thread and show it (Ctrl+N)."""
        self.call("create_thread", title or None, then=self._on_thread_created)

    def _on_thread_created(self, thread_id: Any, error: str) -> None:
        if error:
            self.status.showMessage(f"Could not create a thread: {error}", 8000)
            return
        self.current_thread = ""
        self._awaiting_listing.add(str(thread_id))
        self.window_settings.setValue("threads/last", str(thread_id))
        self.open_thread(str(thread_id))
        self.reload_threads()
        self.editor.setFocus()

    def open_thread(self, thread_id: str) -> None:
        """Show a thread: its transcript and its draft in the composer."""
        if not thread_id or thread_id == self.current_thread:
            return
        self.current_thread = thread_id
        self.window_settings.setValue("threads/last", thread_id)
        self.thread_pane.select_thread(thread_id)
        if self.autosave is None:
            self.autosave = DraftAutosave(self.editor, self.draft_store, thread_id,
                                          router=self.router)
        else:
            self.autosave.switch_thread(thread_id)
        self.editor.thread_id = thread_id
        self._set_editor_enabled(True)
        self._shown.clear()
        self.transcript.transcript_model().load([])
        if self.sources_dock.panel.message_id:
            self.sources_dock.hide()
        self._update_title()
        self._update_thread_actions()
        self._refresh_transcript()

    def thread_row(self, thread_id: str) -> ThreadRow | None:
        return next((r for r in self._threads if r.thread_id == thread_id), None)

    def _thread_title(self, thread_id: str) -> str:
        row = self.thread_row(thread_id)
        return thread_title(row) if row is not None else "Thread"

    def rename_thread(self, thread_id: str, title: str) -> None:
        """Rename a thread (queued like every command)."""
        title = " ".join(title.split())
        if thread_id and title:
            self.call("rename_thread", thread_id, title, then=self._on_command_done)

    def rename_thread_interactive(self, thread_id: str) -> None:
        row = self.thread_row(thread_id)
        current = thread_title(row) if row is not None else ""
        title, ok = QInputDialog.getText(self, "Rename thread", "Title:", text=current)
        if ok:
            self.rename_thread(thread_id, title)

    def rename_current(self) -> None:
        if self.current_thread:
            self.rename_thread_interactive(self.current_thread)

    def set_thread_provider(self, thread_id: str, provider: str) -> None:
        """Choose the assistant provider of a thread's next turns (queued like a rename)."""
        if thread_id and provider:
            self.call("set_thread_provider", thread_id, provider, then=self._on_command_done)

    def _on_assistant_chosen(self, provider: str) -> None:
        row = self.thread_row(self.current_thread)
        if row is not None and row.provider != provider:
            self.set_thread_provider(row.thread_id, provider)
        self._update_assistant_menu(provider if row is not None else None)

    def _update_assistant_menu(self, provider: str | None = None) -> None:
        """Check the current thread's provider (``provider``: a choice not in the cache yet)."""
        row = self.thread_row(self.current_thread)
        current = provider or (row.provider if row is not None else None)
        self.assistant_menu.setEnabled(logic.can_choose_assistant(
            self.current_thread if row is not None else "", current))
        checked = logic.assistant_choice(current)
        for name, action in self.assistant_actions.items():
            action.setChecked(name == checked)

    def set_archived(self, thread_id: str, archived: bool) -> None:
        """Archive (hide from the list) or unarchive a thread; kept on this device."""
        changed = set(self.archived)
        (changed.add if archived else changed.discard)(thread_id)
        self.archived = frozenset(changed)
        self.window_settings.setValue("threads/archived", sorted(self.archived))
        self.thread_pane.set_threads(self._threads, self.archived)
        self._update_thread_actions()

    def toggle_archive_current(self) -> None:
        if self.current_thread:
            self.set_archived(self.current_thread, self.current_thread not in self.archived)

    def _on_show_archived_toggled(self, checked: bool) -> None:
        self.thread_pane.show_archived.setChecked(checked)

    def open_switcher(self) -> None:
        """Ctrl+K."""
        self.switcher.set_threads([(r.thread_id, thread_title(r))
                                   for r in self.thread_pane.model_rows(all_rows=True)])
        self.switcher.open_switcher()

    def focus_search(self) -> None:
        self.thread_pane.search.setFocus()
        self.thread_pane.search.selectAll()

    def _update_title(self) -> None:
        row = self.thread_row(self.current_thread)
        self.setWindowTitle(f"{thread_title(row)} — Composer" if row is not None else "Composer")

    def _update_thread_actions(self) -> None:
        has = bool(self.current_thread)
        self.rename_action.setEnabled(has)
        self.archive_action.setEnabled(has)
        self.archive_action.setText("Un&archive thread" if self.current_thread in self.archived
                                    else "&Archive thread")
        self._update_assistant_menu()
        self._update_title()
