"""Keyboard, input-method and clipboard handling of the composer editor (a ``QTextEdit`` mix-in).

Invariants: Enter sends, Shift+Enter inserts a newline, and an Enter that belongs to an input-method
composition never sends; word moves and word deletions stop at chip boundaries; Up in an empty
composer recalls the last sent prompt (text only); Ctrl+S stashes the prompt (or restores the newest
stash entry into an empty composer); copied text is canonical Markdown, pasted text turns links
into chips, all in one undo step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer
from PySide6.QtGui import QInputMethodEvent, QKeyEvent, QKeySequence, QTextCursor

from composer_app.core.document.segments import OBJECT_REPLACEMENT, split_markdown
from composer_app.core.document.stash import restore_text, stash_preview, stash_prompt
from composer_app.ui.composer.chips import CONTEXT_ID, KIND, LABEL, is_chip
from composer_app.ui.composer.document_bridge import insert_segments
from composer_app.ui.composer.editor_logic import clamp_word_move, enter_action

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor

    _Base = ComposerEditor
else:
    _Base = object

_SK = QKeySequence.StandardKey
_MOVE = QTextCursor.MoveMode
_OP = QTextCursor.MoveOperation
_WORD_KEYS = {
    _SK.MoveToPreviousWord: (_OP.PreviousWord, "move"),
    _SK.MoveToNextWord: (_OP.NextWord, "move"),
    _SK.SelectPreviousWord: (_OP.PreviousWord, "select"),
    _SK.SelectNextWord: (_OP.NextWord, "select"),
    _SK.DeleteStartOfWord: (_OP.PreviousWord, "delete"),
    _SK.DeleteEndOfWord: (_OP.NextWord, "delete"),
}
_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_COMMAND_MODS = (
    Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)
_OWN_SHORTCUTS = ("Ctrl+S", "Ctrl+Shift+S", "Ctrl+Shift+V")
_SHORTCUT_OVERRIDE = QEvent.Type.ShortcutOverride
_COMMAND_BITS = _COMMAND_MODS.value
_KEY_UP = Qt.Key.Key_Up


class ComposerInput(_Base):
    """Input handling for ``ComposerEditor``; mixed in before ``QTextEdit``."""

    _preedit = ""
    _just_committed = False
    _plain_paste = False

    # -- keys ----------------------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:
        if event.type() == _SHORTCUT_OVERRIDE and isinstance(event, QKeyEvent):
            combo = QKeySequence(event.keyCombination()).toString()
            if combo in _OWN_SHORTCUTS:
                event.accept()
                return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self._handle_key(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def _handle_key(self, event: QKeyEvent) -> bool:
        # The typing path (a printable key without Ctrl/Alt/Meta) must stay a handful of calls.
        key, mods = event.key(), event.modifiers()
        if key in _ENTER:
            return self._handle_enter(mods)
        if not mods.value & _COMMAND_BITS:
            if key == _KEY_UP and not mods.value and self.document().isEmpty():
                return self.recall_last_sent()
            return False
        combo = QKeySequence(event.keyCombination()).toString()
        if combo == "Ctrl+S":
            self.toggle_stash()
            return True
        if combo == "Ctrl+Shift+S":
            self.restore_stash()
            return True
        if combo == "Ctrl+Shift+V":
            self.paste_plain()
            return True
        for sequence, (op, mode) in _WORD_KEYS.items():
            if event.matches(sequence):
                self._word_move(op, mode)
                return True
        return False

    def _handle_enter(self, mods: Qt.KeyboardModifier) -> bool:
        action = enter_action(
            shift=bool(mods & Qt.KeyboardModifier.ShiftModifier),
            composing=bool(self._preedit) or self._just_committed,
            modified=bool(mods & _COMMAND_MODS),
        )
        if action == "send":
            self.request_send()
        elif action == "newline":
            self.textCursor().insertText("\n", self.base_format)
        return True

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:
        self._preedit = event.preeditString()
        if event.commitString():
            self._just_committed = True
            QTimer.singleShot(0, self._clear_commit)
        super().inputMethodEvent(event)

    def _clear_commit(self) -> None:
        self._just_committed = False

    def _word_move(self, op: QTextCursor.MoveOperation, mode: str) -> None:
        cursor = self.textCursor()
        probe = QTextCursor(cursor)
        probe.clearSelection()
        pos = probe.position()
        probe.movePosition(op)
        target = probe.position()
        lo, hi = min(pos, target), max(pos, target)
        probe.setPosition(lo)
        probe.setPosition(hi, _MOVE.KeepAnchor)
        chips, unit = [], lo
        for ch in probe.selectedText():
            if ch == OBJECT_REPLACEMENT:
                chips.append(unit)
            unit += 2 if ord(ch) > 0xFFFF else 1
        stop = clamp_word_move(pos, target, chips)
        if mode == "move":
            cursor.setPosition(stop)
        else:
            cursor.setPosition(stop, _MOVE.KeepAnchor)
            if mode == "delete" and not cursor.hasSelection():
                return
            if mode == "delete":
                cursor.removeSelectedText()
        self.setTextCursor(cursor)

    def recall_last_sent(self) -> bool:
        """Put the last sent prompt (text only) into an empty composer; True when it did."""
        if not self.draft.last_sent or not self.document().isEmpty():
            return False
        self.insert_markdown(self.draft.last_sent)
        return True

    # -- stash -----------------------------------------------------------------------------------
    def toggle_stash(self) -> None:
        """Ctrl+S: stash the prompt, or restore the newest entry into an empty composer."""
        if self.document().isEmpty() or not self.markdown().strip():
            self.restore_stash()
        else:
            self.stash()

    def stash(self) -> bool:
        """Move the prompt and its records into the stash; True when something was stashed."""
        outcome = stash_prompt(self.draft, self.markdown())
        if outcome is None:
            return False
        draft = self.draft
        self.load_draft(draft)
        self.notice_posted.emit(
            "Prompt stashed.", "Press Ctrl+S in an empty composer to restore it."
        )
        if outcome.evicted is not None:
            self.notice_posted.emit("The oldest stashed prompt was dropped (the stash keeps 20).",
                                    stash_preview(outcome.evicted))
        return True

    def restore_stash(self, index: int = -1) -> bool:
        """Append stash entry ``index`` after a blank line, importing its records; one undo step."""
        if not self.draft.stash:
            return False
        entry = self.draft.stash.pop(index)
        text = restore_text(self.draft, entry, environment_id=self.environment_id,
                            new_id=self.new_id)
        cursor = QTextCursor(self.document())
        cursor.movePosition(_OP.End)
        cursor.beginEditBlock()
        if not self.document().isEmpty():
            while cursor.position() > 0 and self.document().characterAt(cursor.position() - 1) in (
                " \t\u2029"
            ):
                cursor.deletePreviousChar()
            text = "\n\n" + text
        insert_segments(cursor, split_markdown(text), self.base_format)
        cursor.endEditBlock()
        self.setTextCursor(cursor)
        self.draft_changed.emit()
        return True

    # -- text insertion (the clipboard handlers live in ``attachment_input``) --------------------
    def insert_markdown(self, text: str) -> None:
        """Insert text at the caret, links becoming chips; one undo step."""
        cursor = self.textCursor()
        cursor.beginEditBlock()
        cursor.removeSelectedText()
        insert_segments(cursor, split_markdown(text.replace("\r\n", "\n")), self.base_format)
        cursor.endEditBlock()
        self.setTextCursor(cursor)
        self.reset_typing_format()

    def paste_plain(self) -> None:
        """Paste as plain text (the flag survives into ``insertFromMimeData``)."""
        self._plain_paste = True
        try:
            self.paste()
        finally:
            self._plain_paste = False

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
            fmt: Any = probe.charFormat()
            right = self.cursorRect(probe)
            inside = left.left() <= point.x() <= right.left() and left.top() <= point.y()
            if is_chip(fmt) and inside and point.y() <= left.bottom():
                kind, cid = str(fmt.property(KIND)), str(fmt.property(CONTEXT_ID))
                return kind, cid, str(fmt.property(LABEL))
        return None
