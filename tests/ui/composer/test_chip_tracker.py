"""The chip tracker follows every edit from the edited blocks and stays equal to a fresh read."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextCursor

from composer_app.core.document.segments import ChipSegment
from composer_app.ui.composer.document_bridge import markdown_of, read_segments
from composer_app.ui.composer.editor import ComposerEditor
from tests.core.document import sample_records as rec

RECORDS = rec.every_kind()


def fresh_chips(editor: ComposerEditor) -> list[ChipSegment]:
    return [s for s in read_segments(editor.document()) if isinstance(s, ChipSegment)]


def assert_in_step(editor: ComposerEditor) -> None:
    assert editor.tracker.chips() == fresh_chips(editor)
    assert editor.markdown() == markdown_of(editor.document())
    referenced = {c.context_id for c in editor.tracker.chips()}
    records = editor.draft.records
    assert referenced <= set(records)
    assert {cid for cid, r in records.items() if r.kind != "image"} <= referenced


OPERATION = st.tuples(
    st.sampled_from(["type", "chip", "delete", "delete-range", "undo", "redo", "paste"]),
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=0, max_value=40),
    st.sampled_from(["a", "word ", "\n", "é🙂", "x\ny", "\ufffc"]),
)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(operations=st.lists(OPERATION, max_size=30))
def test_tracked_chips_equal_a_fresh_read_after_any_edits(composer, operations):
    composer.set_markdown("")
    for n, record in enumerate(RECORDS[:4]):
        composer.insert_context(record)
        composer.textCursor().insertText(f"line {n}\n", composer.base_format)
    for op, where, length, text in operations:
        cursor = composer.textCursor()
        size = composer.document().characterCount() - 1
        pos = where % (size + 1)
        if "\udc00" <= composer.document().characterAt(pos) <= "\udfff":
            pos += 1  # never between the two halves of a surrogate pair
        cursor.setPosition(pos)
        composer.setTextCursor(cursor)
        if op == "type":
            cursor.insertText(text, composer.base_format)
        elif op == "chip":
            composer.insert_context(RECORDS[where % len(RECORDS)])
        elif op == "delete":
            cursor.deletePreviousChar()
        elif op == "delete-range":
            end = min(size, cursor.position() + length)
            if "\udc00" <= composer.document().characterAt(end) <= "\udfff":
                end += 1
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
        elif op == "undo":
            composer.undo()
        elif op == "redo":
            composer.redo()
        else:
            composer.insert_markdown(f"pasted {composer.markdown()[:length]}\nend")
        assert_in_step(composer)


def test_a_swapped_in_document_is_read_whole(composer):
    other = ComposerEditor()
    other.set_markdown("")
    other.insert_context(RECORDS[0])
    composer.setDocument(other.document())
    assert composer.tracker.chips() == fresh_chips(composer) != []
    assert composer.markdown() == markdown_of(composer.document()) == other.markdown()


def test_deleting_a_chip_with_backspace_is_noticed_and_undo_brings_it_back(composer, qtbot):
    record = rec.terminal()
    qtbot.keyClicks(composer, "see ")
    composer.insert_context(record)
    cursor = composer.textCursor()
    cursor.setPosition(5)  # just after the chip
    composer.setTextCursor(cursor)
    qtbot.keyClick(composer, "\b")
    assert composer.tracker.chips() == [] and record.context_id not in composer.draft.records
    composer.undo()
    assert [c.context_id for c in composer.tracker.chips()] == [record.context_id]
    assert record.context_id in composer.draft.records
    assert_in_step(composer)
