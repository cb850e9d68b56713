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
from PySide6.QtGui import QColor, QIcon, QKeyEvent, QPainter, QPalette, QPixmap
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
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from composer_app.sync.store import ThreadRow
from composer_app.ui.threads.server_groups_logic import (
    GroupHeader,
    ServerGroup,
    header_text,
    list_entries,
    state_color,
)
from composer_app.ui.threads.thread_list_model import (
    HeaderRole,
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


def dot_icon(color: str, size: int = 10) -> QIcon:
    """A filled circle: a server's connection dot."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(color))
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


class ThreadListPane(QWidget):
    """Search box, list of threads (grouped by server) and the new-thread button.

    With one server its header is a button above the list; with several, each server's header is
    a row of the list. Clicking a header collapses or expands its threads (``group_toggled``); its
    context menu is the window's (``header_menu_requested``)."""

    thread_selected = Signal(str)
    new_requested = Signal()
    rename_requested = Signal(str)
    archive_requested = Signal(str, bool)  # thread id, archived
    message_search_requested = Signal(str)  # the search text changed: find it in messages too
    message_chosen = Signal(str, str)  # thread id, message id of a chosen message hit
    group_toggled = Signal(str, bool)  # account id, collapsed
    header_menu_requested = Signal(str, QPoint)  # account id, global position

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("threadListPane")
        self._rows: list[ThreadRow] = []
        self._groups: list[ServerGroup] = []
        self._unread: frozenset[str] = frozenset()
        self.collapsed: set[str] = set()
        self._archived: frozenset[str] = frozenset()
        self._current = ""
        self.server_header = QToolButton(self)
        self.server_header.setObjectName("serverHeader")
        self.server_header.setAutoRaise(True)
        self.server_header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.server_header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.server_header.hide()
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
        layout.addWidget(self.server_header)
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
        self.list.clicked.connect(self._on_list_clicked)
        self.server_header.clicked.connect(self._on_server_header_clicked)
        self.server_header.customContextMenuRequested.connect(self._on_server_header_menu)
        self.message_hits.itemActivated.connect(self._on_message_hit_activated)
        self.message_hits.itemClicked.connect(self._on_message_hit_activated)

    # -- state ----------------------------------------------------------------------------------
    def set_threads(self, rows: Sequence[ThreadRow], archived: Collection[str] = ()) -> None:
        """Show these threads (filtered by the search), keeping the selection."""
        if self._groups:
            only = self._groups[0]
            self._groups = [ServerGroup(only.account_id, only.name, only.state, tuple(rows),
                                        only.unread)]
        self._rows = list(rows)
        self._archived = frozenset(archived)
        self._refresh()

    def set_groups(self, groups: Sequence[ServerGroup], archived: Collection[str] = (),
                   unread: Collection[str] = ()) -> None:
        """Show each server's threads under its header (filtered by the search), keeping the
        selection; ``unread`` threads are shown in bold."""
        self._groups = list(groups)
        self._rows = [row for group in groups for row in group.threads]
        self._archived = frozenset(archived)
        self._unread = frozenset(unread)
        self._refresh()

    def groups(self) -> list[ServerGroup]:
        return list(self._groups)

    def set_collapsed(self, account_id: str, collapsed: bool) -> None:
        """Collapse or expand a server's threads."""
        (self.collapsed.add if collapsed else self.collapsed.discard)(account_id)
        self._refresh()
        self.group_toggled.emit(account_id, collapsed)

    def threads(self) -> list[ThreadRow]:
        """Every thread given (shown or not)."""
        return list(self._rows)

    def model_rows(self, *, all_rows: bool = False) -> list[ThreadRow]:
        """The rows shown, or (``all_rows``) every row the search would show when empty."""
        if all_rows:
            if len(self._groups) > 1:
                return [row for group in self._groups for row in visible_threads(
                    group.threads, "", self._archived, self.show_archived.isChecked())]
            return visible_threads(self._rows, "", self._archived, self.show_archived.isChecked())
        return [r for i in range(self.model.rowCount()) if (r := self.model.thread_at(i))]

    @property
    def current_thread(self) -> str:
        return self._current

    def select_thread(self, thread_id: str) -> None:
        """Select ``thread_id`` in the list (without emitting ``thread_selected``)."""
        self._current = thread_id
        self._select_row(self.model.row_of(thread_id))

    def _entries(self) -> list[ThreadRow | GroupHeader]:
        query, archived_shown = self.search.text(), self.show_archived.isChecked()
        if not self._groups:
            return list(visible_threads(self._rows, query, self._archived, archived_shown))
        inline = len(self._groups) > 1
        self._show_single_header(None if inline else self._groups[0])
        return list(list_entries(self._groups, query, self._archived, archived_shown,
                                 self.collapsed, inline_headers=inline))

    def _show_single_header(self, group: ServerGroup | None) -> None:
        """One server: its header is the button above the list."""
        if group is None or not group.name:
            self.server_header.hide()
            return
        collapsed = group.account_id in self.collapsed and not self.search.text().strip()
        header = GroupHeader(group.account_id, group.name, group.state, group.unread, collapsed,
                             0)
        arrow = "\u25b8" if collapsed else "\u25be"
        unread = f"  \u00b7  {group.unread} unread" if group.unread else ""
        self.server_header.setText(f"{arrow} {group.name}{unread}")
        self.server_header.setIcon(dot_icon(state_color(group.state)))
        self.server_header.setToolTip(header_text(header))
        self.server_header.setAccessibleName(f"Server {header_text(header)}")
        self.server_header.show()

    def _refresh(self) -> None:
        entries = self._entries()
        shown = [e for e in entries if isinstance(e, ThreadRow)]
        self.list.selectionModel().blockSignals(True)
        try:
            self.model.set_rows(entries, self._archived, self._unread)
            self._select_row(self.model.row_of(self._current))
        finally:
            self.list.selectionModel().blockSignals(False)
        hint = empty_list_hint(len(self._rows), len(shown), self.search.text())
        if hint and len(self._groups) > 1 and entries and not self.search.text().strip():
            hint = ""  # the servers' headers are shown
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
        first = self.model.first_thread_row()
        if first < 0:
            return
        self.list.setCurrentIndex(self.model.index(first))  # emits thread_selected when it changes
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Down in the search box continues into the list, like a combo box's popup.
        if (watched is self.search and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Down
                and self.model.rowCount() > 0):
            self.list.setFocus(Qt.FocusReason.OtherFocusReason)
            if not self.list.currentIndex().isValid():
                self.list.setCurrentIndex(self.model.index(max(0, self.model.first_thread_row())))
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

    def _on_list_clicked(self, index: QModelIndex) -> None:
        header = index.data(HeaderRole)
        if isinstance(header, GroupHeader):
            self.set_collapsed(header.account_id, header.account_id not in self.collapsed)

    def _on_server_header_menu(self, pos: QPoint) -> None:
        if self._groups:
            self.header_menu_requested.emit(self._groups[0].account_id,
                                            self.server_header.mapToGlobal(pos))

    def scroll_to_server(self, account_id: str) -> None:
        """Bring a server's header into view (a jump to a server without threads)."""
        row = self.model.header_row(account_id)
        if row >= 0:
            self.list.scrollTo(self.model.index(row))

    def _on_server_header_clicked(self) -> None:
        if self._groups:
            account_id = self._groups[0].account_id
            self.set_collapsed(account_id, account_id not in self.collapsed)

    def _on_list_context_menu(self, pos: QPoint) -> None:
        index = self.list.indexAt(pos)
        if not index.isValid():
            return
        header = index.data(HeaderRole)
        if isinstance(header, GroupHeader):
            self.header_menu_requested.emit(header.account_id,
                                            self.list.viewport().mapToGlobal(pos))
            return
        thread_id = str(index.data(ThreadIdRole))
        archived = thread_id in self._archived
        menu = QMenu(self)
        menu.addAction("Rename…", lambda: self.rename_requested.emit(thread_id))
        menu.addAction("Unarchive" if archived else "Archive",
                       lambda: self.archive_requested.emit(thread_id, not archived))
        menu.exec(self.list.viewport().mapToGlobal(pos))
