"""``ComposerEditor``: the prompt editor, a rendering of the thread's draft model.

The editor keeps the editing core (document plumbing, loading, Markdown, chip insertion, undo/redo,
send) and owns its collaborators, each called through its own methods:

* ``tracker`` (``ChipTracker``): the chips of the document, the leak guard, the record map;
* ``looks`` (``ChipLooks``): how chips look, their tooltips and the accessible summary;
* ``attachments`` (``AttachmentInput``): clipboard, drag and drop, files, uploads, chip clicks;
* ``keys`` (``ComposerKeys``): the one dispatch point of key presses (interceptors first);
* ``edited_layout`` (``EditedLayout``): before Qt lays out a change, chip positions forgotten,
  the edited paragraph's shaping kept, paragraph directions left to right until text may run
  right to left (so Qt need not scan every paragraph on each keystroke);
* ``prompt_stash`` (``PromptStash``): Ctrl+S, the stash of prompts;
* ``a11y`` (``ComposerA11y``): announcements and the accessible description;
* ``context_input`` (``ContextInput``, made by ``set_context_catalog``): ``@`` / ``/`` / ``#``
  completion, ``!`` command mode and pull-request offers.

Invariants: the document holds text and chips only (each chip one U+FFFC object carrying kind,
context id, label and a fresh reference id); ``markdown()`` is the canonical prompt; the draft's
record map always follows the chips (records no chip points at leave, undo brings them back);
every insertion is one undo step; programmatic loads clear the undo history.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from PySide6.QtCore import QEvent, QMimeData, QPoint, QSizeF, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QHelpEvent,
    QHideEvent,
    QInputMethodEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import QTextEdit, QWidget

from composer_app.core.codecs.references import sanitize_label
from composer_app.core.contracts.messages import MessageContext
from composer_app.core.document.edits import add_record, forget_tombstones
from composer_app.core.document.model import Draft, RecordState
from composer_app.core.document.segments import ChipSegment, Segment, split_markdown
from composer_app.core.document.send import SendBlocked, build_send_payload
from composer_app.ui.composer.a11y import ComposerA11y
from composer_app.ui.composer.attachment_input import AttachmentInput
from composer_app.ui.composer.attachment_uploads import AttachmentUploads
from composer_app.ui.composer.attachments_logic import Notice
from composer_app.ui.composer.chip_tracker import ChipTracker, Entry
from composer_app.ui.composer.chips import (
    CHIP_OBJECT_TYPE,
    CONTEXT_ID,
    KIND,
    LABEL,
    ChipRenderer,
    is_chip,
    line_minimum,
)
from composer_app.ui.composer.context_input import ContextInput
from composer_app.ui.composer.document_bridge import (
    insert_segments,
    markdown_from,
    markdown_of,
)
from composer_app.ui.composer.edited_layout import EditedLayout
from composer_app.ui.composer.editor_input import ComposerKeys, KeyInterceptor
from composer_app.ui.composer.editor_looks import ChipLooks
from composer_app.ui.composer.prompt_stash import PromptStash
from composer_app.ui.context.completion_logic import ContextCatalog
from composer_app.ui.external_open import open_url_externally

_MOVE = QTextCursor.MoveMode
_OP = QTextCursor.MoveOperation
_TOOLTIP = QEvent.Type.ToolTip
_KEY_PRESS = QEvent.Type.KeyPress
_SHORTCUT_OVERRIDE = QEvent.Type.ShortcutOverride
_RATIO_CHANGES = (QEvent.Type.DevicePixelRatioChange, QEvent.Type.ScreenChangeInternal)
_TEXT_EDIT_EVENT = QTextEdit.event
"""Called unbound from ``event`` (four times per keystroke): cheaper than ``super().event``."""


class ComposerEditor(QTextEdit):
    """The composer's text editor with inline context chips."""

    send_requested = Signal(str, object)
    context_changed = Signal()
    """Chips, records or record states changed, or another draft was loaded (not plain typing)."""
    draft_changed = Signal()
    """Anything in the draft changed, typing included (autosave listens; keep slots cheap)."""
    notice_posted = Signal(str, str)
    records_released = Signal(object)
    hidden = Signal()
    """The editor was hidden: by itself, or with its window (closed, hidden or minimized)."""

    url_opener: Callable[[str], Any] = staticmethod(open_url_externally)
    """Opens a chip's web address (a pull request); the app's external opener by default."""
    chip_opener: Callable[[Any], bool] | None = None
    """Opens what a chip's record points at (a file, a mention, a thread…); True when it did."""

    def __init__(self, parent: QWidget | None = None, *, environment_id: str | None = None) -> None:
        super().__init__(parent)
        self.thread_id: str | None = None
        self.draft = Draft(keep_shelf_images=True)
        self.base_format = QTextCharFormat()
        self.block_format = QTextBlockFormat()
        self.loading = False
        self.performing_undo_redo = False
        self.send_blocked = ""
        """Why no send can go now ("" when one can): the draft is kept and the reason shown."""
        self.a11y = ComposerA11y(self)
        self.looks = ChipLooks(self)
        self.tracker = ChipTracker(self)
        self.attachments = AttachmentInput(self, environment_id)
        self.keys = ComposerKeys(self)
        self.prompt_stash = PromptStash(self)
        self._context_input: ContextInput | None = None
        self._chip_renderer = ChipRenderer(self.looks.look, self.looks.is_selected,
                                           self.looks.is_dark, self)
        self.edited_layout = EditedLayout(self.document, self._chip_renderer.forget_positions,
                                          lambda: self.loading)
        self.tracker.edited = self.edited_layout.before_layout
        self.setAcceptRichText(False)
        self.setTabChangesFocus(True)
        self.setPlaceholderText("Message…  (Enter to send, Shift+Enter for a new line)")
        self.setAccessibleName("Message composer")
        self._install(self.document())
        self._apply_font()
        # The typing format changes only when the caret moves next to a chip, so this never runs
        # for plain typing (a cursorPositionChanged slot would run on every key).
        self.currentCharFormatChanged.connect(self._on_editor_current_char_format_changed)
        self.selectionChanged.connect(self._on_editor_selection_changed)

    # -- document plumbing -------------------------------------------------------------------
    def _install(self, doc: QTextDocument) -> None:
        self._chip_renderer.invalidate()
        doc.documentLayout().registerHandler(CHIP_OBJECT_TYPE, self._chip_renderer)
        assert doc.documentLayout().handlerForObject(CHIP_OBJECT_TYPE) is not None
        self.tracker.attach(doc)
        self.tracker.rebuild()
        self.edited_layout.attach(doc)
        # Signal to signal: typing reaches autosave without running any Python.
        doc.contentsChanged.connect(self.draft_changed)

    def setDocument(self, document: QTextDocument) -> None:
        """Replace the document; the chip handler is registered again (a new layout has none)."""
        super().setDocument(document)
        self._install(document)
        self.tracker.reconcile(announce=False)

    @property
    def chip_renderer(self) -> ChipRenderer:
        """The one handler that measures and paints every chip of this editor."""
        return self._chip_renderer

    def _on_editor_current_char_format_changed(self, fmt: QTextCharFormat) -> None:
        # With a selection, setCurrentCharFormat would reformat the selected text (and turn
        # selected chips into bare U+FFFC): only reset the typing format of a plain caret.
        if fmt.hasProperty(KIND):
            self.reset_typing_format()

    def reset_typing_format(self) -> None:
        """Type with the base format from here on (never touches a selection)."""
        if not self.textCursor().hasSelection():
            self.setCurrentCharFormat(self.base_format)

    def _on_editor_selection_changed(self) -> None:
        cursor = self.textCursor()
        self.looks.follow_selection(cursor.selectionStart(), cursor.selectionEnd())

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

    # -- Qt virtuals: each hands the event to the collaborator that owns it --------------------
    def event(self, event: QEvent) -> bool:
        # Runs for every event of the editor (four per keystroke): one type() call, no more. Key
        # presses are dispatched here, before Qt's own handling (so Tab reaches a completion
        # before it moves the focus), and no keyPressEvent override costs a second call per key.
        kind = event.type()
        if kind is _KEY_PRESS:
            if isinstance(event, QKeyEvent) and self.keys.key_press(event):
                event.accept()
                return True
        elif kind is _SHORTCUT_OVERRIDE:
            if isinstance(event, QKeyEvent) and self.keys.shortcut_override(event):
                event.accept()
                return True
        elif kind is _TOOLTIP and isinstance(event, QHelpEvent):
            # A tooltip over the viewport reaches the editor once the viewport ignored it (Qt
            # passes help events up to the parent, in the parent's coordinates); handling it here
            # spares a viewportEvent override, which would run Python for every paint.
            viewport = self.viewport()
            where = viewport.mapFrom(self, event.pos())
            inside = viewport.rect().contains(where)
            if inside and self.looks.show_tooltip(where, event.globalPos()):
                return True
        elif kind in _RATIO_CHANGES:
            self._chip_renderer.forget_pictures()  # chips are drawn for one device pixel ratio
        return _TEXT_EDIT_EVENT(self, event)

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.hidden.emit()

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:
        self.keys.input_method(event)
        super().inputMethodEvent(event)

    def createMimeDataFromSelection(self) -> QMimeData:
        return self.attachments.copy_selection()

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return self.attachments.can_insert(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        start = self.textCursor().selectionStart()
        self.attachments.insert_from(source)
        if self._context_input is not None and source.hasText() and not source.hasUrls():
            self._context_input.pull_requests.offer_range(start, self.textCursor().position())

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            self.attachments.click(event.position().toPoint())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        self.attachments.hover(None if event.buttons() else event.position().toPoint())

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = self.createStandardContextMenu(event.pos())
        for name, step in (("edit-undo", self.undo), ("edit-redo", self.redo)):
            action = next((a for a in menu.actions() if a.objectName() == name), None)
            if action is not None:  # through the editor, which marks undo and redo
                action.triggered.disconnect()
                action.triggered.connect(step)
        plain = menu.addAction("Paste as plain text")
        plain.setShortcut(QKeySequence("Ctrl+Shift+V"))
        plain.setEnabled(not self.isReadOnly() and self.canPaste())
        plain.triggered.connect(self.attachments.paste_plain)
        paste = next((a for a in menu.actions() if a.objectName() == "edit-paste"), None)
        if paste is not None:
            menu.removeAction(plain)
            index = menu.actions().index(paste)
            after = menu.actions()[index + 1] if index + 1 < len(menu.actions()) else None
            if after is not None:
                menu.insertAction(after, plain)
            else:
                menu.addAction(plain)
        menu.exec(event.globalPos())
        menu.deleteLater()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._chip_renderer.invalidate()  # before the reload lays chips out in the new font
            self._apply_font()
            if not self.document().isEmpty():
                self.load_draft(self.snapshot())
        if self.looks.theme_changed(event):
            self._chip_renderer.invalidate()
        super().changeEvent(event)

    # -- keys ----------------------------------------------------------------------------------
    def add_key_interceptor(self, interceptor: KeyInterceptor) -> None:
        """Let ``interceptor`` see every key press before the composer (a completion popup)."""
        self.keys.add_interceptor(interceptor)

    def remove_key_interceptor(self, interceptor: KeyInterceptor) -> None:
        """Stop showing key presses to ``interceptor``."""
        self.keys.remove_interceptor(interceptor)

    # -- typed context (``@`` / ``/`` / ``#``, ``!``, pull-request links) -------------------------
    def set_context_catalog(self, catalog: ContextCatalog | None) -> None:
        """Complete typed triggers from ``catalog`` (None: they stay plain text). The first call
        installs ``context_input`` (completion, command mode, pull-request offers) as a key
        interceptor."""
        self.context_input.set_catalog(catalog)

    @property
    def context_input(self) -> ContextInput:
        """The typed-context collaborator (made on first use)."""
        if self._context_input is None:
            self._context_input = ContextInput(self)
        return self._context_input

    # -- reading -------------------------------------------------------------------------------
    def markdown(self) -> str:
        """The canonical prompt: prose with each chip written as its link."""
        text = markdown_from(self.document().toRawText(), self.tracker.links())
        return text if text is not None else markdown_of(self.document())

    def records(self) -> dict[str, Any]:
        """The records at least one chip points at, in attachment order."""
        wanted = {c.context_id for c in self.tracker.chips()}
        return {cid: r for cid, r in self.draft.records.items() if cid in wanted}

    def chip_counts(self) -> Counter[str]:
        """How many chips point at each context id."""
        return Counter(c.context_id for c in self.tracker.chips())

    def chip_at(self, point: QPoint) -> tuple[str, str, str] | None:
        """``(kind, context_id, label)`` of the chip under a viewport point, if any."""
        cursor = self.cursorForPosition(point)
        for pos in (cursor.position() - 1, cursor.position()):
            if pos < 0:
                continue
            probe = QTextCursor(self.document())
            probe.setPosition(pos)
            left = self.cursorRect(probe)
            probe.setPosition(pos + 1, _MOVE.KeepAnchor)
            fmt = probe.charFormat()
            right = self.cursorRect(probe)
            inside = left.left() <= point.x() <= right.left() and left.top() <= point.y()
            if is_chip(fmt) and inside and point.y() <= left.bottom():
                kind, cid = fmt.stringProperty(KIND), fmt.stringProperty(CONTEXT_ID)
                return kind, cid, fmt.stringProperty(LABEL)
        return None

    def describe_chip(self, kind: str, context_id: str, label: str) -> str:
        """Spoken description of a chip, e.g. ``a.ts L4 (review comment)``."""
        return self.looks.describe_chip(kind, context_id, label)

    def chip_tooltip(self, kind: str, context_id: str, label: str) -> str:
        """The tooltip of a chip (says why when it is unresolved or expired)."""
        return self.looks.chip_tooltip(kind, context_id, label)

    def chip_summary(self) -> str:
        """The accessible summary of the chips, in document order."""
        return self.looks.summary()

    def invalidate_looks(self) -> None:
        """Forget cached chip looks (records, states or uploads changed) and repaint."""
        self.looks.invalidate()

    # -- writing -------------------------------------------------------------------------------
    def insert_context(self, record: Any, label: str | None = None) -> None:
        """Hold ``record`` and insert its chip at the caret (the last-known one without focus)."""
        add_record(self.draft, record)
        held = self.draft.records[record.context_id]
        text = sanitize_label(held.label if label is None else label, held.kind)
        self.insert_chips([ChipSegment(held.kind, held.context_id, text)])

    def insert_chips(self, segments: list[Segment]) -> None:
        """Insert chips (and text) at the caret, set apart by spaces; one undo step."""
        cursor = self.textCursor()
        if self.isReadOnly():
            cursor.movePosition(_OP.End)
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

    def insert_markdown(self, text: str) -> None:
        """Insert text at the caret, links becoming chips; one undo step."""
        cursor = self.textCursor()
        cursor.beginEditBlock()
        cursor.removeSelectedText()
        insert_segments(cursor, split_markdown(text.replace("\r\n", "\n")), self.base_format)
        cursor.endEditBlock()
        self.setTextCursor(cursor)
        self.reset_typing_format()

    def set_markdown(self, text: str, records: Mapping[str, Any] | Iterable[Any] = ()) -> None:
        """Rebuild the editor from canonical Markdown and records; clears the undo history."""
        draft = Draft(keep_shelf_images=self.draft.keep_shelf_images, stash=self.draft.stash,
                      last_sent=self.draft.last_sent)
        values = records.values() if isinstance(records, Mapping) else records
        for record in values:
            add_record(draft, record)
        draft.prompt = text
        self.load_draft(draft)

    # -- draft ---------------------------------------------------------------------------------
    def load_draft(self, draft: Draft) -> None:
        """Show ``draft`` (its prompt becomes chips; undo history cleared).

        The document is built in one edit block from runs of text and chips, with the layout
        paused, so Qt lays it out once (placing the caret at the end). Records the
        previous draft only kept for undo are released (``records_released``), so an upload is
        freed only once no undo step can bring its chip back. The shelf owns the draft's images
        (deleting an image chip keeps the image).
        """
        draft.keep_shelf_images = True
        released = forget_tombstones(self.draft) if draft is not self.draft else []
        self.draft = draft
        self.looks.invalidate()
        doc = self.document()
        segments = split_markdown(draft.prompt)
        self.loading = True
        doc.setUndoRedoEnabled(False)
        try:
            # A null page size pauses the layout while the document is rebuilt; restoring it
            # starts one lazy layout of the whole document at the editor's current width.
            page = doc.pageSize()
            doc.setPageSize(QSizeF(0, 0))
            try:
                self.clear()
                cursor = QTextCursor(doc)
                cursor.beginEditBlock()
                cursor.setBlockFormat(self.block_format)
                insert_segments(cursor, segments, self.base_format)
                cursor.endEditBlock()
                self.edited_layout.attach(doc)  # decided afresh for the new text
            finally:
                doc.setPageSize(page)
            self.setTextCursor(cursor)
            self.reset_typing_format()
        finally:
            doc.setUndoRedoEnabled(True)
            self.loading = False
        entries: list[Entry] = [s for s in segments if isinstance(s, ChipSegment)]
        self.tracker.rebuild(entries)
        self.tracker.reconcile(announce=False)
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
            self.looks.invalidate()
            self.context_changed.emit()
            self.draft_changed.emit()

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

    # -- send ----------------------------------------------------------------------------------
    def request_send(self) -> bool:
        """Send the prompt if it can be sent; True when ``send_requested`` was emitted."""
        if self.send_blocked:
            self.notice_posted.emit("Not sent", self.send_blocked)
            return False
        if not self.attachments.uploads_allow_send():
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

    def recall_last_sent(self) -> bool:
        """Put the last sent prompt (text only) into an empty composer; True when it did."""
        if not self.draft.last_sent or not self.document().isEmpty():
            return False
        self.insert_markdown(self.draft.last_sent)
        return True

    # -- stash (held by ``prompt_stash``) --------------------------------------------------------
    def toggle_stash(self) -> None:
        """Ctrl+S: stash the prompt, or restore the newest entry into an empty composer."""
        self.prompt_stash.toggle()

    def stash(self) -> bool:
        """Move the prompt and its records into the stash; True when something was stashed."""
        return self.prompt_stash.stash()

    def restore_stash(self, index: int = -1) -> bool:
        """Append stash entry ``index`` after a blank line, importing its records; one undo step."""
        return self.prompt_stash.restore(index)

    # -- attachments (held by ``attachments``; these are the editor's public face) ---------------
    @property
    def environment_id(self) -> str:
        """The environment copies come from and pastes resolve in (see ``AttachmentInput``)."""
        return self.attachments.environment_id

    @environment_id.setter
    def environment_id(self, value: str | None) -> None:
        self.attachments.environment_id = value
        if self._context_input is not None:  # thread chips name this environment
            self._context_input.completion.environment_id = self.attachments.environment_id

    @property
    def uploads(self) -> AttachmentUploads:
        """The upload glue of this composer."""
        return self.attachments.uploads

    def use_uploads(self, uploads: AttachmentUploads) -> None:
        """Attach through ``uploads`` (one per app; shared by every composer)."""
        self.attachments.use_uploads(uploads)

    @property
    def last_upload_ids(self) -> tuple[str, ...]:
        """The local upload ids the last message allowed to send must wait for."""
        return self.attachments.last_upload_ids

    def notify(self, notice: Notice) -> None:
        """Post a notice (the composer's toast)."""
        self.notice_posted.emit(notice.title, notice.detail)

    def attach_paths(self, paths: tuple[str, ...] | list[str]) -> list[Any]:
        """Attach local files at the caret (one chip each, in order); returns the new records."""
        return self.attachments.attach_paths(paths)

    def remove_context(self, context_id: str) -> list[Any]:
        """Remove an item and every chip pointing at it (one undo step); returns records removed."""
        return self.attachments.remove_context(context_id)

    def chip_at_caret(self) -> str | None:
        """The context id of the chip the keyboard means (``ChipTracker.chip_touching``)."""
        return self.tracker.chip_touching(self.textCursor())

    def open_chip_at_caret(self) -> bool:
        """Alt+Enter: open what the chip at the caret points at (as a click would); False when
        no chip touches the caret or it has nothing to open."""
        context_id = self.chip_at_caret()
        return context_id is not None and self.activate_chip(context_id)

    def activate_chip(self, context_id: str) -> bool:
        """What a click on a chip does: open its pull request, retry its failed upload, or open
        what it points at through ``chip_opener``."""
        if self.attachments.activate_chip(context_id):
            return True
        record = self.draft.records.get(context_id)
        return record is not None and self.chip_opener is not None and self.chip_opener(record)
