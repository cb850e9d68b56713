from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QImage, QPainter, QTextCharFormat, QTextCursor, QTextFormat

from composer_app.core.codecs.references import format_reference
from composer_app.core.document.model import RecordState
from composer_app.ui.composer.chips import (
    CHIP_OBJECT_TYPE,
    KIND,
    REFERENCE_ID,
    ChipRenderer,
    chip_extent,
    chip_format,
    is_chip,
    line_minimum,
    new_reference_ids,
)
from composer_app.ui.composer.document_bridge import chip_occurrences, read_segments
from tests.core.document import sample_records as rec


def test_chip_format_carries_ids_and_a_fresh_reference_id():
    a = chip_format("file", "file_f1", "notes.txt", QTextCharFormat())
    b = chip_format("file", "file_f1", "notes.txt", QTextCharFormat())
    assert is_chip(a) and a.objectType() == CHIP_OBJECT_TYPE
    assert a.property(KIND) == "file"
    assert a.property(REFERENCE_ID).startswith("ref_") and len(a.property(REFERENCE_ID)) == 36
    assert a.property(REFERENCE_ID) != b.property(REFERENCE_ID)


def test_lines_are_tall_enough_for_chips(qapp):
    font = QFont()
    font.setPixelSize(15)
    above, below = chip_extent(font)
    assert above + below <= line_minimum(font)


def test_renderer_never_raises(composer):
    def broken(*_args):
        raise RuntimeError("boom")

    renderer = ChipRenderer(broken, broken, broken, composer)
    image = QImage(50, 20, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        renderer.drawObject(painter, QRectF(0, 0, 40, 16), None, 0, QTextFormat())
    finally:
        painter.end()
    assert renderer.paint_count == 1
    size = renderer.intrinsicSize(None, 0, QTextFormat())
    assert size.width() > 0


def test_font_change_keeps_chips(composer):
    composer.set_markdown("[x](t3-context://v1/mention/mention_m1) y", [rec.mention()])
    font = QFont()
    font.setPixelSize(22)
    composer.setFont(font)
    assert composer.markdown() == "[x](t3-context://v1/mention/mention_m1) y"
    assert len(chip_occurrences(composer.document())) == 1
    assert read_segments(composer.document(), 1)[0] == " y"


def test_reference_ids_made_in_a_batch_are_fresh_and_well_formed():
    ids = new_reference_ids(500)
    assert len(set(ids)) == 500
    assert all(i.startswith("ref_") and len(i) == 36 and int(i[4:], 16) >= 0 for i in ids)
    assert new_reference_ids(0) == []


def test_a_chip_is_repainted_with_its_new_look(composer):
    record = rec.file()
    composer.set_markdown(format_reference(record.kind, record.context_id, record.label) + " x",
                          [record])
    resolved = composer.viewport().grab().toImage()
    composer.set_record_state(record.context_id, RecordState.UNRESOLVED)
    unresolved = composer.viewport().grab().toImage()
    assert unresolved != resolved  # the picture painted before was not reused
    composer.set_record_state(record.context_id, RecordState.RESOLVED)
    assert composer.viewport().grab().toImage() == resolved


def test_a_chip_that_moves_keeps_its_own_size(composer):
    short = rec.file(name="a")
    long = rec.file("file_f2", "a rather long file name for a chip.txt")
    composer.set_markdown(" ".join(format_reference(r.kind, r.context_id, r.label)
                                   for r in (short, long)), [short, long])

    def width_at(pos):
        cursor = QTextCursor(composer.document())
        cursor.setPosition(pos)
        left = composer.cursorRect(cursor).left()
        cursor.setPosition(pos + 1)
        return composer.cursorRect(cursor).left() - left

    short_width, long_width = width_at(0), width_at(2)
    assert long_width > short_width
    cursor = QTextCursor(composer.document())
    cursor.setPosition(0)
    cursor.setPosition(2, QTextCursor.MoveMode.KeepAnchor)
    cursor.removeSelectedText()  # the long chip moves to where the short one was measured
    assert width_at(0) == long_width
    cursor.insertText("x ")  # and back
    assert width_at(2) == long_width and composer.document().characterAt(2) == "\ufffc"
