"""The thread list: which threads are shown, in what order, with what title — and the list model
that adapts that to Qt.

Invariants: ``visible_threads`` is pure: threads are ordered most recently updated first (ties by
id, so the order is total), a title search keeps the threads whose title contains every word of the
query (case-insensitive), archived threads are hidden unless asked for; a thread without a title is
shown as ``UNTITLED``; ``short_time`` and ``empty_list_hint`` are pure too. ``ThreadListModel`` only
adapts those results (rows, roles) and holds no rule; ``ThreadRowDelegate`` only draws them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QGuiApplication, QPainter, QPalette
from PySide6.QtWidgets import (
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from composer_app.core.contracts.wire import parse_timestamp
from composer_app.core.errors import ContractError
from composer_app.sync.store import ThreadRow

if TYPE_CHECKING:
    from composer_app.ui.threads.server_groups_logic import GroupHeader

UNTITLED = "New thread"
ThreadIdRole = int(Qt.ItemDataRole.UserRole) + 1
ArchivedRole = ThreadIdRole + 1
StateRole = ThreadIdRole + 2
WhenRole = ThreadIdRole + 3
HeaderRole = ThreadIdRole + 4  # the ``GroupHeader`` of a server's header row
UnreadRole = ThreadIdRole + 5
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


def short_time(updated_at: str | None, now: datetime) -> str:
    """When a thread last changed, as a list shows it (in ``now``'s time zone): the time today,
    ``Yesterday``, the weekday within a week, the day and month this year, else the date. Empty
    for a thread the server has not dated yet or a timestamp that does not parse."""
    if not updated_at:
        return ""
    try:
        moment = parse_timestamp(updated_at).astimezone(now.tzinfo)
    except (ContractError, ValueError):
        return ""
    day, today = moment.date(), now.date()
    if day >= today:
        return moment.strftime("%H:%M")
    if day == today - timedelta(days=1):
        return "Yesterday"
    if day > today - timedelta(days=7):
        return moment.strftime("%a")
    if day.year == today.year:
        return f"{day.day} {moment.strftime('%b')}"
    return day.isoformat()


def empty_list_hint(total: int, shown: int, query: str) -> str:
    """What an empty thread list says instead of nothing (empty when rows are shown)."""
    if shown:
        return ""
    if query.strip():
        return f"No thread titles match \u201c{' '.join(query.split())}\u201d."
    if total:
        return "Every thread is archived. Tick \u201cShow archived\u201d to see them."
    return "No threads yet. Press Ctrl+N to start one."


class ThreadListModel(QAbstractListModel):
    """One row per visible thread, and a header row per server when several are shown."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[ThreadRow | GroupHeader] = []
        self._archived: frozenset[str] = frozenset()
        self._unread: frozenset[str] = frozenset()

    def set_rows(self, rows: Sequence[ThreadRow | GroupHeader], archived: Collection[str] = (),
                 unread: Collection[str] = ()) -> None:
        """Show ``rows`` (already filtered and ordered by ``visible_threads`` or
        ``list_entries``)."""
        self.beginResetModel()
        self._rows = list(rows)
        self._archived = frozenset(archived)
        self._unread = frozenset(unread)
        self.endResetModel()

    def row_of(self, thread_id: str) -> int:
        """The row showing ``thread_id``, or -1."""
        return next((i for i, r in enumerate(self._rows)
                     if isinstance(r, ThreadRow) and r.thread_id == thread_id), -1)

    def thread_at(self, row: int) -> ThreadRow | None:
        item = self._rows[row] if 0 <= row < len(self._rows) else None
        return item if isinstance(item, ThreadRow) else None

    def header_at(self, row: int) -> GroupHeader | None:
        item = self._rows[row] if 0 <= row < len(self._rows) else None
        return None if item is None or isinstance(item, ThreadRow) else item

    def header_row(self, account_id: str) -> int:
        """The header row of a server, or -1."""
        return next((i for i in range(len(self._rows))
                     if (h := self.header_at(i)) is not None and h.account_id == account_id), -1)

    def thread_ids(self) -> list[str]:
        return [r.thread_id for r in self._rows if isinstance(r, ThreadRow)]

    def first_thread_row(self) -> int:
        return next((i for i, r in enumerate(self._rows) if isinstance(r, ThreadRow)), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if index.isValid() and self.header_at(index.row()) is not None:
            return Qt.ItemFlag.ItemIsEnabled
        return super().flags(index)

    def data(self, index: Index, role: int = int(Qt.ItemDataRole.DisplayRole)) -> Any:
        header = self.header_at(index.row()) if index.isValid() else None
        if header is not None:
            return self._header_data(header, role)
        row = self.thread_at(index.row()) if index.isValid() else None
        if row is None:
            return None
        if role == UnreadRole:
            return row.thread_id in self._unread
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
        if role == WhenRole:
            return short_time(row.updated_at, datetime.now().astimezone())
        if role == int(Qt.ItemDataRole.FontRole) and (row.thread_id in self._archived
                                                      or row.thread_id in self._unread):
            font = QGuiApplication.font()
            font.setItalic(row.thread_id in self._archived)
            font.setBold(row.thread_id in self._unread)
            return font
        return None

    @staticmethod
    def _header_data(header: GroupHeader, role: int) -> Any:
        from composer_app.ui.threads.server_groups_logic import header_text

        if role == int(Qt.ItemDataRole.DisplayRole):
            return header.name
        if role in (int(Qt.ItemDataRole.AccessibleTextRole), int(Qt.ItemDataRole.ToolTipRole)):
            return f"Server {header_text(header)}"
        if role == HeaderRole:
            return header
        return None


class ThreadRowDelegate(QStyledItemDelegate):
    """A thread row: the title, elided, and when it last changed right-aligned in a muted
    colour (archived threads in italics)."""

    GAP = 8

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        """As tall as the style says and narrow: the list stretches every row to its width, a
        long title is elided in the row and the time stays in sight (no sideways scrolling)."""
        size = super().sizeHint(option, index)
        size.setWidth(1)
        return size

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        header = index.data(HeaderRole)
        if header is not None:
            paint_group_header(painter, option, header)
            return
        when = str(index.data(WhenRole) or "")
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        rect = opt.rect.adjusted(6, 0, -8, 0)
        width = opt.fontMetrics.horizontalAdvance(when) if when else 0
        title = opt.text
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QGuiApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        group = opt.palette.currentColorGroup()
        text_role = (QPalette.ColorRole.HighlightedText if selected
                     else QPalette.ColorRole.Text)
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(opt.palette.color(group, text_role))
        title_rect = rect.adjusted(0, 0, -(width + self.GAP) if width else 0, 0)
        elided = opt.fontMetrics.elidedText(title, Qt.TextElideMode.ElideRight,
                                            title_rect.width())
        align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        painter.drawText(title_rect, int(align), elided)
        if when:
            muted = (QPalette.ColorRole.HighlightedText if selected
                     else QPalette.ColorRole.PlaceholderText)
            painter.setPen(opt.palette.color(group, muted))
            right = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight
            painter.drawText(rect, int(right), when)
        painter.restore()


def paint_group_header(painter: QPainter, option: QStyleOptionViewItem,
                       header: GroupHeader) -> None:
    """A server's header row: an open/closed arrow, the connection dot, the name in bold and the
    unread count as a badge on the right."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QColor, QFont

    from composer_app.ui.threads.server_groups_logic import state_color

    rect = option.rect.adjusted(4, 0, -8, 0)
    palette = option.palette
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    font = QFont(option.font)
    font.setBold(True)
    painter.setFont(font)
    muted = palette.color(QPalette.ColorRole.PlaceholderText)
    painter.setPen(muted)
    arrow = "\u25b8" if header.collapsed else "\u25be"
    align = int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft)
    painter.drawText(rect, align, arrow)
    x = rect.left() + option.fontMetrics.horizontalAdvance(arrow) + 6
    diameter = 8
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(state_color(header.state)))
    painter.drawEllipse(QRectF(x, rect.center().y() - diameter / 2 + 1, diameter, diameter))
    x += diameter + 6
    badge = str(header.unread) if header.unread else ""
    badge_width = option.fontMetrics.horizontalAdvance(badge) + 12 if badge else 0
    painter.setPen(palette.color(QPalette.ColorRole.WindowText))
    name_rect = rect.adjusted(x - rect.left(), 0, -(badge_width + 6), 0)
    painter.drawText(name_rect, align, option.fontMetrics.elidedText(
        header.name, Qt.TextElideMode.ElideRight,
        name_rect.width()))
    if badge:
        height = option.fontMetrics.height()
        box = QRectF(rect.right() - badge_width, rect.center().y() - height / 2 + 1,
                     badge_width, height)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(palette.color(QPalette.ColorRole.Highlight))
        painter.drawRoundedRect(box, height / 2, height / 2)
        painter.setPen(palette.color(QPalette.ColorRole.HighlightedText))
        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), badge)
    painter.restore()
