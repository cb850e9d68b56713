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

Unread across runs (``SeenMarks``): for each thread the counter keeps the last event sequence the
user has accounted for, and for each server the highest sequence it has listed. A listed thread
that is not open becomes unread when its sequence passed its mark (something happened in it while
the user was elsewhere, or while the app was closed), or when it is new to the counter and its
sequence passed its server's mark (a thread that appeared while the app was closed); a server seen
for the first time marks nothing (no flood of unread threads on the first run). The open thread's
mark follows its sequence; a change the user made themselves (a rename, a thread created here)
is absorbed once (``expect_own_change``).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from composer_app.sync.store import ThreadRow
from composer_app.ui.threads.thread_list_model import visible_threads

__all__ = ["MAX_JUMP", "STATE_COLORS", "GroupHeader", "SeenMarks", "ServerGroup", "UnreadCounter",
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


@dataclass
class SeenMarks:
    """What the user has seen: per thread the last sequence accounted for, per server (account
    id) the highest sequence listed. Kept between runs as JSON."""

    threads: dict[str, int] = field(default_factory=dict)
    servers: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"threads": self.threads, "servers": self.servers},
                          separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: object) -> SeenMarks:
        """The marks stored as ``text``; empty marks for anything unreadable (never raises)."""
        try:
            data = json.loads(text) if isinstance(text, str) else None
        except ValueError:
            data = None
        if not isinstance(data, dict):
            return cls()

        def marks(value: object) -> dict[str, int]:
            if not isinstance(value, dict):
                return {}
            return {str(k): v for k, v in value.items() if type(v) is int and v >= 0}

        return cls(marks(data.get("threads")), marks(data.get("servers")))


class UnreadCounter:
    """Threads with a message that arrived while another thread was open (see the module
    invariants for what is kept between runs)."""

    def __init__(self, unread: Iterable[str] = (), marks: SeenMarks | None = None) -> None:
        self._unread: set[str] = {t for t in unread if t}
        self._marks = marks if marks is not None else SeenMarks()
        self._latest: dict[str, int] = {}  # each thread's sequence as last listed
        self._own: set[str] = set()

    def ids(self) -> frozenset[str]:
        """The unread threads (what is kept between runs)."""
        return frozenset(self._unread)

    @property
    def marks(self) -> SeenMarks:
        """The seen marks (what is kept between runs)."""
        return self._marks

    def expect_own_change(self, thread_id: str) -> None:
        """The user changed ``thread_id`` here (renamed or created it): its next sequence
        change is theirs, not news."""
        if thread_id:
            self._own.add(thread_id)

    def listed(self, account_id: str, rows: Iterable[ThreadRow], open_thread: str) -> bool:
        """A server's thread list was read; True when a thread became unread."""
        marks, changed = self._marks, False
        known_server = marks.servers.get(account_id)
        highest = known_server or 0
        for row in rows:
            sequence, thread_id = row.last_sequence, row.thread_id
            if sequence is None or not thread_id:
                continue
            highest = max(highest, sequence)
            self._latest[thread_id] = sequence
            seen = marks.threads.get(thread_id)
            if seen is not None and sequence <= seen:
                continue
            marks.threads[thread_id] = sequence
            if thread_id == open_thread or thread_id in self._own:
                self._own.discard(thread_id)
                continue
            news = (seen is not None or
                    (known_server is not None and sequence > known_server))
            if news and thread_id not in self._unread:
                self._unread.add(thread_id)
                changed = True
        marks.servers[account_id] = highest
        return changed

    def message_arrived(self, thread_id: str, open_thread: str) -> bool:
        """True when ``thread_id`` became unread."""
        if thread_id and thread_id != open_thread and thread_id not in self._unread:
            self._unread.add(thread_id)
            return True
        return False

    def opened(self, thread_id: str) -> bool:
        """``thread_id`` is open now (everything listed of it counts as seen); True when it
        was unread."""
        if thread_id in self._latest:
            self._marks.threads[thread_id] = max(self._latest[thread_id],
                                                 self._marks.threads.get(thread_id, 0))
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
