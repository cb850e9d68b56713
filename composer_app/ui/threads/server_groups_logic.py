"""The thread list grouped by server: which rows the list shows, in what order, which server a
Ctrl+digit jumps to, what each group's header says and how unread threads are counted. Qt-free.

Invariants: groups keep the accounts' order (the embedded server first); within a group the
threads follow ``visible_threads`` (most recent first, search, archive); a collapsed group shows
its header only, except while a search is typed (a match is never hidden); header rows appear
only when ``inline_headers`` is set (several servers; a single server's header sits above the
list instead); ``jump_target`` maps Ctrl+1…Ctrl+9 to the first nine servers and is ``None`` past
the list; ``thread_to_show`` for a server is the thread last opened there when it is still listed,
else its most recent one; an ``UnreadCounter`` counts a thread as unread when a message arrived in
it while it was not the open thread, and forgets it when it is opened.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from composer_app.sync.store import ThreadRow
from composer_app.ui.threads.thread_list_model import visible_threads

__all__ = ["MAX_JUMP", "STATE_COLORS", "GroupHeader", "ServerGroup", "UnreadCounter",
           "header_text", "jump_shortcut", "jump_target", "list_entries", "state_color",
           "state_text", "thread_to_show"]

MAX_JUMP = 9
STATE_COLORS = {
    "connected": "#16a34a",
    "connecting": "#d97706",
    "reconnecting": "#d97706",
    "offline": "#dc2626",
    "error": "#dc2626",
    "unauthorized": "#dc2626",
    "signed-out": "#9ca3af",
}
_STATE_TEXT = {
    "connected": "connected",
    "connecting": "connecting",
    "reconnecting": "reconnecting",
    "offline": "offline",
    "error": "error",
    "unauthorized": "sign-in refused",
    "signed-out": "signed out",
}


@dataclass(frozen=True)
class ServerGroup:
    """One server's threads as the list gets them."""

    account_id: str
    name: str
    state: str
    threads: tuple[ThreadRow, ...] = ()
    unread: int = 0


@dataclass(frozen=True)
class GroupHeader:
    """A header row: the server's name, connection dot, unread count and whether it is open."""

    account_id: str
    name: str
    state: str
    unread: int
    collapsed: bool
    position: int  # 0-based: Ctrl+(position+1) jumps here


ListEntry = GroupHeader | ThreadRow


def state_color(state: str) -> str:
    """The connection dot's colour for a connection state (grey when unknown)."""
    return STATE_COLORS.get(state, STATE_COLORS["signed-out"])


def state_text(state: str) -> str:
    return _STATE_TEXT.get(state, state or "unknown")


def jump_shortcut(position: int) -> str:
    """``Ctrl+1``… for the first nine servers, "" after them."""
    return f"Ctrl+{position + 1}" if 0 <= position < MAX_JUMP else ""


def header_text(header: GroupHeader) -> str:
    """What the header says to a screen reader and in its tooltip."""
    parts = [header.name, state_text(header.state)]
    if header.unread:
        parts.append(f"{header.unread} unread")
    if header.collapsed:
        parts.append("collapsed")
    shortcut = jump_shortcut(header.position)
    if shortcut:
        parts.append(shortcut)
    return ", ".join(parts)


def list_entries(groups: Sequence[ServerGroup], query: str = "",
                 archived: Collection[str] = (), show_archived: bool = False,
                 collapsed: Collection[str] = (), *, inline_headers: bool = True
                 ) -> list[ListEntry]:
    """The list's rows, top to bottom (see the module invariants)."""
    entries: list[ListEntry] = []
    searching = bool(query.strip())
    for position, group in enumerate(groups):
        shut = group.account_id in collapsed and not searching
        rows = visible_threads(group.threads, query, archived, show_archived)
        if inline_headers:
            if searching and not rows:
                continue  # a search shows the servers that have matches
            entries.append(GroupHeader(group.account_id, group.name, group.state, group.unread,
                                       shut, position))
        if not shut:
            entries.extend(rows)
    return entries


def jump_target(account_ids: Sequence[str], number: int) -> str | None:
    """The server Ctrl+``number`` (1–9) jumps to, or None."""
    if 1 <= number <= min(MAX_JUMP, len(account_ids)):
        return account_ids[number - 1]
    return None


def thread_to_show(threads: Iterable[ThreadRow], last_opened: str,
                   archived: Collection[str] = ()) -> str:
    """The thread a jump to a server opens: the last one opened there, else its newest one
    ("" for a server without threads)."""
    rows = visible_threads(list(threads), "", archived, False)
    if any(r.thread_id == last_opened for r in threads):
        return last_opened
    return rows[0].thread_id if rows else ""


class UnreadCounter:
    """Threads with a message that arrived while another thread was open."""

    def __init__(self, unread: Iterable[str] = ()) -> None:
        self._unread: set[str] = {t for t in unread if t}

    def ids(self) -> frozenset[str]:
        """The unread threads (what is kept between runs)."""
        return frozenset(self._unread)

    def message_arrived(self, thread_id: str, open_thread: str) -> bool:
        """True when ``thread_id`` became unread."""
        if thread_id and thread_id != open_thread and thread_id not in self._unread:
            self._unread.add(thread_id)
            return True
        return False

    def opened(self, thread_id: str) -> bool:
        """True when ``thread_id`` was unread."""
        if thread_id in self._unread:
            self._unread.discard(thread_id)
            return True
        return False

    def is_unread(self, thread_id: str) -> bool:
        return thread_id in self._unread

    def count(self, thread_ids: Iterable[str]) -> int:
        return sum(1 for t in thread_ids if t in self._unread)

    def by_group(self, threads: Mapping[str, Sequence[ThreadRow]]) -> dict[str, int]:
        return {account: self.count(r.thread_id for r in rows)
                for account, rows in threads.items()}
