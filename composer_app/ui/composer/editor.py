"""``ComposerEditor``: the prompt editor, a rendering of the thread's draft model.

Invariants: the document holds text and chips only (each chip one U+FFFC object carrying kind,
context id, label and a fresh reference id); ``markdown()`` is the canonical prompt; the draft's
record map always follows the chips (records no chip points at leave, undo brings them back);
every insertion is one undo step; programmatic loads clear the undo history.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QTextEdit, QWidget

from composer_app.core.codecs.references import sanitize_label
from composer_app.core.contracts.messages import MessageContext
from composer_app.core.document.edits import add_record, forget_tombstones
from composer_app.core.document.model import Draft, RecordState
from composer_app.core.document.segments import ChipSegment, split_markdown
from composer_app.core.document.send import SendBlocked, build_send_payload
from composer_app.ui.composer.a11y import ComposerA11y
from composer_app.ui.composer.attachment_input import ComposerAttachments
from composer_app.ui.composer.chip_tracker import ChipTracker
from composer_app.ui.composer.chips import CHIP_OBJECT_TYPE, KIND, ChipRenderer, line_minimum
from composer_app.ui.composer.document_bridge import insert_segments, markdown_of
from composer_app.ui.composer.editor_input import ComposerInput
from composer_app.ui.composer.editor_logic import ChipLook
from composer_app.ui.composer.editor_looks import ComposerLooks


class ComposerEditor(ComposerAttachments, ComposerLooks, ComposerInput, QTextEdit):
    """The composer's text editor with inline context chips."""

    send_requested = Signal(str, object)
    context_changed = Signal()
    """Chips, records or record states changed, or another draft was loaded (not plain typing)."""
    draft_changed = Signal()
    """Anything in the draft changed, typing included (autosave listens; keep slots cheap)."""
    notice_posted = Signal(str, str)
    records_released = Signal(object)

    def __init__(self, parent: QWidget | None = None, *, environment_id: str | None = None) -> None:
        super().__init__(parent)
        self.environment_id = environment_id
        self.draft = Draft(keep_shelf_images=True)
        self.base_format = QTextCharFormat()
        self.block_format = QTextBlockFormat()
        self.loading = False
        self.performing_undo_redo = False
        self._looks: dict[tuple[str, str, str], ChipLook] = {}
        self._selection = (0, 0)
        self._dark: bool | None = None
        self.a11y = ComposerA11y(self)
        self._tracker = ChipTracker(self, self.draft_changed.emit)
        self._chip_renderer = ChipRenderer(self._look, self._is_selected, self._is_dark, self)
        self.setAcceptRichText(False)
        self.setTabChangesFocus(True)
        self.setPlaceholderText("Message…  (Enter to send, Shift+Enter for a new line)")
        self.setAccessibleName("Message composer")
        self._install(self.document())
        self._apply_font()
        self._connect_signals()

    # -- document plumbing -------------------------------------------------------------------
    def _connect_signals(self) -> None:
        self.cursorPositionChanged.connect(self._on_editor_cursor_position_changed)
        self.selectionChanged.connect(self._on_editor_selection_changed)

    def _install(self, doc: QTextDocument) -> None:
        self._chip_renderer.invalidate()
        doc.documentLayout().registerHandler(CHIP_OBJECT_TYPE, self._chip_renderer)
        assert doc.documentLayout().handlerForObject(CHIP_OBJECT_TYPE) is not None
        self._tracker.attach(doc)

    def setDocument(self, document: QTextDocument) -> None:
        """Replace the document; the chip handler is registered again (a new layout has none)."""
        super().setDocument(document)
        self._install(document)
        self._tracker.reconcile(announce=False)

    def _on_editor_cursor_position_changed(self) -> None:
        # With a selection, setCurrentCharFormat would reformat the selected text (and turn
        # selected chips into bare U+FFFC): only reset the typing format of a plain caret.
        if self.currentCharFormat().hasProperty(KIND):
            self.reset_typing_format()

    def reset_typing_format(self) -> None:
        """Type with the base format from here on (never touches a selection)."""
        if not self.textCursor().hasSelection():
            self.setCurrentCharFormat(self.base_format)

    def _on_editor_selection_changed(self) -> None:
        cursor = self.textCursor()
        selection = (cursor.selectionStart(), cursor.selectionEnd())
        if selection[0] != selection[1] or self._selection[0] != self._selection[1]:
            self.viewport().update()
        self._selection = selection

    def undo(self) -> None:
        """Undo one step (corrections never run while undoing)."""
        self.performing_undo_redo = True
        try:
            super().undo()
        finally:
            self.performing_undo_redo = False

    def redo(self) -> None:
        """Redo one step."""
        self.performing_undo_redo = True
        try:
            super().redo()
        finally:
            self.performing_undo_redo = False

    def _apply_font(self) -> None:
        """Chips carry the editor font (Qt places them by it); every line gets the chip height."""
        self.base_format = QTextCharFormat()
        self.base_format.setFont(self.font())
        self.block_format = QTextBlockFormat()
        self.block_format.setLineHeight(
            line_minimum(self.font()), int(QTextBlockFormat.LineHeightTypes.MinimumHeight.value)
        )
        self.reset_typing_format()
        cursor = QTextCursor(self.document())
        cursor.select(QTextCursor.SelectionType.Document)
        was = self.document().isUndoRedoEnabled()
        self.document().setUndoRedoEnabled(False)
        cursor.mergeBlockFormat(self.block_format)
        self.document().setUndoRedoEnabled(was)

    # -- public API ---------------------------------------------------------------------------
    def insert_context(self, record: Any, label: str | None = None) -> None:
        """Hold ``record`` and insert its chip at the caret (the last-known one without focus)."""
        add_record(self.draft, record)
        held = self.draft.records[record.context_id]
        text = sanitize_label(held.label if label is None else label, held.kind)
        self._insert_chips([ChipSegment(held.kind, held.context_id, text)])

    def markdown(self) -> str:
        """The canonical prompt: prose with each chip written as its link."""
        return markdown_of(self.document())

    def set_markdown(self, text: str, records: Mapping[str, Any] | Iterable[Any] = ()) -> None:
        """Rebuild the editor from canonical Markdown and records; clears the undo history."""
        draft = Draft(keep_shelf_images=self.draft.keep_shelf_images, stash=self.draft.stash,
                      last_sent=self.draft.last_sent)
        values = records.values() if isinstance(records, Mapping) else records
        for record in values:
            add_record(draft, record)
        draft.prompt = text
        self.load_draft(draft)

    def records(self) -> dict[str, Any]:
        """The records at least one chip points at, in attachment order."""
        wanted = {o.context_id for o in self._tracker.occurrences}
        return {cid: r for cid, r in self.draft.records.items() if cid in wanted}

    # -- draft ---------------------------------------------------------------------------------
    def load_draft(self, draft: Draft) -> None:
        """Show ``draft`` (its prompt becomes chips; undo history cleared).

        Records the previous draft only kept for undo are released (``records_released``), so an
        upload is freed only once no undo step can bring its chip back. The shelf owns the
        draft's images (deleting an image chip keeps the image).
        """
        draft.keep_shelf_images = True
        released = forget_tombstones(self.draft) if draft is not self.draft else []
        self.draft = draft
        self._looks.clear()
        doc = self.document()
        self.loading = True
        doc.setUndoRedoEnabled(False)
        try:
            self.clear()
            cursor = QTextCursor(doc)
            cursor.beginEditBlock()
            cursor.setBlockFormat(self.block_format)
            insert_segments(cursor, split_markdown(draft.prompt), self.base_format)
            cursor.endEditBlock()
            self.setTextCursor(cursor)
            self.reset_typing_format()
        finally:
            doc.setUndoRedoEnabled(True)
            self.loading = False
        self._tracker.reconcile(announce=False)
        released += forget_tombstones(self.draft)
        if released:
            self.records_released.emit(released)
        self.context_changed.emit()
        self.draft_changed.emit()

    def snapshot(self) -> Draft:
        """The draft with its prompt brought up to date from the document."""
        self.draft.prompt = self.markdown()
        return self.draft

    def set_record_state(self, context_id: str, state: RecordState) -> None:
        """Mark a held record pending/resolved/unresolved (e.g. when a fetch completes)."""
        if context_id in self.draft.records:
            if state is RecordState.RESOLVED:
                self.draft.states.pop(context_id, None)
            else:
                self.draft.states[context_id] = state
            self.invalidate_looks()
            self.context_changed.emit()
            self.draft_changed.emit()

    def _insert_chips(self, segments: list[Any]) -> None:
        cursor = self.textCursor()
        if self.isReadOnly():
            cursor.movePosition(QTextCursor.MoveOperation.End)
        elif cursor.hasSelection() and not self.hasFocus():
            cursor.setPosition(cursor.selectionEnd())
        cursor.beginEditBlock()
        cursor.removeSelectedText()
        doc = self.document()
        before = doc.characterAt(cursor.position() - 1) if cursor.position() > 0 else ""
        if before and not before.isspace() and before != "\u2029":
            cursor.insertText(" ", self.base_format)
        insert_segments(cursor, segments, self.base_format)
        after = doc.characterAt(cursor.position())
        if not after.isspace() or after in ("\u2029", "\x00"):
            cursor.insertText(" ", self.base_format)
        cursor.endEditBlock()
        self.setTextCursor(cursor)
        self.reset_typing_format()

    # -- send and stash ------------------------------------------------------------------------
    def request_send(self) -> bool:
        """Send the prompt if it can be sent; True when ``send_requested`` was emitted."""
        if not self.uploads_allow_send():
            return False
        outcome = build_send_payload(self.snapshot())
        if isinstance(outcome, SendBlocked):
            if outcome.title:
                self.notice_posted.emit(outcome.title, outcome.detail)
            return False
        context = MessageContext(records=list(outcome.records)) if outcome.records else None
        self.draft.last_sent = outcome.text
        self.set_markdown("", ())
        self.send_requested.emit(outcome.text, context)
        return True

    def new_id(self) -> str:
        """A fresh producer id for imported records."""
        return uuid.uuid4().hex

    def close_draft(self) -> list[Any]:
        """Let go of what no undo step may bring back any more (window close, app quit).

        Records whose last chip was deleted wait in the tombstone cache so that undo can restore
        them; once the draft closes nothing can, so they are forgotten and their uploads released
        (``records_released``), instead of being left for the server to expire. The prompt and
        every record a chip still points at stay. Returns the records released.
        """
        released = forget_tombstones(self.draft)
        self.document().clearUndoRedoStacks()
        if released:
            self.records_released.emit(released)
        return released

