"""``ContextCompletion``: the ``@`` / ``/`` / ``#`` completion popup of a text editor.

The controller watches one ``QTextEdit`` (text and caret changes), asks a ``ContextCatalog`` for
rows and shows them in a ``QListView`` (object name ``contextCompletion``) floating at the caret.
The editor forwards its key presses through ``handle_key(event)`` first: Up/Down (and Page
Up/Down) move, Enter or Tab inserts, Esc closes and leaves the typed text.

Invariants:
* The popup never takes keyboard focus: typing stays in the editor, which keeps filtering.
* Accepting a row replaces the trigger token and emits ``record_chosen(record)`` *inside the same
  edit block*, so a directly connected slot that inserts the chip makes one undo step (undo brings
  the typed ``@query`` back).
* A catalog answer for a query that is no longer current is dropped; so is one that arrives after
  the popup closed or after the controller was deleted.
* Esc dismisses the trigger at its position: typing on in the same token does not reopen the popup.
* Only an editor that has focus opens the popup (loading a draft that ends in ``@x`` does not).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QListView, QTextEdit

from composer_app.ui.composer.a11y import ComposerA11y
from composer_app.ui.context.completion_logic import (
    FILE_RESULT_LIMIT,
    POPUP_NAMES,
    CompletionItem,
    CompletionTickets,
    ContextCatalog,
    Trigger,
    TriggerKind,
    file_items,
    filter_items,
    find_trigger,
    from_units,
    record_for,
    skill_items,
    thread_items,
    to_units,
)

POPUP_OBJECT_NAME = "contextCompletion"
VISIBLE_ROWS = 8
_Index = QModelIndex | QPersistentModelIndex


class CompletionModel(QAbstractListModel):
    """The popup's rows: title and detail; the detail is also the tooltip."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.items: list[CompletionItem] = []

    def set_items(self, items: list[CompletionItem]) -> None:
        """Replace every row."""
        self.beginResetModel()
        self.items = items
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.items)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.items):
            return None
        item = self.items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{item.title}    {item.detail}" if item.detail else item.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return item.detail or item.title
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return item.spoken
        return None


