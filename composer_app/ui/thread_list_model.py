"""The thread list: which threads are shown, in what order, with what title — and the list model
that adapts that to Qt.

Invariants: ``visible_threads`` is pure: threads are ordered most recently updated first (ties by
id, so the order is total), a title search keeps the threads whose title contains every word of the
query (case-insensitive), archived threads are hidden unless asked for; a thread without a title is
shown as ``UNTITLED``. ``ThreadListModel`` only adapts that result (rows, roles) and holds no rule.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from composer_app.sync.store import ThreadRow

UNTITLED = "New thread"
ThreadIdRole = int(Qt.ItemDataRole.UserRole) + 1
ArchivedRole = ThreadIdRole + 1
StateRole = ThreadIdRole + 2
Index = QModelIndex | QPersistentModelIndex


def thread_title(row: ThreadRow) -> str:
    """The title shown for a thread."""
    title = (row.title or "").strip()
    return title or UNTITLED


def matches_title(row: ThreadRow, query: str) -> bool:
    """True when every word of ``query`` occurs in the thread's title (case-insensitive)."""
    title = thread_title(row).casefold()
    return all(word in title for word in query.casefold().split())


def visible_threads(rows: Iterable[ThreadRow], query: str = "",
                    archived: Collection[str] = (), show_archived: bool = False
                    ) -> list[ThreadRow]:
    """The rows the list shows (see the module invariant)."""
    kept = [r for r in rows
            if (show_archived or r.thread_id not in archived) and matches_title(r, query)]
    kept.sort(key=lambda r: r.thread_id)
    kept.sort(key=lambda r: r.updated_at or "\uffff", reverse=True)  # new local rows first
    return kept


class ThreadListModel(QAbstractListModel):
    """One row per visible thread."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[ThreadRow] = []
        self._archived: frozenset[str] = frozenset()

    def set_rows(self, rows: Sequence[ThreadRow], archived: Collection[str] = ()) -> None:
        """Show ``rows`` (already filtered and ordered by ``visible_threads``)."""
        self.beginResetModel()
        self._rows = list(rows)
        self._archived = frozenset(archived)
        self.endResetModel()

    def row_of(self, thread_id: str) -> int:
        """The row showing ``thread_id``, or -1."""
        return next((i for i, r in enumerate(self._rows) if r.thread_id == thread_id), -1)

    def thread_at(self, row: int) -> ThreadRow | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def thread_ids(self) -> list[str]:
        return [r.thread_id for r in self._rows]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = int(Qt.ItemDataRole.DisplayRole)) -> Any:
        row = self.thread_at(index.row()) if index.isValid() else None
        if row is None:
            return None
        if role in (int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.EditRole)):
            return thread_title(row)
        if role == int(Qt.ItemDataRole.ToolTipRole):
            state = " (waiting to be created on the server)" if row.local_state else ""
            return thread_title(row) + state
        if role == int(Qt.ItemDataRole.AccessibleTextRole):
            archived = ", archived" if row.thread_id in self._archived else ""
            return f"Thread {thread_title(row)}{archived}"
        if role == ThreadIdRole:
            return row.thread_id
        if role == ArchivedRole:
            return row.thread_id in self._archived
        if role == StateRole:
            return row.local_state or ""
        return None
