"""``PromptStash``: the composer's stash of prompts (Ctrl+S), a part the editor owns.

Invariants: stashing moves the whole prompt and its records into the draft's stash (at most 20
entries, the oldest dropped with a notice) and leaves an empty composer; a stashed file keeps its
upload (the restored chip binds to it again) and the files of an evicted entry are released
(``records_released``); restoring appends the entry after a blank line, importing its records, as
one undo step. The rules live in ``core.document.stash``; this part applies them to the editor's
document and says what happened through the editor's signals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QTextCursor

from composer_app.core.document.segments import split_markdown
from composer_app.core.document.stash import restore_text, stash_preview, stash_prompt
from composer_app.ui.composer.document_bridge import insert_segments

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor

__all__ = ["PromptStash"]

_TRAILING_SPACE = " \t\u2029"


class PromptStash:
    """Stash and restore the editor's prompt (see the module invariants)."""

    def __init__(self, editor: ComposerEditor) -> None:
        self._editor = editor

    def toggle(self) -> None:
        """Ctrl+S: stash the prompt, or restore the newest entry into an empty composer."""
        editor = self._editor
        if editor.document().isEmpty() or not editor.markdown().strip():
            self.restore()
        else:
            self.stash()

    def stash(self) -> bool:
        """Move the prompt and its records into the stash; True when something was stashed."""
        editor = self._editor
        outcome = stash_prompt(editor.draft, editor.markdown())
        if outcome is None:
            return False
        editor.load_draft(editor.draft)
        editor.notice_posted.emit(
            "Prompt stashed.", "Press Ctrl+S in an empty composer to restore it."
        )
        if outcome.evicted is not None:
            editor.notice_posted.emit(
                "The oldest stashed prompt was dropped (the stash keeps 20).",
                stash_preview(outcome.evicted))
            files = [r for r in outcome.evicted.records if r.kind == "file"]
            if files:  # nothing can bring these chips back: their uploads may go
                editor.records_released.emit(files)
        return True

    def restore(self, index: int = -1) -> bool:
        """Append stash entry ``index`` after a blank line, importing its records; one undo
        step. False when the stash is empty."""
        editor = self._editor
        if not editor.draft.stash:
            return False
        entry = editor.draft.stash.pop(index)
        text = restore_text(editor.draft, entry, environment_id=editor.environment_id,
                            new_id=editor.new_id)
        doc = editor.document()
        cursor = QTextCursor(doc)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.beginEditBlock()
        if not doc.isEmpty():
            while cursor.position() > 0 and doc.characterAt(cursor.position() - 1) in (
                    _TRAILING_SPACE):
                cursor.deletePreviousChar()
            text = "\n\n" + text
        insert_segments(cursor, split_markdown(text), editor.base_format)
        cursor.endEditBlock()
        editor.setTextCursor(cursor)
        editor.draft_changed.emit()
        return True
