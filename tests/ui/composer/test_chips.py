from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QImage, QPainter, QTextCharFormat, QTextFormat

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
