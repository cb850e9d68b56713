"""``ThreadListPane``: the left pane — a search, the thread list, the messages that match the
search, and a *New thread* button.

Invariants: the pane renders what ``visible_threads`` returns for the rows it was given and the
current search; it never talks to the engine — creating, renaming and archiving are requests
(signals) the window carries out; the selection follows ``select_thread`` and the user's clicks,
and a refresh keeps the selected thread selected when it is still shown; an empty list always
says why (no match for the search, or every thread archived); Enter in the search opens the first
match and Down moves into the list; message hits (given by the window for the search text) show
under the list only while the search reads what they answer, and choosing one asks for its thread
and message with ``message_chosen``; on a dark palette the *Show archived* box gets an outline and
fill that stand out from the pane (the style derives both from the window colour, which leaves
the square nearly invisible), and it follows palette changes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from composer_app.sync.store import ThreadRow
from composer_app.ui.threads.thread_list_model import (
    ThreadIdRole,
    ThreadListModel,
    ThreadRowDelegate,
    empty_list_hint,
    visible_threads,
)

LIST_STYLE = "QListView::item { padding: 6px 6px; }"
DARK_LIGHTNESS = 128
"""A palette whose window colour is darker than this (0–255) is a dark one."""


def checkbox_palette(palette: QPalette) -> QPalette:
    """The palette of a check box on ``palette``: unchanged on a light palette; on a dark one the
    Fusion style's outline (the window colour made darker) and fill (the base colour) would
    barely differ from the window, so the box is filled with the button colour and outlined with
    a mid grey (the placeholder-text colour, which the style darkens a little)."""
    tuned = QPalette(palette)
    if palette.color(QPalette.ColorRole.Window).lightness() >= DARK_LIGHTNESS:
        return tuned
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        tuned.setColor(group, QPalette.ColorRole.Base,
                       palette.color(group, QPalette.ColorRole.Button))
        tuned.setColor(group, QPalette.ColorRole.Window,
                       palette.color(group, QPalette.ColorRole.PlaceholderText))
    return tuned


class ThreadListPane(QWidget):
    """Search box, list of threads and the new-thread button."""

    thread_selected = Signal(str)
    new_requested = Signal()
    rename_requested = Signal(str)
    archive_requested = Signal(str, bool)  # thread id, archived
    message_search_requested = Signal(str)  # the search text changed: find it in messages too
    message_chosen = Signal(str, str)  # thread id, message id of a chosen message hit

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("threadListPane")
        self._rows: list[ThreadRow] = []
        self._archived: frozenset[str] = frozenset()
        self._current = ""
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search threads")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search threads by title")
        self.list = QListView(self)
        self.list.setAccessibleName("Threads")
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setUniformItemSizes(True)
        # rows elide a long title and keep the time visible: never a sideways scroll bar
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)  # rows follow the pane's width
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setStyleSheet(LIST_STYLE)
        self.model = ThreadListModel(self)
        self.list.setModel(self.model)
        self.list.setItemDelegate(ThreadRowDelegate(self.list))
        self.empty_label = QLabel(self)
        self.empty_label.setObjectName("threadListEmpty")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.empty_label.setWordWrap(True)
        self.empty_label.setMargin(12)
        self.empty_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.empty_label.hide()
        self.hits_label = QLabel("Messages", self)
        self.hits_label.setObjectName("messageHitsLabel")
        self.hits_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.message_hits = QListWidget(self)
        self.message_hits.setObjectName("messageHits")
        self.message_hits.setAccessibleName("Messages that match the search")
        self.message_hits.setWordWrap(True)
        self.message_hits.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.message_hits.setStyleSheet("QListWidget::item { padding: 4px 6px; }")
        self.hits_label.hide()
        self.message_hits.hide()
        self.new_button = QPushButton("New thread", self)
        self.new_button.setToolTip("New thread (Ctrl+N)")
        self.show_archived = QCheckBox("Show archived", self)
        self._tune_checkbox()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 4, 8)
        layout.setSpacing(6)
        layout.addWidget(self.search)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.hits_label)
        layout.addWidget(self.message_hits, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.new_button)
        bottom.addStretch(1)
        bottom.addWidget(self.show_archived)
        layout.addLayout(bottom)
        self._connect_signals()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange) and (
                hasattr(self, "show_archived")):
            self._tune_checkbox()
        super().changeEvent(event)

    def _tune_checkbox(self) -> None:
        self.show_archived.setPalette(checkbox_palette(self.palette()))
        # A style sheet fixes the palette it polished with: set it again for the new colours.
        self.list.setStyleSheet(LIST_STYLE)

    def _connect_signals(self) -> None:
        self.search.textChanged.connect(self._on_search_text_changed)
        self.search.returnPressed.connect(self.open_first_match)
        self.search.installEventFilter(self)
        self.show_archived.toggled.connect(self._on_show_archived_toggled)
        self.new_button.clicked.connect(self.new_requested)
        self.list.selectionModel().currentChanged.connect(self._on_list_current_changed)
        self.list.customContextMenuRequested.connect(self._on_list_context_menu)
        self.message_hits.itemActivated.connect(self._on_message_hit_activated)
        self.message_hits.itemClicked.connect(self._on_message_hit_activated)

    # -- state ----------------------------------------------------------------------------------
    def set_threads(self, rows: Sequence[ThreadRow], archived: Collection[str] = ()) -> None:
        """Show these threads (filtered by the search), keeping the selection."""
        self._rows = list(rows)
        self._archived = frozenset(archived)
        self._refresh()

    def threads(self) -> list[ThreadRow]:
        """Every thread given (shown or not)."""
        return list(self._rows)

    def model_rows(self, *, all_rows: bool = False) -> list[ThreadRow]:
        """The rows shown, or (``all_rows``) every row the search would show when empty."""
        if all_rows:
            return visible_threads(self._rows, "", self._archived, self.show_archived.isChecked())
        return [r for i in range(self.model.rowCount()) if (r := self.model.thread_at(i))]

    @property
    def current_thread(self) -> str:
        return self._current

    def select_thread(self, thread_id: str) -> None:
        """Select ``thread_id`` in the list (without emitting ``thread_selected``)."""
        self._current = thread_id
        self._select_row(self.model.row_of(thread_id))

    def _refresh(self) -> None:
        shown = visible_threads(self._rows, self.search.text(), self._archived,
                                self.show_archived.isChecked())
        self.list.selectionModel().blockSignals(True)
        try:
            self.model.set_rows(shown, self._archived)
            self._select_row(self.model.row_of(self._current))
        finally:
            self.list.selectionModel().blockSignals(False)
        hint = empty_list_hint(len(self._rows), len(shown), self.search.text())
        self.empty_label.setText(hint)
        self.empty_label.setVisible(bool(hint))

    def _select_row(self, row: int) -> None:
        selection = self.list.selectionModel()
        blocked = selection.blockSignals(True)
        try:
            if row < 0:
                selection.clearSelection()
                return
            index = self.model.index(row)
            selection.setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
            self.list.scrollTo(index)
        finally:
            selection.blockSignals(blocked)

    def set_message_hits(self, query: str, hits: Sequence[tuple[str, str, str, str]]) -> None:
        """Messages matching ``query`` as ``(thread id, message id, thread title, excerpt)``,
        best first; shown under the thread list while the search still reads ``query``."""
        if query != self.search.text():
            return  # an answer for an older query
        self.message_hits.clear()
        for thread_id, message_id, title, excerpt in hits:
            item = QListWidgetItem(f"{title}\n{excerpt}")
            item.setData(Qt.ItemDataRole.UserRole, (thread_id, message_id))
            item.setToolTip(excerpt)
            self.message_hits.addItem(item)
        shown = bool(hits) and bool(query.strip())
        self.hits_label.setText(f"Messages ({len(hits)})")
        self.hits_label.setVisible(shown)
        self.message_hits.setVisible(shown)
        if shown and not self.model.rowCount():
            self.empty_label.hide()  # the messages are the answer

    def message_hit_ids(self) -> list[tuple[str, str]]:
        """``(thread id, message id)`` of the message hits shown, in order."""
        return [self.message_hits.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.message_hits.count())]

    def _on_message_hit_activated(self, item: QListWidgetItem) -> None:
        thread_id, message_id = item.data(Qt.ItemDataRole.UserRole)
        self.message_chosen.emit(str(thread_id), str(message_id))

    def open_first_match(self) -> None:
        """Enter in the search box: open the first thread shown and move to the list."""
        first = self.model.thread_at(0)
        if first is None:
            return
        self.list.setCurrentIndex(self.model.index(0))  # emits thread_selected when it changes
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Down in the search box continues into the list, like a combo box's popup.
        if (watched is self.search and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Down
                and self.model.rowCount() > 0):
            self.list.setFocus(Qt.FocusReason.OtherFocusReason)
            if not self.list.currentIndex().isValid():
                self.list.setCurrentIndex(self.model.index(0))
            return True
        return super().eventFilter(watched, event)

    # -- handlers -------------------------------------------------------------------------------
    def _on_search_text_changed(self, text: str) -> None:
        self._refresh()
        if not text.strip():
            self.set_message_hits(text, [])
        self.message_search_requested.emit(text)

    def _on_show_archived_toggled(self, _checked: bool) -> None:
        self._refresh()

    def _on_list_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        thread_id = current.data(ThreadIdRole) if current.isValid() else None
        if thread_id and thread_id != self._current:
            self._current = str(thread_id)
            self.thread_selected.emit(self._current)

    def _on_list_context_menu(self, pos: QPoint) -> None:
        index = self.list.indexAt(pos)
        if not index.isValid():
            return
        thread_id = str(index.data(ThreadIdRole))
        archived = thread_id in self._archived
        menu = QMenu(self)
        menu.addAction("Rename…", lambda: self.rename_requested.emit(thread_id))
        menu.addAction("Unarchive" if archived else "Archive",
                       lambda: self.archive_requested.emit(thread_id, not archived))
        menu.exec(self.list.viewport().mapToGlobal(pos))
