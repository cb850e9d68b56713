"""Every paragraph of the composer runs the way Qt's automatic direction runs the same text."""

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QTextCursor, QTextDocument
from PySide6.QtWidgets import QApplication

from composer_app.core.codecs.references import format_reference
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.paragraph_directions import has_right_to_left
from tests.core.document import sample_records as rec

RECORDS = rec.every_kind()
LTR, RTL = Qt.LayoutDirection.LeftToRight, Qt.LayoutDirection.RightToLeft
AUTO = Qt.LayoutDirection.LayoutDirectionAuto
CHIP = format_reference("file", "file_f1", "notes.txt")


def directions(doc: QTextDocument) -> list[Qt.LayoutDirection]:
    out = []
    block = doc.begin()
    while block.isValid():
        out.append(block.textDirection())
        block = block.next()
    return out


def automatic(editor: ComposerEditor) -> list[Qt.LayoutDirection]:
    """What Qt's automatic paragraph direction gives the composer's text (chips as U+FFFC)."""
    reference = QTextDocument()
    reference.setPlainText(editor.document().toRawText().replace("\u2029", "\n"))
    assert reference.defaultTextOption().textDirection() == AUTO
    return directions(reference)


def laid_out(editor: ComposerEditor) -> list[Qt.LayoutDirection]:
    """The direction each paragraph was laid out in."""
    doc = editor.document()
    doc.documentLayout().blockBoundingRect(doc.lastBlock())
    out = []
    block = doc.begin()
    while block.isValid():
        out.append(block.layout().textOption().textDirection())
        block = block.next()
    return out


def default_direction(editor: ComposerEditor) -> Qt.LayoutDirection:
    return editor.document().defaultTextOption().textDirection()


def type_text(editor: ComposerEditor, text: str) -> None:
    """Type ``text`` key by key (QTest cannot type characters outside ASCII)."""
    for char in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(editor, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, char))


def test_characters_that_may_run_right_to_left():
    assert not has_right_to_left("")
    assert not has_right_to_left("plain, café 12 \ufffc\u2029 漢字 ελληνικά \U0001f642")
    assert has_right_to_left("x שלום")
    assert has_right_to_left("12 مرحبا")
    assert has_right_to_left("a\u200fb")  # the right-to-left mark is strong
    assert has_right_to_left("\U00010900")  # Phoenician, beyond the first plane


def test_a_draft_without_right_to_left_text_runs_left_to_right_without_a_scan(composer):
    composer.set_markdown(f"{CHIP} words\n\n12 more {CHIP}", RECORDS)
    assert default_direction(composer) == LTR
    assert directions(composer.document()) == automatic(composer) == [LTR, LTR, LTR]
    assert laid_out(composer) == [LTR, LTR, LTR]


def test_a_loaded_draft_with_right_to_left_text_runs_each_paragraph_its_own_way(composer):
    composer.set_markdown(f"{CHIP} مرحبا بالعالم\nplain words\n\nשלום {CHIP} again", RECORDS)
    assert default_direction(composer) == AUTO
    assert directions(composer.document()) == automatic(composer) == [RTL, LTR, LTR, RTL]
    assert laid_out(composer) == [RTL, LTR, LTR, RTL]
    composer.set_markdown("left to right again", [])
    assert default_direction(composer) == LTR


def test_typing_right_to_left_hands_directions_back_to_qt(composer, qtbot):
    composer.set_markdown("", [])
    qtbot.keyClicks(composer, "12 ")
    assert default_direction(composer) == LTR
    type_text(composer, "مرحبا")
    assert default_direction(composer) == AUTO
    assert directions(composer.document()) == [RTL]
    qtbot.keyClick(composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(composer, "hi")
    assert laid_out(composer) == automatic(composer) == [RTL, LTR]
    qtbot.keySequence(composer, QKeySequence.StandardKey.SelectAll)
    qtbot.keyClick(composer, Qt.Key.Key_Delete)
    qtbot.keySequence(composer, QKeySequence.StandardKey.Undo)  # Qt's own undo path
    assert composer.document().toRawText() == "12 مرحبا\u2029hi"
    assert laid_out(composer) == automatic(composer) == [RTL, LTR]


def test_undo_bringing_right_to_left_text_back_hands_directions_back_to_qt(composer):
    composer.set_markdown("שלום", [])
    cursor = composer.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    cursor.insertText("plain")
    composer.set_markdown(composer.markdown(), [])  # a left-to-right draft, history cleared
    composer.textCursor().insertText(" שלום")
    assert default_direction(composer) == AUTO
    composer.document().undo()
    composer.document().redo()
    assert laid_out(composer) == automatic(composer) == [LTR]
    composer.document().undo()
    assert composer.document().toRawText() == "plain"


OPERATION = st.tuples(
    st.sampled_from(["type", "chip", "delete", "delete-range", "undo", "redo", "paste", "load"]),
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=0, max_value=40),
    st.sampled_from(["a", "مر", "שׁ ", "12 ", "\n", "x\nשלום", "\n\u05d0b", " . ", "é漢"]),
)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(start=st.sampled_from(["hello\nworld", "שלום\nhello\n1 مرحبا"]),
       operations=st.lists(OPERATION, max_size=25))
@example(start="hello\nworld", operations=[("type", 5, 0, "x\nשלום"), ("undo", 0, 0, "a"),
                                            ("redo", 0, 0, "a")])
def test_directions_equal_qts_automatic_ones_after_any_edits(composer, start, operations):
    composer.set_markdown(start, RECORDS)
    for op, where, length, text in operations:
        cursor = composer.textCursor()
        size = composer.document().characterCount() - 1
        cursor.setPosition(where % (size + 1))
        composer.setTextCursor(cursor)
        if op == "type":
            cursor.insertText(text, composer.base_format)
        elif op == "chip":
            composer.insert_context(RECORDS[where % len(RECORDS)])
        elif op == "delete":
            cursor.deletePreviousChar()
        elif op == "delete-range":
            end = min(size, cursor.position() + length)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
        elif op == "undo":
            composer.document().undo()
        elif op == "redo":
            composer.document().redo()
        elif op == "load":
            composer.set_markdown(composer.markdown() + text, RECORDS)
        else:
            composer.insert_markdown(f"{text}{composer.markdown()[:length]}\nend")
        assert laid_out(composer) == automatic(composer)
