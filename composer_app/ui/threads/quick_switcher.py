"""``QuickSwitcher``: the Ctrl+K popup that jumps to a thread by fuzzy title match.

Invariants: the list shows what ``quick_switcher_logic.rank`` returns for the typed query (most
recently active first for an empty query); each row shows the title, when the thread was last
active and its last message's first line, and the current thread says "current"; Up/Down move
the selection without leaving the search field;
Enter (or a click) emits ``thread_chosen`` once and closes; Escape closes without choosing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication, QKeyEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from composer_app.ui.threads.quick_switcher_logic import SwitcherEntry, rank
from composer_app.ui.threads.thread_list_model import short_time

MAX_RESULTS = 50
MAX_VISIBLE_ROWS = 8
_NAV_KEYS = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)
EntryRole = int(Qt.ItemDataRole.UserRole) + 1
CURRENT_TAG = "current"


class SwitcherRowDelegate(QStyledItemDelegate):
    """Two lines: the title (bold for the current thread, tagged "current") with the time of
    the last activity right-aligned, then the last message's first line, muted; both elided."""

    PAD = 8

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        line = option.fontMetrics.height()
        return QSize(200, 2 * line + 3 * self.PAD // 2 + 2)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        entry = index.data(EntryRole)
        if not isinstance(entry, SwitcherEntry):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QGuiApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        group = opt.palette.currentColorGroup()
        text = opt.palette.color(group, QPalette.ColorRole.HighlightedText if selected
                                 else QPalette.ColorRole.Text)
        muted = text if selected else opt.palette.color(group, QPalette.ColorRole.PlaceholderText)
        rect = opt.rect.adjusted(self.PAD, self.PAD // 2, -self.PAD, -self.PAD // 2)
        metrics = opt.fontMetrics
        top = rect.adjusted(0, 0, 0, -(rect.height() // 2))
        bottom = rect.adjusted(0, rect.height() // 2, 0, 0)
        when = short_time(entry.activity, datetime.now().astimezone())
        tag = f"{CURRENT_TAG} \u00b7 {when}" if entry.current and when else (
            CURRENT_TAG if entry.current else when)
        if entry.server:
            tag = f"{entry.server} \u00b7 {tag}" if tag else entry.server
        tag_width = metrics.horizontalAdvance(tag) + self.PAD if tag else 0
        painter.save()
        title_font = QFont(opt.font)
        title_font.setBold(entry.current)
        painter.setFont(title_font)
        painter.setPen(text)
        title_rect = top.adjusted(0, 0, -tag_width, 0)
        left = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        painter.drawText(title_rect, int(left), painter.fontMetrics().elidedText(
            entry.title, Qt.TextElideMode.ElideRight, title_rect.width()))
        painter.setFont(opt.font)
        painter.setPen(muted)
        if tag:
            right = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight
            painter.drawText(top, int(right), tag)
        preview = entry.preview or "No messages yet"
        painter.drawText(bottom, int(left), metrics.elidedText(
            preview, Qt.TextElideMode.ElideRight, bottom.width()))
        painter.restore()


class QuickSwitcher(QDialog):
    """A small modal popup: search field over a ranked list of threads."""

    thread_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Switch to thread")
        self.setModal(True)
        self.setMinimumWidth(520)
        self._threads: list[SwitcherEntry] = []
        self.query = QLineEdit(self)
        self.query.setPlaceholderText("Type part of a thread title…")
        self.query.setAccessibleName("Thread title")
        self.results = QListWidget(self)
        self.results.setAccessibleName("Matching threads")
        self.results.setUniformItemSizes(True)
        self.results.setItemDelegate(SwitcherRowDelegate(self.results))
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.empty = QLabel("No thread matches.", self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.addWidget(self.query)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.empty)
        self.query.installEventFilter(self)
        self._connect_signals()

    def _connect_signals(self) -> None:
        self.query.textChanged.connect(self._on_query_text_changed)
        self.query.returnPressed.connect(self._on_query_return_pressed)
        self.results.itemActivated.connect(self._on_results_item_activated)
        self.results.itemClicked.connect(self._on_results_item_activated)

    def set_threads(self, threads: Sequence[SwitcherEntry | tuple[str, str]]) -> None:
        """The threads, most recently active first (``(thread_id, title)`` pairs: no preview,
        time or current marker); the typed query and the chosen row are kept."""
        chosen = self.results.currentItem()
        keep = chosen.data(Qt.ItemDataRole.UserRole) if chosen is not None else None
        self._threads = [t if isinstance(t, SwitcherEntry)
                         else SwitcherEntry(t[0], t[1], "", None, False) for t in threads]
        self._fill(keep)

    def entries(self) -> list[SwitcherEntry]:
        """The rows listed, in order."""
        return [self.results.item(i).data(EntryRole) for i in range(self.results.count())]

    def open_switcher(self) -> None:
        """Clear the query and show."""
        self.query.clear()
        self._fill()
        self.show()
        self.raise_()
        self.activateWindow()
        self.query.setFocus()

    def shown_ids(self) -> list[str]:
        """The thread ids listed, in order."""
        return [str(self.results.item(i).data(Qt.ItemDataRole.UserRole))
                for i in range(self.results.count())]

    def _fill(self, keep: object = None) -> None:
        ranked = rank(self.query.text(), self._threads, lambda t: t.title, MAX_RESULTS)
        self.results.clear()
        chosen = 0
        for row, (entry, _match) in enumerate(ranked):
            item = QListWidgetItem(entry.title)
            item.setData(Qt.ItemDataRole.UserRole, entry.thread_id)
            item.setData(EntryRole, entry)
            current = ", current thread" if entry.current else ""
            if entry.server:
                current += f", on {entry.server}"
            preview = f", last message: {entry.preview}" if entry.preview else ""
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{entry.title}{current}{preview}")
            self.results.addItem(item)
            if entry.thread_id == keep:
                chosen = row
        if self.results.count():
            self.results.setCurrentRow(chosen)
        self._fit_height()
        self.empty.setVisible(not ranked)

    def _fit_height(self) -> None:
        """As tall as its rows (up to ``MAX_VISIBLE_ROWS``): no empty box under a short list."""
        row = self.results.sizeHintForRow(0) if self.results.count() else 0
        rows = min(max(self.results.count(), 1), MAX_VISIBLE_ROWS)
        list_height = rows * max(row, 1) + 2 * self.results.frameWidth() + 2
        self.results.setFixedHeight(list_height if row else 0)
        self.results.setVisible(bool(row))
        self.adjustSize()

    def _choose(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        thread_id = str(item.data(Qt.ItemDataRole.UserRole))
        self.accept()
        self.thread_chosen.emit(thread_id)

    def _on_query_text_changed(self, _text: str) -> None:
        self._fill()

    def _on_query_return_pressed(self) -> None:
        self._choose(self.results.currentItem())

    def _on_results_item_activated(self, item: QListWidgetItem) -> None:
        self._choose(item)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.query and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent) and event.key() in _NAV_KEYS):
            self.results.keyPressEvent(event)  # move the selection, keep typing focus
            return True
        return super().eventFilter(watched, event)
