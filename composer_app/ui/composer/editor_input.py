"""Keyboard and input-method handling of the composer editor: the one place keys are dispatched.

Every key press of the editor goes through ``ComposerKeys.key_press`` and every shortcut override
through ``ComposerKeys.shortcut_override``. Interceptors (``KeyInterceptor``, e.g. a completion
popup opened by a typed trigger) see each key first, in the order they were added, and a key one of
them takes goes no further; then the composer's own keys run; whatever is left is ``QTextEdit``'s.

Invariants: Enter sends, Shift+Enter inserts a newline, Alt+Enter opens the chip at the caret (as a
click on it does; ``ComposerEditor.chip_at_caret``) and never sends, and an Enter that belongs to an
input-method composition never sends; word moves and word deletions stop at chip boundaries; Up in
an empty composer recalls the last sent prompt (text only); Ctrl+S stashes the prompt (or restores
the newest stash entry into an empty composer), Ctrl+Shift+S restores the newest entry, Ctrl+Shift+V
pastes plain text; the platform's undo and redo keys (Ctrl+Z, Ctrl+Shift+Z) and Ctrl+Y (redo, as
on Windows) undo and redo through the editor's ``undo`` and ``redo``, as the context menu's Undo
and Redo do. The typing path (a printable key, no interceptor interested) stays a handful of
calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QInputMethodEvent, QKeyEvent, QKeySequence, QTextCursor

from composer_app.core.document.segments import OBJECT_REPLACEMENT
from composer_app.ui.composer.editor_logic import clamp_word_move, enter_action

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor

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
_CONTROL_BIT = Qt.KeyboardModifier.ControlModifier.value
_COMMAND_BITS = _COMMAND_MODS.value
_KEY_UP = Qt.Key.Key_Up


class KeyInterceptor(Protocol):
    """A collaborator that may take keys before the composer does (a completion popup)."""

    def intercept_key(self, event: QKeyEvent) -> bool:
        """Handle a key press; True when it was taken (the editor then ignores it)."""
        ...

    def wants_shortcut(self, event: QKeyEvent) -> bool:
        """True when a key that would be a window shortcut (Escape, Tab, Enter) is needed here."""
        ...


class ComposerKeys:
    """Dispatches one editor's keys: interceptors, Enter, stash, plain paste, word moves."""

    def __init__(self, editor: ComposerEditor) -> None:
        self._editor = editor
        self._interceptors: list[KeyInterceptor] = []
        self.preedit = ""
        self.just_committed = False

    # -- interceptors --------------------------------------------------------------------------
    def add_interceptor(self, interceptor: KeyInterceptor) -> None:
        """Let ``interceptor`` see every key before the composer (later ones after earlier ones)."""
        if interceptor not in self._interceptors:
            self._interceptors.append(interceptor)

    def remove_interceptor(self, interceptor: KeyInterceptor) -> None:
        """Stop showing keys to ``interceptor``."""
        if interceptor in self._interceptors:
            self._interceptors.remove(interceptor)

    # -- dispatch ------------------------------------------------------------------------------
    def shortcut_override(self, event: QKeyEvent) -> bool:
        """True when the editor keeps a key that would otherwise be a window shortcut."""
        for interceptor in self._interceptors:
            if interceptor.wants_shortcut(event):
                return True
        if not event.modifiers().value & _CONTROL_BIT:
            return False  # every own shortcut holds Ctrl: typing builds no key sequence
        return QKeySequence(event.keyCombination()).toString() in _OWN_SHORTCUTS

    def key_press(self, event: QKeyEvent) -> bool:
        """Handle a key press; True when it was handled (``QTextEdit`` must not see it)."""
        for interceptor in self._interceptors:
            if interceptor.intercept_key(event):
                return True
        # The typing path (a printable key without Ctrl/Alt/Meta) must stay a handful of calls.
        key, mods = event.key(), event.modifiers()
        if key in _ENTER:
            return self._enter(mods)
        if not mods.value & _COMMAND_BITS:
            if key == _KEY_UP and not mods.value and self._editor.document().isEmpty():
                return self._editor.recall_last_sent()
            return False
        combo = QKeySequence(event.keyCombination()).toString()
        if combo == "Ctrl+S":
            self._editor.toggle_stash()
            return True
        if combo == "Ctrl+Shift+S":
            self._editor.restore_stash()
            return True
        if combo == "Ctrl+Shift+V":
            self._editor.attachments.paste_plain()
            return True
        for sequence, step in ((_SK.Undo, self._editor.undo), (_SK.Redo, self._editor.redo)):
            if event.matches(sequence) or (combo == "Ctrl+Y" and sequence == _SK.Redo):
                if not self._editor.isReadOnly():
                    step()  # through the editor, which marks undo and redo
                return True
        for sequence, (op, mode) in _WORD_KEYS.items():
            if event.matches(sequence):
                self._word_move(op, mode)
                return True
        return False

    def _enter(self, mods: Qt.KeyboardModifier) -> bool:
        if mods == Qt.KeyboardModifier.AltModifier and not (self.preedit or self.just_committed):
            self._editor.open_chip_at_caret()  # Alt+Enter opens the chip at the caret
            return True
        action = enter_action(
            shift=bool(mods & Qt.KeyboardModifier.ShiftModifier),
            composing=bool(self.preedit) or self.just_committed,
            modified=bool(mods & _COMMAND_MODS),
        )
        if action == "send":
            self._editor.request_send()
        elif action == "newline":
            self._editor.textCursor().insertText("\n", self._editor.base_format)
        return True

    # -- input methods -------------------------------------------------------------------------
    def input_method(self, event: QInputMethodEvent) -> None:
        """Note a composition (an Enter that ends it must not send)."""
        self.preedit = event.preeditString()
        if event.commitString():
            self.just_committed = True
            QTimer.singleShot(0, self.commit_settled)

    def commit_settled(self) -> None:
        """The committed text has been applied: Enter sends again."""
        self.just_committed = False

    # -- words ---------------------------------------------------------------------------------
    def _word_move(self, op: QTextCursor.MoveOperation, mode: str) -> None:
        editor = self._editor
        cursor = editor.textCursor()
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
        editor.setTextCursor(cursor)
