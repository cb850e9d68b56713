"""Row layouts: one document position per chip, cached layouts, estimates replaced by exact."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from composer_app.ui.transcript.presentation import default_registry
from composer_app.ui.transcript.render import RowRenderer
from composer_app.ui.transcript.samples import chip_message, sourced_message
from composer_app.ui.transcript.transcript_logic import message_from_wire


def test_every_chip_takes_one_document_position(qtbot: QtBot) -> None:
    renderer = RowRenderer(default_registry())
    message = message_from_wire(chip_message())
    layout = renderer.layout(message, 700)
    segments = message.segments()
    for segment, (start, end) in zip(segments, layout.spans, strict=True):
        if segment.kind is not None:
            assert end - start == 1
        else:
            assert end - start == segment.end - segment.start
    gallery = layout.doc.toPlainText()[layout.spans[-1][1] :]
    assert gallery == "\nAttached \ufffc"  # a new line holding the gallery's one image


def test_gallery_shows_every_image_and_only_unreferenced_files(qtbot: QtBot) -> None:
    wire = chip_message()
    wire["text"] = "just words"
    message = message_from_wire(wire)
    assert [(s.kind, s.context_id) for s in message.gallery()] == [
        ("image", "ctx_img"),
        ("file", "ctx_file"),
    ]
    layout = RowRenderer(default_registry()).layout(message, 700)
    assert {"chip:ctx_img", "chip:ctx_file"} <= set(layout.tooltips)
    assert message.chip("ctx_file") is not None and message.chip("ctx_term") is None


def test_layouts_are_cached_and_heights_become_exact(qtbot: QtBot) -> None:
    renderer = RowRenderer(default_registry())
    message = message_from_wire(sourced_message())
    estimate, exact = renderer.height(message, 600)
    assert not exact and estimate > 0
    first = renderer.layout(message, 600)
    assert renderer.layout(message, 600) is first and renderer.layout_count == 1
    assert renderer.height(message, 600) == (first.height, True)
    message.touch()
    assert renderer.height(message, 600) == (first.height, False)  # kept until laid out again
    assert renderer.layout(message, 600) is not first


def test_token_images_and_labels_reach_the_document(qtbot: QtBot) -> None:
    renderer = RowRenderer(default_registry())
    layout = renderer.layout(message_from_wire(sourced_message()), 600, active="src_2")
    html = layout.doc.toHtml()
    assert html.count("token:") == 2 and "General knowledge" in html
    assert layout.doc.toPlainText().startswith("Source-backed")