class ContextCompletion(QObject):
    """Typed-trigger completion for ``editor``; see the module docstring."""

    record_chosen = Signal(object)
    """A contract record to insert at the caret (emitted inside the trigger's edit block)."""
    item_rejected = Signal(str)
    """A row could not become a valid record (the reason, for a notice)."""

    def __init__(self, editor: QTextEdit, *, environment_id: str = "",
                 announce: Callable[[str], None] | None = None) -> None:
        super().__init__(editor)
        self._editor = editor
        self.environment_id = environment_id
        self._catalog: ContextCatalog | None = None
        self._announce = announce or ComposerA11y(editor).announce
        self._tickets = CompletionTickets()
        self._trigger: Trigger | None = None
        self._block = -1
        self._dismissed: tuple[int, int] | None = None
        self._listed: list[CompletionItem] | None = None
        self._busy = False
        self.model = CompletionModel(self)
        self.popup = self._make_popup()
        editor.destroyed.connect(self.popup.deleteLater)  # it may live on in the window
        editor.textChanged.connect(self.refresh)
        editor.cursorPositionChanged.connect(self.refresh)
        editor.installEventFilter(self)

    # -- setup ------------------------------------------------------------------------------
    def _make_popup(self) -> QListView:
        popup = QListView(self._editor)
        popup.setObjectName(POPUP_OBJECT_NAME)
        popup.setModel(self.model)
        popup.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        popup.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        popup.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        popup.setUniformItemSizes(True)
        popup.setMouseTracking(True)
        popup.clicked.connect(lambda index: self._accept(index.row()))
        popup.hide()
        return popup

    def set_catalog(self, catalog: ContextCatalog | None) -> None:
        """Use ``catalog`` from now on (None: triggers stay plain text)."""
        self._catalog = catalog
        self.close()
        self.refresh()

    # -- state --------------------------------------------------------------------------------
    @property
    def trigger(self) -> Trigger | None:
        """The open trigger, if any."""
        return self._trigger

    def is_open(self) -> bool:
        """True while the popup is shown."""
        return self.popup.isVisible()

    def items(self) -> list[CompletionItem]:
        """The rows the popup shows."""
        return list(self.model.items)

    def current_row(self) -> int:
        """The highlighted row (-1 when none)."""
        return self.popup.currentIndex().row()

    def close(self) -> None:
        """Close the popup and forget the trigger; pending answers become stale."""
        self._tickets.cancel()
        self._trigger = None
        self._listed = None
        self.model.set_items([])
        self.popup.hide()

    # -- keys ---------------------------------------------------------------------------------
    def handle_key(self, event: QKeyEvent) -> bool:
        """Handle a key press of the editor; True when it was consumed (the editor then ignores
        it). Only acts while the popup shows rows."""
        if not self.is_open() or not self.model.items:
            return False
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if mods not in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
            return False
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            self._move(key)
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab):
            self._accept(max(self.current_row(), 0))
            return True
        if key == Qt.Key.Key_Escape:
            if self._trigger is not None:
                self._dismissed = (self._block, self._trigger.start)
            self.close()
            return True
        return False

    def _move(self, key: int) -> None:
        count = len(self.model.items)
        row = self.current_row()
        step = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1,
                Qt.Key.Key_PageUp: -VISIBLE_ROWS, Qt.Key.Key_PageDown: VISIBLE_ROWS}[Qt.Key(key)]
        row = (row + step) % count if abs(step) == 1 else min(max(row + step, 0), count - 1)
        self._set_row(row)

    def _set_row(self, row: int) -> None:
        index = self.model.index(row, 0)
        self.popup.setCurrentIndex(index)
        self.popup.scrollTo(index)
        item = self.model.items[row]
        self._announce(f"{item.spoken}, {row + 1} of {len(self.model.items)}")

    # -- following the editor -----------------------------------------------------------------
    def refresh(self) -> None:
        """Re-read the trigger at the caret (connected to the editor's text and caret signals)."""
        if self._busy:
            return
        cursor = self._editor.textCursor()
        if self._catalog is None or cursor.hasSelection() or not self._editor.hasFocus():
            if self._trigger is not None:
                self.close()
            return
        block = cursor.block()
        line = block.text()
        caret = from_units(line, cursor.positionInBlock())
        trigger = find_trigger(line, caret)
        if trigger is None or self._dismissed == (block.blockNumber(), trigger.start):
            if trigger is None:
                self._dismissed = None
            if self._trigger is not None:
                self.close()
            return
        previous = self._trigger
        if previous == trigger and self._block == block.blockNumber():
            return
        same_session = (previous is not None and previous.kind is trigger.kind
                        and previous.start == trigger.start and self._block == block.blockNumber())
        self._trigger = trigger
        self._block = block.blockNumber()
        self._request(trigger, same_session)

    def _request(self, trigger: Trigger, same_session: bool) -> None:
        catalog = self._catalog
        assert catalog is not None
        if trigger.kind is TriggerKind.FILE:
            ticket = self._tickets.issue()
            catalog.search_files(trigger.query, FILE_RESULT_LIMIT,
                                 self._answer(ticket, lambda paths: file_items(paths)))
            return
        if same_session and self._listed is not None:
            self._show(filter_items(self._listed, trigger.query))
            return
        ticket = self._tickets.issue()
        self._listed = None
        if trigger.kind is TriggerKind.SKILL:
            catalog.list_skills(self._answer(ticket, skill_items, listing=True))
        else:
            catalog.list_threads(self._answer(ticket, thread_items, listing=True))

    def _answer(self, ticket: int, to_items: Callable[[Any], list[CompletionItem]], *,
                listing: bool = False) -> Callable[[Any], None]:
        def done(result: Any) -> None:
            try:
                if not self._tickets.is_current(ticket) or self._trigger is None:
                    return
                items = to_items(result or [])
            except RuntimeError:  # the controller was deleted before the answer came
                return
            except (TypeError, ValueError):  # a malformed answer shows nothing
                items = []
            if listing:
                self._listed = items
                trigger = self._trigger
                items = filter_items(items, trigger.query) if trigger is not None else []
            self._show(items)

        return done

    def _show(self, items: list[CompletionItem]) -> None:
        trigger = self._trigger
        if trigger is None:
            return
        self.model.set_items(items[:FILE_RESULT_LIMIT] if trigger.kind is TriggerKind.FILE
                             else items)
        if not items:
            self.popup.hide()
            return
        self.popup.setAccessibleName(POPUP_NAMES[trigger.kind])
        self._place()
        was_open = self.popup.isVisible()
        if not was_open:
            self.popup.show()
            self.popup.raise_()
        self.popup.setCurrentIndex(self.model.index(0, 0))
        if not was_open:
            self._announce(f"{POPUP_NAMES[trigger.kind]}: {len(items)} suggestions, "
                           f"{items[0].spoken}")

    def _place(self) -> None:
        host = self._editor.window()
        if self.popup.parentWidget() is not host:
            self.popup.setParent(host)
            self.popup.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        rows = min(len(self.model.items), VISIBLE_ROWS)
        row_height = max(self.popup.sizeHintForRow(0), self.popup.fontMetrics().height() + 4)
        frame = self.popup.frameWidth() * 2
        height = rows * row_height + frame
        width = min(max(320, self._editor.width() // 2), max(host.width() - 8, 120))
        caret = self._editor.cursorRect()
        below = self._editor.viewport().mapTo(host, caret.bottomLeft() + QPoint(0, 2))
        above = self._editor.viewport().mapTo(host, caret.topLeft() - QPoint(0, height + 2))
        origin = below if below.y() + height <= host.height() or above.y() < 0 else above
        x = min(max(origin.x(), 0), max(host.width() - width, 0))
        self.popup.setGeometry(x, max(origin.y(), 0), width, height)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Close when the editor loses focus to another widget or is hidden."""
        if watched is self._editor and self._trigger is not None:
            kind = event.type()
            if kind == QEvent.Type.Hide or (
                kind == QEvent.Type.FocusOut
                and isinstance(event, QFocusEvent)
                and event.reason() != Qt.FocusReason.PopupFocusReason
            ):
                self.close()
        return False

    # -- inserting ----------------------------------------------------------------------------
    def _accept(self, row: int) -> None:
        trigger = self._trigger
        if trigger is None or not 0 <= row < len(self.model.items):
            return
        item = self.model.items[row]
        record = record_for(item, self.environment_id)
        if record is None:
            self.item_rejected.emit(f"{item.title} cannot be attached")
            return
        cursor = self._editor.textCursor()
        block = self._editor.document().findBlockByNumber(self._block)
        line = block.text()
        cursor.setPosition(block.position() + to_units(line, trigger.start))
        cursor.setPosition(block.position() + to_units(line, trigger.end),
                           cursor.MoveMode.KeepAnchor)
        self._busy = True
        try:
            cursor.beginEditBlock()
            cursor.removeSelectedText()
            self._editor.setTextCursor(cursor)
            self.close()
            self.record_chosen.emit(record)
            cursor.endEditBlock()
        finally:
            self._busy = False
        self._dismissed = None
