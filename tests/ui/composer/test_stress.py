"""20,000 mixed editor operations in one process must not crash (PySide6 on Python 3.11 did)."""

import random

from PySide6.QtGui import QTextCursor

from composer_app.ui.composer.document_bridge import chip_occurrences
from composer_app.ui.composer.editor import ComposerEditor
from tests.core.document import sample_records as rec

OPERATIONS = 20_000


def test_twenty_thousand_mixed_operations(qapp):
    rng = random.Random(1234)
    records = rec.every_kind()
    editor = ComposerEditor()
    done = 0
    try:
        for done in range(1, OPERATIONS + 1):
            op = rng.random()
            cursor = editor.textCursor()
            if op < 0.35:
                cursor.insertText(rng.choice(["a", "word ", "\n", "é", "🙂"]), editor.base_format)
                editor.setTextCursor(cursor)
            elif op < 0.5:
                editor.insert_context(rng.choice(records))
            elif op < 0.65:
                cursor.deletePreviousChar()
            elif op < 0.75:
                cursor.setPosition(rng.randint(0, editor.document().characterCount() - 1))
                editor.setTextCursor(cursor)
            elif op < 0.87:
                editor.undo()
            else:
                editor.redo()
            if done % 2_500 == 0:
                referenced = {c.context_id for c in chip_occurrences(editor.document())}
                assert set(editor.draft.records) == referenced == set(editor.records())
                assert "\ufffc" not in editor.markdown()
                editor.set_markdown(editor.markdown()[-2_000:], records)
        editor.moveCursor(QTextCursor.MoveOperation.End)
    finally:
        editor.deleteLater()
    assert done == OPERATIONS
