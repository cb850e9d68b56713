"""TranscriptView: chips, tokens, popovers, media, links, copy and streaming (pytest-qt)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from composer_app.core.codecs.clipboard import decode_fragment
from composer_app.core.contracts.clipboard import CLIPBOARD_MIME
from composer_app.ui.transcript.markdown_logic import STREAMING_CARET
from composer_app.ui.transcript.view import TranscriptView
from tests.ui.transcript.conftest import view_of


def _anchor_point(view: TranscriptView, row: int, href: str) -> QPoint:
    """The viewport point of the first document position carrying ``href``."""
    message = view.message_at(row)
    assert message is not None
    layout = view.layout_for(message)
    rect = view.visualRect(view.model().index(row, 0))
    doc = layout.doc
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                line = block.layout().lineForTextPosition(fragment.position() - block.position())
                x = line.cursorToX(fragment.position() - block.position())[0]
                top = doc.documentLayout().blockBoundingRect(block).top() + line.y()
                point = QPointF(
                    rect.left() + layout.x + x + 3, rect.top() + layout.y + top + line.height() / 2
                )
                return point.toPoint()
            it += 1
        block = block.next()
    raise AssertionError(f"{href} not rendered")


def _click(qtbot: QtBot, view: TranscriptView, point: QPoint) -> None:
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_chips_render_for_every_reference(window: QMainWindow) -> None:
    view = view_of(window)
    layout = view.layout_for(view.message_at(0))  # type: ignore[arg-type]
    assert set(layout.tooltips) >= {
        "chip:ctx_term",
        "chip:ctx_pr",
        "chip:ctx_sketch",
        "chip:ctx_gone",
    }
    assert "Context unavailable" in layout.tooltips["chip:ctx_sketch"]
    assert "Context unavailable" in layout.tooltips["chip:ctx_gone"]
    assert "Trim travel budget rows" in layout.tooltips["chip:ctx_pr"]
    assert "\ufffc" not in view.message_at(0).resolved()[0]  # type: ignore[union-attr]


def test_hit_testing_finds_chips_tokens_and_actions(window: QMainWindow) -> None:
    view = view_of(window)
    assert view.hit(_anchor_point(view, 0, "chip:ctx_term"))[1:3] == ("chip", "ctx_term")
    assert view.hit(_anchor_point(view, 1, "cite:src_2"))[1:3] == ("cite", "src_2")


def test_terminal_element_review_and_preview_chips_open_popovers(
    window: QMainWindow, qtbot: QtBot
) -> None:
    view = view_of(window)
    message = view.message_at(0)
    assert message is not None
    for context_id, needle in (
        ("ctx_term", "unresolved import"),
        ("ctx_el", "<button"),
        ("ctx_rev", "Use the Q3 figure"),
        ("ctx_note", "Make this wider"),
    ):
        with qtbot.waitSignal(view.chip_activated) as blocker:
            _click(qtbot, view, _anchor_point(view, 0, f"chip:{context_id}"))
        assert blocker.args == ["u1", context_id, "popover"]
        assert view.popover is not None and view.popover.body is not None
        assert needle in view.popover.body.toPlainText()
        view.popover.close()


def test_pull_request_chip_opens_its_url(window: QMainWindow, qtbot: QtBot) -> None:
    view = view_of(window)
    opened: list[str] = []
    view.url_opener = opened.append
    _click(qtbot, view, _anchor_point(view, 0, "chip:ctx_pr"))
    assert opened == ["https://github.com/acme/budget/pull/42"]


def test_image_opens_the_media_viewer_and_files_go_to_the_asset_callback(
    window: QMainWindow,
) -> None:
    view = view_of(window)
    message = view.message_at(0)
    assert message is not None
    assets: list[Any] = []
    view.asset_opener = assets.append
    view.media_loader = lambda record: None
    assert view.activate_chip(message, "ctx_img") == "media"
    assert view.media_viewer is not None and not view.media_viewer.loaded
    view.media_viewer.close()
    assert view.activate_chip(message, "ctx_file") == "asset"
    assert [r.name for r in assets] == ["budget.csv"]
    assert view.activate_chip(message, "ctx_gone") == "popover"  # unresolved: explains, no fetch


def test_public_threads_have_no_file_controls(window: QMainWindow) -> None:
    view = view_of(window)
    view.transcript_model().set_public(True)
    assets: list[Any] = []
    view.asset_opener = assets.append
    message = view.message_at(0)
    assert message is not None
    assert view.activate_chip(message, "ctx_file") == "none"
    assert view.activate_chip(message, "ctx_img") == "media"
    assert view.media_viewer is not None and view.media_viewer.open_button is None
    assert assets == []


def test_sources_action_and_tokens(window: QMainWindow, qtbot: QtBot) -> None:
    view = view_of(window)
    with qtbot.waitSignal(view.citation_activated) as blocker:
        _click(qtbot, view, _anchor_point(view, 1, "cite:src_1"))
    assert blocker.args == ["a1", "src_1"]
    assert view.active_source("a1") == "src_1"
    with qtbot.waitSignal(view.sources_requested) as blocker:
        view.activate(1, "action", "sources")
    assert blocker.args == ["a1"]


def test_unsafe_markdown_links_are_not_opened(window: QMainWindow) -> None:
    view = view_of(window)
    opened: list[str] = []
    view.url_opener = opened.append
    view.activate(1, "link", "javascript:alert(1)")
    view.activate(1, "link", "https://example.org/x")
    assert opened == ["https://example.org/x"]


def test_whole_message_copy_writes_markdown_fragment_and_carrier(window: QMainWindow) -> None:
    view = view_of(window)
    payload = view.copy_message("u1")
    assert payload is not None
    mime = QGuiApplication.clipboard().mimeData()
    assert mime.text() == view.message_at(0).resolved()[0]  # type: ignore[union-attr]
    fragment = decode_fragment(bytes(mime.data(CLIPBOARD_MIME).data()))
    assert fragment is not None and len(fragment.records) == 10
    assert "data-t3-context-fragment" in mime.html()
    answer = view.copy_message("a1")
    assert answer == {"text/plain": view.message_at(1).text}  # type: ignore[union-attr]


def test_selection_copy_re_emits_chip_links(window: QMainWindow) -> None:
    view = view_of(window)
    message = view.message_at(0)
    assert message is not None
    layout = view.layout_for(message)
    start, end = layout.spans[0][0] + 4, layout.spans[1][1]  # "does " + the terminal chip
    view.select_text(0, start, end)
    payload = view.copy_selection()
    assert payload is not None
    assert payload["text/plain"] == "does [build L12-14](t3-context://v1/terminal/ctx_term)"
    fragment = decode_fragment(payload[CLIPBOARD_MIME])
    assert fragment is not None and [r.context_id for r in fragment.records] == ["ctx_term"]


def test_streaming_deltas_append_without_reflowing_earlier_text(qtbot: QtBot) -> None:
    view = TranscriptView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    model = view.transcript_model()
    base = {"type": "thread.assistant.delta", "threadId": "t"}
    model.apply_event(
        base
        | {"payload": {"messageId": "a", "turnId": "u", "textDelta": "First paragraph.\n\nSec"}}
    )
    first = view.layout_for(view.message_at(0)).doc.toPlainText()  # type: ignore[arg-type]
    model.apply_event(
        base | {"payload": {"messageId": "a", "turnId": "u", "textDelta": "ond *paragraph*"}}
    )
    second = view.layout_for(view.message_at(0)).doc.toPlainText()  # type: ignore[arg-type]
    assert first.endswith(STREAMING_CARET) and second.endswith(STREAMING_CARET)
    assert second.startswith(first.removesuffix(STREAMING_CARET))
    assert view.message_at(0).sources_action() is None  # type: ignore[union-attr]
    assert model.rowCount() == 1
    model.apply_event({"type": "thread.assistant.completed", "threadId": "t", "payload": {
        "messageId": "a", "text": "First paragraph.\n\nSecond *paragraph*"}})
    done = view.layout_for(view.message_at(0)).doc.toPlainText()  # type: ignore[arg-type]
    assert STREAMING_CARET not in done


def test_long_threads_estimate_heights_without_laying_out_every_row(qtbot: QtBot) -> None:
    from composer_app.ui.transcript.samples import long_thread

    view = TranscriptView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.transcript_model().load(long_thread(2_000))
    view.show()
    qtbot.waitExposed(view)
    view.grab()
    assert 0 < view.renderer.layout_count < 100
    assert view.verticalScrollBar().value() == view.verticalScrollBar().maximum()


def test_rows_take_their_exact_height_after_the_first_paint(
    window: QMainWindow, qtbot: QtBot
) -> None:
    view = view_of(window)
    view.grab()
    for row in (0, 1):
        message = view.message_at(row)
        assert message is not None
        exact = view.layout_for(message).height
        qtbot.waitUntil(
            lambda r=row, h=exact: view.visualRect(view.model().index(r, 0)).height() == h
        )


def test_a_growing_streamed_answer_grows_its_row(qtbot: QtBot) -> None:
    view = TranscriptView()
    qtbot.addWidget(view)
    view.resize(500, 400)
    view.show()
    qtbot.waitExposed(view)
    model = view.transcript_model()
    model.apply_event(
        {
            "type": "thread.assistant.delta",
            "payload": {"messageId": "a", "turnId": "u", "textDelta": "One line."},
        }
    )
    view.grab()
    short = view.layout_for(view.message_at(0)).height  # type: ignore[arg-type]
    model.apply_event(
        {
            "type": "thread.assistant.delta",
            "payload": {
                "messageId": "a",
                "turnId": "u",
                "textDelta": "\n\nMore.\n\nAnd more.\n\nEnd",
            },
        }
    )
    view.grab()
    tall = view.layout_for(view.message_at(0)).height  # type: ignore[arg-type]
    assert tall > short
    qtbot.waitUntil(lambda: view.visualRect(view.model().index(0, 0)).height() == tall)


def test_an_attachment_without_a_record_opens_from_the_gallery(qtbot: QtBot) -> None:
    view = TranscriptView()
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.transcript_model().load([{
        "messageId": "u_loose", "role": "user", "text": "See attached",
        "attachments": [{"attachmentId": "att_9", "name": "report.pdf",
                         "mimeType": "application/pdf", "sizeBytes": 2048}],
    }])
    view.show()
    qtbot.waitExposed(view)
    message = view.message_at(0)
    assert message is not None
    [item] = message.gallery()
    context_id = item.context_id or ""
    assert f"chip:{context_id}" in view.layout_for(message).tooltips
    assets: list[Any] = []
    view.asset_opener = assets.append
    assert view.activate_chip(message, context_id) == "asset"
    assert [r.attachment_id for r in assets] == ["att_9"]
