"""``TranscriptView``: a virtualized list of messages painted by ``TranscriptDelegate``.

Invariants: only visible rows are laid out and painted (heights of other rows are estimates until
they are first painted, then exact and cached per width); the view makes no network calls — chip
files and images, links and pull requests go through callbacks the app supplies; a public thread
opens no file or download controls; every copy writes the formats of ``copy_logic``. Chips,
citation tokens, links and row actions are reachable from the keyboard: Tab and Shift+Tab walk
them in reading order (``keyboard_focus``), a focused token or chip shows the same card as on
hover, and Enter or Space activates it exactly as a click does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QContextMenuEvent,
    QKeySequence,
    QMouseEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QMenu,
    QToolTip,
    QWidget,
)

from composer_app.core.codecs.sources import is_safe_link
from composer_app.ui.transcript.delegate import TranscriptDelegate, prefetch_rows
from composer_app.ui.transcript.export import SaveDialog, export_to_file
from composer_app.ui.transcript.keyboard_focus import FocusItem, next_item, row_items
from composer_app.ui.transcript.markdown_logic import CITE_SCHEME
from composer_app.ui.transcript.model import MessageRole, TranscriptModel
from composer_app.ui.transcript.popovers import DetailsPopover, MediaViewer
from composer_app.ui.transcript.presentation import PresentationRegistry, default_registry
from composer_app.ui.transcript.render import (
    CHIP_SCHEME,
    RowLayout,
    RowRenderer,
    is_dark,
)
from composer_app.ui.transcript.transcript_logic import TranscriptMessage
from composer_app.ui.transcript.view_actions import (
    action_rects,
    copy_markdown,
    painted_selection,
    selected_markdown,
)

Index = QModelIndex | QPersistentModelIndex


class TranscriptView(QListView):
    """The transcript of one thread."""

    chip_activated = Signal(str, str, str)  # message id, context id, action
    citation_activated = Signal(str, str)  # message id, entry id
    sources_requested = Signal(str)  # message id
    message_copied = Signal(str)  # message id
    link_activated = Signal(str)
    unsent_action = Signal(str, str)  # message id, retry / edit / delete

    def __init__(
        self, parent: QWidget | None = None, *, registry: PresentationRegistry | None = None
    ) -> None:
        super().__init__(parent)
        self.renderer = RowRenderer(registry or default_registry())
        self.width_now = 120
        self.thread_title = "Thread"
        self.save_dialog: SaveDialog | None = None
        self.last_scroll = 0.0
        self.environment_id = "local"
        self.url_opener: Callable[[str], Any] | None = None
        self.asset_opener: Callable[[Any], Any] | None = None
        self.chip_opener: Callable[[Any], bool] | None = None  # opens what a record points at
        self.media_loader: Callable[[Any], bytes | None] | None = None
        self.popover: DetailsPopover | None = None
        self.media_viewer: MediaViewer | None = None
        self._active: dict[str, str] = {}
        self._selection: tuple[int, int, int] | None = None
        self._pressed: tuple[int, str, str] | None = None
        self._hover: tuple[str, str] | None = None
        self._focus: tuple[int, str, str] | None = None
        self._stick = True
        self._changes = 0
        self._laid_out: tuple[int, ...] | None = None
        self._prefetch = QTimer(self)
        self._prefetch.setSingleShot(True)
        self._prefetch.timeout.connect(self._on_prefetch_timeout)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setUniformItemSizes(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setMouseTracking(True)
        self.setFrameShape(QListView.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSpacing(0)
        self.setItemDelegate(TranscriptDelegate(self))
        self.setModel(TranscriptModel(self))
        self._connect_signals()

    def invalidate_layout(self) -> None:
        """Row heights may have changed: lay the rows out again (deferred)."""
        self._changes += 1
        self.scheduleDelayedItemsLayout()

    def setModel(self, model: Any) -> None:
        super().setModel(model)
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved, model.dataChanged):
            signal.connect(self._on_model_changed)
        model.modelReset.connect(self._on_model_reset)

    def _on_model_changed(self, *_: Any) -> None:
        self._changes += 1
        self.viewport().update()

    def _on_model_reset(self) -> None:
        self._focus = None

    def _connect_signals(self) -> None:
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._on_scrollbar_range_changed)
        bar.valueChanged.connect(self._on_scrollbar_value_changed)

    # -- public ----------------------------------------------------------------------------------

    def transcript_model(self) -> TranscriptModel:
        """The model (always a ``TranscriptModel``)."""
        model = self.model()
        assert isinstance(model, TranscriptModel)
        return model

    def delegate(self) -> TranscriptDelegate:
        """The row delegate."""
        delegate = self.itemDelegate()
        assert isinstance(delegate, TranscriptDelegate)
        return delegate

    @property
    def messages(self) -> list[TranscriptMessage]:
        """The rows' messages (the model's transcript list)."""
        return self.transcript_model().transcript.messages

    def row_width(self) -> int:
        """The width every row is laid out at (the same with or without the scroll bar, so the
        bar appearing never forces a second layout pass)."""
        width = self.viewport().width()
        bar = self.verticalScrollBar()
        if not bar.isVisible():
            width -= bar.sizeHint().width()
        self.width_now = max(120, width)
        return self.width_now

    def layout_for(self, message: TranscriptMessage, width: int | None = None) -> RowLayout:
        """The cached layout of ``message`` (configured for the current font and theme)."""
        if self.renderer.configure(self.font(), is_dark(self.palette()), self.devicePixelRatioF()):
            self.invalidate_layout()
        return self.renderer.layout(
            message, width or self.row_width(), self._active.get(message.message_id)
        )

    def set_active_source(self, message_id: str, entry_id: str | None) -> None:
        """Highlight ``entry_id``'s token and the blocks it supports (``None`` clears)."""
        if entry_id is None:
            self._active.pop(message_id, None)
        else:
            self._active[message_id] = entry_id
        row = self.transcript_model().transcript.row_of(message_id)
        if row >= 0:
            self.viewport().update(self.visualRect(self.model().index(row, 0)))

    def active_source(self, message_id: str) -> str | None:
        """The highlighted entry of ``message_id``."""
        return self._active.get(message_id)

    def hovered_action(self) -> tuple[str, str] | None:
        """``(message id, action)`` under the mouse."""
        return self._hover

    @property
    def following(self) -> bool:
        """True while the reader is at the bottom: new and growing rows then keep the view
        there; a reader who scrolled up stays where they are."""
        return self._stick

    def follow_bottom(self) -> None:
        """Go to the bottom and follow new rows again (a thread opened, the user sent)."""
        self._stick = True
        self.scrollToBottom()

    def scroll_to_message(self, message_id: str) -> None:
        """Bring a message into view."""
        row = self.transcript_model().transcript.row_of(message_id)
        if row >= 0:
            self.scrollTo(self.model().index(row, 0), QAbstractItemView.ScrollHint.EnsureVisible)

    # -- keyboard focus --------------------------------------------------------------------------

    def focus_key(self) -> tuple[int, str, str] | None:
        """``(row, what, value)`` of the keyboard-focused item."""
        return self._focus

    def focused_item(self) -> FocusItem | None:
        """The chip, token, link or action that has keyboard focus (viewport coordinates)."""
        if self._focus is None:
            return None
        return next((i for i in row_items(self, self._focus[0]) if i.key == self._focus), None)

    def move_focus(self, forward: bool = True) -> FocusItem | None:
        """Focus the next (previous) chip, token, link or action; ``None`` at either end."""
        current = self.currentIndex()
        start = current.row() if current.isValid() else self.indexAt(QPoint(0, 0)).row()
        item = next_item(self, self._focus, max(start, 0), forward)
        if item is None:
            self.clear_focus_item()
            return None
        self._focus = item.key
        index = self.model().index(item.row, 0)
        self.setCurrentIndex(index)
        self.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)
        shown = self.focused_item() or item
        self._ensure_visible(shown)
        self.viewport().update()
        self._show_focus_card(self.focused_item() or shown)
        return shown

    def clear_focus_item(self) -> None:
        """Drop keyboard focus from chips and tokens."""
        if self._focus is not None:
            self._focus = None
            self.setAccessibleDescription("")
            QToolTip.hideText()
            self.viewport().update()

    def activate_focused(self) -> bool:
        """Activate the focused item as a click would; ``False`` when nothing is focused."""
        item = self.focused_item()
        if item is None:
            return False
        where = self.viewport().mapToGlobal(item.rect.bottomLeft())
        self.activate(item.row, item.what, item.value, where)
        return True

    def _ensure_visible(self, item: FocusItem) -> None:
        bar = self.verticalScrollBar()
        height = self.viewport().height()
        if item.rect.bottom() > height:
            bar.setValue(bar.value() + item.rect.bottom() - height + 8)
        elif item.rect.top() < 0:
            bar.setValue(bar.value() + item.rect.top() - 8)

    def _show_focus_card(self, item: FocusItem) -> None:
        from composer_app.ui.transcript.view_actions import focus_text

        text = focus_text(self, item)
        self.setAccessibleDescription(text)
        if text:
            QToolTip.showText(
                self.viewport().mapToGlobal(item.rect.bottomLeft()), text, self.viewport()
            )
        else:
            QToolTip.hideText()

    def focusNextPrevChild(self, next: bool) -> bool:
        if self.hasFocus() and self.move_focus(next) is not None:
            return True
        return super().focusNextPrevChild(next)

    # -- hit testing -----------------------------------------------------------------------------

    def hit(self, pos: QPoint) -> tuple[int, str, str, int]:
        """``(row, what, value, document position)`` at a viewport point.

        ``what`` is ``action`` (value copy/sources), ``chip`` (context id), ``cite`` (entry id),
        ``link`` (URL), ``text`` or ``none``.
        """
        index = self.indexAt(pos)
        if not index.isValid():
            return -1, "none", "", -1
        message: TranscriptMessage = index.data(MessageRole)
        rect = self.visualRect(index)
        layout = self.layout_for(message)
        for name, _text, area in action_rects(message, layout, rect, self.fontMetrics()):
            if name != "status" and area.adjusted(-4, 0, 4, 0).contains(pos):
                return index.row(), "action", name, -1
        local = QPointF(pos.x() - rect.left() - layout.x, pos.y() - rect.top() - layout.y)
        doc_layout = layout.doc.documentLayout()
        position = doc_layout.hitTest(local, Qt.HitTestAccuracy.FuzzyHit)
        href = doc_layout.anchorAt(local)
        if href.startswith(CHIP_SCHEME):
            return index.row(), "chip", href[len(CHIP_SCHEME) :], position
        if href.startswith(CITE_SCHEME):
            return index.row(), "cite", href[len(CITE_SCHEME) :], position
        if href:
            return index.row(), "link", href, position
        return index.row(), "text", "", position

    def message_at(self, row: int) -> TranscriptMessage | None:
        """The message at ``row``."""
        return self.transcript_model().message(row)

    # -- activation ------------------------------------------------------------------------------

    def activate(self, row: int, what: str, value: str, global_pos: QPoint | None = None) -> None:
        """Do what clicking ``what``/``value`` in ``row`` does."""
        message = self.message_at(row)
        if message is None:
            return
        if what == "action" and value == "copy":
            self.copy_message(message.message_id)
        elif what == "action" and value == "sources":
            self.sources_requested.emit(message.message_id)
        elif what == "action" and value in ("retry", "edit", "delete"):
            self.unsent_action.emit(message.message_id, value)
        elif what == "cite":
            self.set_active_source(message.message_id, value)
            self.citation_activated.emit(message.message_id, value)
        elif what == "chip":
            self.activate_chip(message, value, global_pos)
        elif what == "link" and is_safe_link(value):
            self.link_activated.emit(value)
            if self.url_opener is not None:
                self.url_opener(value)

    def activate_chip(
        self, message: TranscriptMessage, context_id: str, global_pos: QPoint | None = None
    ) -> str:
        """Open a chip's expanded surface; returns the action taken."""
        from composer_app.ui.transcript.view_actions import open_chip

        action = open_chip(self, message, context_id, global_pos)
        self.chip_activated.emit(message.message_id, context_id, action)
        return action

    # -- selection and copy ----------------------------------------------------------------------

    def selection_in(
        self, row: int, layout: RowLayout
    ) -> QAbstractTextDocumentLayout.Selection | None:
        """The text selection painted in ``row``, if any."""
        if self._selection is None or self._selection[0] != row:
            return None
        return painted_selection(self, layout, self._selection[1], self._selection[2])

    def select_text(self, row: int, anchor: int, position: int) -> None:
        """Select document positions ``[anchor, position)`` of ``row``."""
        self._selection = (row, anchor, position)
        self.viewport().update()

    def selected_markdown(self) -> tuple[TranscriptMessage, str] | None:
        """The message and canonical Markdown of the current text selection."""
        return selected_markdown(self, self._selection)

    def copy_selection(self) -> dict[str, str] | None:
        """Copy the text selection (or the current row's message); returns what was written."""
        selected = self.selected_markdown()
        if selected is None:
            current = self.currentIndex()
            message = self.message_at(current.row()) if current.isValid() else None
            return self.copy_message(message.message_id) if message else None
        return copy_markdown(self, *selected)

    def copy_message(self, message_id: str) -> dict[str, str] | None:
        """The whole-message Copy action: canonical Markdown plus fragment and carrier."""
        message = self.transcript_model().transcript.get(message_id)
        if message is None:
            return None
        text = message.resolved()[0] if message.role == "user" else message.text
        payload = copy_markdown(self, message, text)
        self.message_copied.emit(message_id)
        return payload

    def export_thread(self, fmt: str) -> Path | None:
        """Share/export the thread (private source data stripped) to a file the user picks."""
        return export_to_file(
            self.messages, self, fmt=fmt, title=self.thread_title, save_dialog=self.save_dialog
        )

    # -- events ----------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.clear_focus_item()
        row, what, value, position = self.hit(event.position().toPoint())
        if event.button() == Qt.MouseButton.LeftButton:
            self._pressed = (row, what, value) if what not in ("text", "none") else None
            self._selection = (row, position, position) if what == "text" else None
            self.viewport().update()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        row, what, value, position = self.hit(pos)
        hover = None
        if what == "action":
            message = self.message_at(row)
            hover = (message.message_id, value) if message else None
        if hover != self._hover:
            self._hover = hover
            self.viewport().update()
        cursor = (
            Qt.CursorShape.PointingHandCursor
            if what in ("action", "chip", "cite", "link")
            else Qt.CursorShape.IBeamCursor
            if what == "text"
            else Qt.CursorShape.ArrowCursor
        )
        self.viewport().setCursor(cursor)
        if event.buttons() & Qt.MouseButton.LeftButton and self._selection is not None:
            if row == self._selection[0] and position >= 0:
                self.select_text(row, self._selection[1], position)
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        row, what, value, _ = self.hit(event.position().toPoint())
        pressed, self._pressed = self._pressed, None
        if pressed is not None and pressed == (row, what, value):
            self.activate(row, what, value, event.globalPosition().toPoint())
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: Any) -> None:
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_selection()
            return
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            if self.activate_focused():
                return
        elif key == Qt.Key.Key_Escape and self._focus is not None:
            self.clear_focus_item()
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        row, _, _, _ = self.hit(event.pos())
        message = self.message_at(row)
        if message is None:
            return
        menu = QMenu(self)
        if self._selection is not None and self._selection[0] == row:
            menu.addAction("Copy", self.copy_selection)
        menu.addAction("Copy message", lambda: self.copy_message(message.message_id))
        if message.sources_action():
            menu.addAction("Sources", lambda: self.sources_requested.emit(message.message_id))
        if message.delivery is not None and message.delivery[0] == "failed":
            menu.addSeparator()
            for name, label in (("retry", "Retry"), ("edit", "Edit"), ("delete", "Delete")):
                menu.addAction(label, partial(self.unsent_action.emit, message.message_id, name))
        menu.addSeparator()
        menu.addAction("Export thread as Markdown…", lambda: self.export_thread("markdown"))
        menu.addAction("Export thread as HTML…", lambda: self.export_thread("html"))
        menu.exec(event.globalPos())

    def viewportEvent(self, event: Any) -> bool:
        from composer_app.ui.transcript.view_actions import tooltip_at

        if event.type() == event.Type.ToolTip:
            text = tooltip_at(self, event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def resizeEvent(self, event: Any) -> None:
        self.row_width()
        super().resizeEvent(event)
        self.scheduleDelayedItemsLayout()

    def doItemsLayout(self) -> None:
        if not self.isVisible():
            return  # laid out when shown: a hidden view has no final width yet
        key = (self.model().rowCount(), self.row_width(), self.renderer.generation, self._changes)
        if key == self._laid_out:
            return  # nothing that moves a row changed since the last pass
        self._laid_out = key
        anchor = self.indexAt(QPoint(0, 0)) if not self._stick else QModelIndex()
        offset = self.visualRect(anchor).top() if anchor.isValid() else 0
        super().doItemsLayout()
        if anchor.isValid():  # keep the first visible row where it was
            bar = self.verticalScrollBar()
            bar.setValue(bar.value() + self.visualRect(anchor).top() - offset)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.scheduleDelayedItemsLayout()

    def paintEvent(self, event: Any) -> None:
        super().paintEvent(event)
        self._prefetch.start(0)

    def _on_prefetch_timeout(self) -> None:
        if not prefetch_rows(self):
            self._prefetch.start(0)

    def _on_scrollbar_range_changed(self, _low: int, high: int) -> None:
        if self._stick:
            self.verticalScrollBar().setValue(high)

    def _on_scrollbar_value_changed(self, value: int) -> None:
        self.last_scroll = time.monotonic()
        self._stick = value >= self.verticalScrollBar().maximum() - 2
