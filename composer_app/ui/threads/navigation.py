"""``ThreadNavigator``: which thread the window shows, and the thread commands around it — the
list, search, the quick switcher, rename, archive and the assistant provider choice.

Invariants: ``current_thread`` is the thread the list selects; ``open_thread`` changes it and
announces it with ``thread_opened`` (the window then shows that thread's draft and transcript);
the last thread and the archived threads are remembered in a ``ThreadMemory`` (the window's
state file); archiving is kept on
this device, while renames and provider changes go to the engine, queued like every command; a
thread this window created is opened at once, and a thread list read before it was listed never
switches the window to another thread; the embedded app with no thread creates one. After every
change the navigator reports the window title (``title_changed``), whether a thread is open and
archived (``thread_state_changed``) and the *Assistant* choice (``assistant_changed``: enabled,
the checked provider or "").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QInputDialog, QWidget

from composer_app.sync.message_search import MessageHit
from composer_app.sync.store import MessageRow, ThreadRow
from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.read_order import ReadOrder
from composer_app.ui.threads import navigation_logic as logic
from composer_app.ui.threads.quick_switcher import QuickSwitcher
from composer_app.ui.threads.quick_switcher_logic import switcher_entries
from composer_app.ui.threads.server_groups_logic import (
    SeenMarks,
    ServerGroup,
    UnreadCounter,
    jump_target,
    thread_to_show,
)
from composer_app.ui.threads.thread_list import ThreadListPane
from composer_app.ui.threads.thread_list_model import thread_title

__all__ = ["APP_TITLE", "ThreadMemory", "ThreadNavigator"]

APP_TITLE = "Composer"
MESSAGE_SEARCH_DELAY_MS = 150
SWITCHER_REFRESH_MS = 120
MESSAGE_HITS = 30


def _never() -> bool:
    return False


def _no_servers() -> list[tuple[str, str]]:
    return []


def _unknown_state(_account_id: str) -> str:
    return ""


def _no_servers_running() -> list[str]:
    return []


class ThreadMemory(Protocol):
    """Where the last open thread and the archived threads are kept between runs (the window's
    ``WindowState``)."""

    def last_thread(self) -> str: ...

    def remember_thread(self, thread_id: str) -> None: ...

    def archived(self) -> frozenset[str]: ...

    def set_archived(self, archived: frozenset[str]) -> None: ...

    def unread(self) -> frozenset[str]: ...

    def set_unread(self, unread: frozenset[str]) -> None: ...

    def seen_marks(self) -> SeenMarks: ...

    def set_seen_marks(self, marks: SeenMarks) -> None: ...


class ThreadNavigator(QObject):
    """The open thread and the thread list's commands."""

    thread_opened = Signal(str)
    thread_created = Signal(str)  # after it was opened: the composer takes the focus
    empty_thread_kept = Signal(str)  # Ctrl+N on an empty open thread: it takes the focus
    title_changed = Signal(str)
    thread_state_changed = Signal(bool, bool)  # a thread is open, it is archived
    assistant_changed = Signal(bool, str)  # the menu applies, the provider to check ("": none)
    status_message = Signal(str)
    message_revealed = Signal(str)  # a chosen search hit: the transcript shows this message
    account_changed = Signal(str)  # the open thread (or a jump) is on another server now

    def __init__(self, pane: ThreadListPane, switcher: QuickSwitcher, calls: EngineCalls,
                 state: ThreadMemory, *, embedded: bool, dialog_parent: QWidget | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pane = pane
        self.switcher = switcher
        self._calls = calls
        self._state = state
        self._embedded = embedded
        self._dialog_parent = dialog_parent
        self.archived = state.archived()
        self.current_thread = ""
        self._threads: list[ThreadRow] = []
        self._creating_first = False
        self._awaiting_listing: set[str] = set()  # created here, not in a thread list yet
        self._opened = 0  # threads the user opened (a creation answered later does not jump)
        self._list_reads: dict[str, ReadOrder] = {}  # by account ("" ungrouped)
        self.open_thread_is_empty: Callable[[], bool] = _never
        """Whether the open thread has no message and nothing typed (the window's answer)."""
        self.servers: Callable[[], list[tuple[str, str]]] = _no_servers
        """``(account id, name)`` of every server, in order (empty: one server, no groups)."""
        self.running: Callable[[], list[str]] = _no_servers_running
        """The accounts whose engines run (their threads can be read)."""
        self.state_of: Callable[[str], str] = _unknown_state
        self.current_account = ""
        self.unread = UnreadCounter(state.unread(), state.seen_marks())
        self._restoring = state.last_thread()
        """The thread open when the app last ran, until it is open again or the user opens
        another one: it may be on a server that connects after the window is shown."""
        self._auto_opening = False
        self._by_account: dict[str, list[ThreadRow]] = {}
        self._answered: set[str] = set()
        self._account_of: dict[str, str] = {}
        self._last_in_account: dict[str, str] = {}
        self._last_messages: dict[str, MessageRow] = {}
        pane.thread_selected.connect(self.open_thread)
        pane.new_requested.connect(self.request_new_thread)
        pane.rename_requested.connect(self.rename_thread_interactive)
        pane.archive_requested.connect(self.set_archived)
        switcher.thread_chosen.connect(self.open_thread)
        pane.message_search_requested.connect(self._on_message_search_requested)
        pane.message_chosen.connect(self.open_message)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(MESSAGE_SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self.search_messages)
        self._switcher_timer = QTimer(self)  # gathers a streamed answer's many changes into one
        self._switcher_timer.setSingleShot(True)
        self._switcher_timer.setInterval(SWITCHER_REFRESH_MS)
        self._switcher_timer.timeout.connect(self._read_last_messages)

    # -- the list --------------------------------------------------------------------------------
    @property
    def threads(self) -> list[ThreadRow]:
        """The thread list as last read from the cache."""
        return list(self._threads)

    @property
    def grouped(self) -> bool:
        """Whether the list is grouped by server (the window gave its servers)."""
        return bool(self.servers())

    def reload_threads(self) -> None:
        """Ask the cache for the thread list (every running server's, when grouped).

        Answers are applied in the order the requests were made: one older than a list already
        shown is dropped (it could not know a thread created since)."""
        if not self.grouped:
            reads = self._list_reads.setdefault("", ReadOrder())
            read = reads.ask()

            def then(rows: list[ThreadRow] | None, error: str) -> None:
                if reads.applies(read):
                    self._on_threads(rows, error)
            self._calls.threads(then)
            return
        running = self.running()
        for account_id in list(self._by_account):
            if account_id not in running:  # signed out or removed: its threads leave the list
                del self._by_account[account_id]
        self._answered.intersection_update(running)
        for account_id in running:
            self._calls.threads_of(account_id, self._threads_answer(account_id))
        if not running:
            self._show_groups()

    def _threads_answer(self, account_id: str
                        ) -> Callable[[list[ThreadRow] | None, str], None]:
        reads = self._list_reads.setdefault(account_id, ReadOrder())
        read = reads.ask()

        def then(rows: list[ThreadRow] | None, error: str) -> None:
            if reads.applies(read):
                self._on_account_threads(account_id, rows, error)
        return then

    def _on_account_threads(self, account_id: str, rows: list[ThreadRow] | None,
                            error: str) -> None:
        if error:
            if account_id in self.running():
                self.status_message.emit(f"Could not read the thread list: {error}")
            return
        if account_id not in self.running():
            return  # signed out while the answer was on its way
        self._by_account[account_id] = list(rows or [])
        self._answered.add(account_id)
        if self.unread.listed(account_id, rows or (), self.current_thread):
            self._state.set_unread(self.unread.ids())
        self._state.set_seen_marks(self.unread.marks)
        for row in rows or ():
            self._account_of[row.thread_id] = account_id
        self._show_groups()
        if set(self.running()) <= self._answered:
            self._on_threads(self._threads, "")

    def groups(self) -> list[ServerGroup]:
        """Each server's threads as last read, in the servers' order."""
        return [ServerGroup(account_id, name, self.state_of(account_id),
                            tuple(self._by_account.get(account_id, ())),
                            self.unread.count(r.thread_id
                                              for r in self._by_account.get(account_id, ())))
                for account_id, name in self.servers()]

    def _show_groups(self) -> None:
        self._threads = [row for rows in self._by_account.values() for row in rows]
        unread = {r.thread_id for r in self._threads if self.unread.is_unread(r.thread_id)}
        self.pane.set_groups(self.groups(), self.archived, unread)

    def refresh_groups(self) -> None:
        """Headers again (a server's name, connection or unread count changed)."""
        if self.grouped:
            self._show_groups()

    def account_of(self, thread_id: str) -> str:
        """The server a thread is on ("" when unknown)."""
        return self._account_of.get(thread_id, "")

    def message_arrived(self, account_id: str, thread_id: str) -> None:
        """A message came in or changed: unread unless its thread is open (or still unknown);
        an open switcher reads the last messages again."""
        if self.switcher.isVisible():
            self._switcher_timer.start()
        if (account_id in self._answered and self.account_of(thread_id) == account_id
                and self.unread.message_arrived(thread_id, self.current_thread)):
            self._state.set_unread(self.unread.ids())
            self._show_groups()

    def jump_to_server(self, number: int) -> None:
        """Ctrl+``number``: the server's last open thread (or newest); a server without
        threads becomes the one new threads go to."""
        target = jump_target([a for a, _ in self.servers()], number)
        if target is None:
            return
        if target in self.pane.collapsed:
            self.pane.set_collapsed(target, False)
        thread_id = thread_to_show(self._by_account.get(target, ()),
                                   self._last_in_account.get(target, ""), self.archived)
        if thread_id:
            self.open_thread(thread_id)
            return
        self._set_account(target)
        self.pane.scroll_to_server(target)
        name = dict(self.servers()).get(target, "")
        if target not in self.running():
            self.status_message.emit(f"{name} is not signed in.")
        else:
            self.status_message.emit(f"No threads on {name} yet: Ctrl+N starts one there.")

    def _set_account(self, account_id: str) -> None:
        if account_id and account_id != self.current_account:
            self.current_account = account_id
            self.account_changed.emit(account_id)

    def _on_threads(self, rows: list[ThreadRow] | None, error: str) -> None:
        if error:
            self.status_message.emit(f"Could not read the thread list: {error}")
            return
        self._threads = list(rows or [])
        if not self.grouped:
            self.pane.set_threads(self._threads, self.archived)
        ids = [r.thread_id for r in self.pane.model_rows(all_rows=True)]
        own = self._threads
        if self.grouped:  # the window opens on the active server; a server joining later
            # never takes the user away from it
            own = [r for r in self._threads if self.account_of(r.thread_id) in (
                self.current_account, "")]
            kept = self.current_thread if self.current_thread in ids else ""
            ids = [t for t in ids if t == kept or self.account_of(t) == self.current_account]
        self._awaiting_listing.difference_update(r.thread_id for r in self._threads)
        target = logic.thread_to_open(ids, self._state.last_thread(), self.current_thread,
                                      self._awaiting_listing)
        if (self.grouped and self._restoring and self._restoring not in self.archived
                and any(r.thread_id == self._restoring for r in self._threads)):
            target = self._restoring  # the last open thread, on whichever server it is, unless
            # it was archived (a hidden thread is never what a window opens on)
        if target and target != self.current_thread:
            self._auto_opening = True
            try:
                self.open_thread(target)
            finally:
                self._auto_opening = False
        elif (not target and not own and self._embedded
              and not self._creating_first):
            self._creating_first = True
            self.new_thread()
        self._report()

    def thread_row(self, thread_id: str) -> ThreadRow | None:
        return next((r for r in self._threads if r.thread_id == thread_id), None)

    def thread_title(self, thread_id: str) -> str:
        """The title the list shows for ``thread_id`` ("Thread" when it is not listed)."""
        row = self.thread_row(thread_id)
        return thread_title(row) if row is not None else "Thread"

    # -- opening and creating --------------------------------------------------------------------
    def new_thread(self, title: str | None = None) -> None:
        """Create a thread and show it (Ctrl+N) — unless another thread was opened while the
        creation was on its way: then the new thread is only listed, and the user stays."""
        opened = self._opened

        def then(thread_id: str | None, error: str) -> None:
            self._on_thread_created(thread_id, error, moved_on=self._opened != opened)
        self._calls.create_thread(title or None, then)

    def request_new_thread(self) -> None:
        """Ctrl+N and *New thread*: a new thread, unless the open one is still empty (no message,
        nothing typed) — that one is kept and takes the focus instead of leaving an empty
        thread behind."""
        if self.current_thread and self.open_thread_is_empty():
            self.empty_thread_kept.emit(self.current_thread)
            return
        self.new_thread()

    def _on_thread_created(self, thread_id: str | None, error: str, *,
                           moved_on: bool = False) -> None:
        if error:
            self.status_message.emit(f"Could not create a thread: {error}")
            return
        created = str(thread_id)
        if self.current_account:
            self._account_of[created] = self.current_account
        if moved_on and self.current_thread:
            self.reload_threads()
            return
        self._awaiting_listing.add(created)
        self.unread.expect_own_change(created)
        self._state.remember_thread(created)
        opened = self._opened
        self.open_thread(created)  # (a list may have opened it already)
        self._opened = opened  # opening what the user asked for is not a move of theirs
        self.reload_threads()
        self.thread_created.emit(created)

    def open_thread(self, thread_id: str) -> None:
        """Show a thread: its transcript and its draft in the composer."""
        if not thread_id or thread_id == self.current_thread:
            return
        account = self.account_of(thread_id)
        self._set_account(account)
        if account:
            self._last_in_account[account] = thread_id
        self.current_thread = thread_id
        if not self._auto_opening:
            self._opened += 1
        if not self._auto_opening and thread_id != self._restoring:
            self._restoring = ""  # the user chose another thread: the last one stays closed
        elif thread_id == self._restoring:
            self._restoring = ""
        if self.unread.opened(thread_id):
            self._state.set_unread(self.unread.ids())
            self._show_groups()
        self._state.set_seen_marks(self.unread.marks)
        self._state.remember_thread(thread_id)
        self.pane.select_thread(thread_id)
        self.thread_opened.emit(thread_id)
        self._report()

    def open_switcher(self) -> None:
        """Ctrl+K: open at once on the listed threads, then add each one's last message (read
        from the cache off the GUI thread) and order them by it."""
        self._fill_switcher({})
        self.switcher.open_switcher()
        self._last_messages = {}
        self._read_last_messages()

    def _read_last_messages(self) -> None:
        if not self.switcher.isVisible():
            return
        if not self.grouped:
            self._calls.last_messages(self._on_last_messages)
            return
        for account_id in self.running():
            self._calls.last_messages_of(account_id, self._on_last_messages)

    def _fill_switcher(self, last: dict[str, MessageRow]) -> None:
        names = dict(self.servers())
        several = len(names) > 1

        def server_of(thread_id: str) -> str:
            return names.get(self.account_of(thread_id), "") if several else ""

        self.switcher.set_threads(switcher_entries(self.pane.model_rows(all_rows=True), last,
                                                   self.current_thread, thread_title,
                                                   server_of))

    def _on_last_messages(self, last: dict[str, MessageRow] | None, error: str) -> None:
        if not error and self.switcher.isVisible():
            self._last_messages.update(last or {})
            self._fill_switcher(dict(self._last_messages))

    def search_messages(self) -> None:
        """Find the search text in the cached messages (off the GUI thread)."""
        query = self.pane.search.text()
        if not query.strip():
            return
        if not self.grouped:
            self._calls.search_messages(
                query, MESSAGE_HITS,
                lambda hits, error: self._on_message_hits(query, hits, error))
            return
        found: list[MessageHit] = []
        for account_id in self.running():
            self._calls.search_messages_of(
                account_id, query, MESSAGE_HITS,
                lambda hits, error: self._on_account_hits(query, found, hits, error))

    def _on_account_hits(self, query: str, found: list[MessageHit],
                         hits: list[MessageHit] | None, error: str) -> None:
        found.extend(hits or [])
        self._on_message_hits(query, found[:MESSAGE_HITS], error)

    def _on_message_search_requested(self, _text: str) -> None:
        self._search_timer.start()

    def _on_message_hits(self, query: str, hits: list[MessageHit] | None, error: str) -> None:
        if error:
            self.status_message.emit(f"Could not search the messages: {error}")
            return
        self.pane.set_message_hits(query, [
            (h.thread_id, h.message_id, self.thread_title(h.thread_id), h.excerpt)
            for h in hits or [] if self.thread_row(h.thread_id) is not None])

    def open_message(self, thread_id: str, message_id: str) -> None:
        """Open a message search hit: its thread, scrolled to it."""
        self.open_thread(thread_id)
        if thread_id == self.current_thread:
            self.message_revealed.emit(message_id)

    def focus_search(self) -> None:
        """Ctrl+F: the list's search field (thread titles and message text)."""
        self.pane.search.setFocus()
        self.pane.search.selectAll()

    # -- rename, provider, archive ---------------------------------------------------------------
    def rename_thread(self, thread_id: str, title: str) -> None:
        """Rename a thread (queued like every command)."""
        title = " ".join(title.split())
        if thread_id and title:
            self.unread.expect_own_change(thread_id)
            self._calls.rename_thread(thread_id, title)

    def rename_thread_interactive(self, thread_id: str) -> None:
        row = self.thread_row(thread_id)
        current = thread_title(row) if row is not None else ""
        title, ok = QInputDialog.getText(self._dialog_parent, "Rename thread", "Title:",
                                         text=current)
        if ok:
            self.rename_thread(thread_id, title)

    def rename_current(self) -> None:
        if self.current_thread:
            self.rename_thread_interactive(self.current_thread)

    def set_thread_provider(self, thread_id: str, provider: str) -> None:
        """Choose the assistant provider of a thread's next turns (queued like a rename)."""
        if thread_id and provider:
            self.unread.expect_own_change(thread_id)
            self._calls.set_thread_provider(thread_id, provider)

    def choose_assistant(self, provider: str) -> None:
        """*Thread ▸ Assistant*: the open thread's provider from now on."""
        row = self.thread_row(self.current_thread)
        if row is not None and row.provider != provider:
            self.set_thread_provider(row.thread_id, provider)
        self._report_assistant(provider if row is not None else None)

    def set_archived(self, thread_id: str, archived: bool) -> None:
        """Archive (hide from the list) or unarchive a thread; kept on this device."""
        changed = set(self.archived)
        (changed.add if archived else changed.discard)(thread_id)
        self.archived = frozenset(changed)
        self._state.set_archived(self.archived)
        self.pane.set_threads(self._threads, self.archived)
        self._report()

    def toggle_archive_current(self) -> None:
        if self.current_thread:
            self.set_archived(self.current_thread, self.current_thread not in self.archived)

    # -- what the window shows about the open thread -----------------------------------------------
    def _report(self) -> None:
        self.thread_state_changed.emit(bool(self.current_thread),
                                       self.current_thread in self.archived)
        self._report_assistant()
        row = self.thread_row(self.current_thread)
        self.title_changed.emit(f"{thread_title(row)} — {APP_TITLE}" if row is not None
                                else APP_TITLE)

    def _report_assistant(self, provider: str | None = None) -> None:
        """Check the open thread's provider (``provider``: a choice not in the cache yet)."""
        row = self.thread_row(self.current_thread)
        current = provider or (row.provider if row is not None else None)
        enabled = logic.can_choose_assistant(self.current_thread if row is not None else "",
                                             current)
        self.assistant_changed.emit(enabled, logic.assistant_choice(current))
