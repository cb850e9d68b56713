"""The Qt-free transcript: resolution, legacy upgrade, streaming and stable numbering."""

from __future__ import annotations

import copy

from hypothesis import given
from hypothesis import strategies as st

from composer_app.ui.transcript.samples import SOURCED_TEXT, chip_message, sourced_message
from composer_app.ui.transcript.transcript_logic import (
    Transcript,
    TranscriptMessage,
    message_from_wire,
    message_to_wire,
    resolve_records,
    selected_source,
    split_segments,
)

LEGACY = (
    "Why is this failing? @build:1-2\n\n<terminal_context>\n- build lines 1-2:\n  1 | error: boom\n"
    "  2 | failed\n</terminal_context>"
)


def test_user_message_with_context_uses_its_records() -> None:
    message = message_from_wire(chip_message())
    text, records = message.resolved()
    assert text == chip_message()["text"]
    assert set(records) >= {"ctx_term", "ctx_pr", "ctx_img"}
    kinds = [s.kind for s in message.segments() if s.kind]
    assert kinds.count("review-comment") == 2 and "sketch" in kinds


def test_message_without_context_is_upgraded_in_memory() -> None:
    message = message_from_wire({"messageId": "m", "role": "user", "text": LEGACY})
    text, records = message.resolved()
    assert message.text == LEGACY  # the stored text is untouched
    assert "<terminal_context>" not in text
    assert [r.kind for r in records.values()] == ["terminal"]
    assert any(s.kind == "terminal" for s in message.segments())


def test_undecodable_context_falls_back_to_the_upgrade() -> None:
    text, records = resolve_records("plain words", {"version": 7})
    assert (text, records) == ("plain words", {})


def test_segments_cover_the_text_exactly() -> None:
    text = chip_message()["text"]
    segments = split_segments(text)
    assert "".join(text[s.start : s.end] for s in segments) == text
    assert segments[0].kind is None and segments[1].kind == "terminal"


def test_an_exclamation_mark_before_a_file_link_is_shown_as_text() -> None:
    text = "done![notes](t3-context://v1/file/file_f1)"
    segments = split_segments(text)
    assert [(s.start, s.end, s.kind) for s in segments] == [(0, 5, None), (5, len(text), "file")]


def test_selection_copies_chips_whole_and_text_cut() -> None:
    text = "see [a.ts L4](t3-context://v1/review-comment/ctx_1) now"
    segments = split_segments(text)
    spans = [(0, 4), (4, 5), (5, 9)]  # "see ", one chip position, " now"
    assert (
        selected_source(segments, text, spans, 2, 5)
        == "e [a.ts L4](t3-context://v1/review-comment/ctx_1)"
    )
    assert selected_source(segments, text, spans, 5, 8) == " no"


def test_streaming_appends_and_completion_replaces() -> None:
    transcript = Transcript()
    first = transcript.apply_event(
        {
            "type": "thread.assistant.delta",
            "threadId": "t",
            "payload": {"messageId": "a", "turnId": "u", "textDelta": "Hello"},
        }
    )
    assert first.kind == "inserted" and transcript.messages[0].streaming
    revision = transcript.messages[0].revision
    transcript.append_delta("a", " world")
    assert transcript.messages[0].text == "Hello world"
    assert transcript.messages[0].revision > revision
    done = transcript.complete("a", "Hello world!", None, None)
    assert done.kind == "changed" and transcript.messages[0].streaming is False
    assert transcript.messages[0].text == "Hello world!"


def test_message_sent_event_adds_the_user_row_once() -> None:
    transcript = Transcript()
    event = {"type": "thread.message-sent", "payload": {"message": chip_message("u1")}}
    assert transcript.apply_event(event).kind == "inserted"
    assert transcript.apply_event(event).kind == "changed"
    assert len(transcript) == 1
    assert transcript.apply_event({"type": "thread.turn-started", "payload": {}}).row == -1


def test_numbers_are_stable_across_streaming_snapshots() -> None:
    message = TranscriptMessage(
        "a", "assistant", "", streaming=True, sources=sourced_message()["sources"]
    )
    seen: dict[str, int] = {}
    for cut in range(0, len(SOURCED_TEXT) + 1, 7):
        message.text = SOURCED_TEXT[:cut]
        message.touch()
        numbers = dict(message.answer().numbers)
        assert all(numbers[k] == v for k, v in seen.items())
        seen = numbers
    message.streaming = False
    message.touch()
    assert message.answer().numbers == {"src_1": 1, "src_2": 2}


def test_tokens_only_for_closed_blocks_while_streaming() -> None:
    wire = sourced_message()
    message = message_from_wire(wire | {"isStreaming": True})
    message.text = "## Q3 travel budget\n\nThe Q3 travel budget is $48,000"
    assert message.answer().tokens == {}
    message.text += ", down 12% from Q2.\n\nFinance"
    message.touch()
    assert message.answer().tokens == {1: [(1, "src_1")]}
    assert message.sources_action() is None  # no action while streaming


def test_sourced_answer_has_tokens_labels_and_action() -> None:
    message = message_from_wire(sourced_message())
    answer = message.answer()
    assert answer.tokens == {1: [(1, "src_1")], 2: [(2, "src_2")]}
    assert answer.labels == {0: "Source-backed", 3: "General knowledge"}
    assert answer.blocks_of("src_2") == [2]
    assert message.sources_action() == "Sources · 2 used · 1 checked · 1 listed"


def test_no_sources_means_no_action() -> None:
    wire = sourced_message()
    del wire["sources"]
    assert message_from_wire(wire).sources_action() is None


def test_to_wire_keeps_sources_for_sharing_and_canonical_user_text() -> None:
    wire = message_to_wire(message_from_wire(copy.deepcopy(sourced_message())))
    assert wire["sources"]["entries"][0]["id"] == "src_1"
    legacy = message_to_wire(message_from_wire({"messageId": "m", "role": "user", "text": LEGACY}))
    assert "<terminal_context>" not in legacy["text"]


_PIECES = st.lists(
    st.one_of(
        st.text(alphabet=st.characters(blacklist_characters="[]()\\"), max_size=8),
        st.sampled_from(
            [
                "[a.ts L4](t3-context://v1/review-comment/ctx_1)",
                "![x.png](t3-context://v1/image/ctx_2)",
            ]
        ),
    ),
    max_size=8,
)


@given(_PIECES, st.integers(0, 80), st.integers(0, 80))
def test_segments_and_selection_round_trip(pieces: list[str], a: int, b: int) -> None:
    text = "".join(pieces)
    segments = split_segments(text)
    assert "".join(text[s.start : s.end] for s in segments) == text
    spans, position = [], 0
    for segment in segments:
        width = 1 if segment.kind else segment.end - segment.start
        spans.append((position, position + width))
        position += width
    assert selected_source(segments, text, spans, 0, position) == text
    start, end = sorted((min(a, position), min(b, position)))
    chosen = selected_source(segments, text, spans, start, end)
    assert chosen in text


def test_attachments_without_a_record_are_shown_in_the_gallery() -> None:
    message = message_from_wire({
        "messageId": "m_att", "role": "user", "text": "Here are the files",
        "attachments": [
            {"attachmentId": "att_a", "name": "notes.txt", "mimeType": "text/plain",
             "sizeBytes": 12},
            {"attachmentId": "att_b", "name": "photo.png", "mimeType": "image/png",
             "sizeBytes": 99},
            {"attachmentId": "bad id!", "name": "x", "mimeType": "text/plain", "sizeBytes": 1},
            "not a ref",
        ],
    })
    gallery = message.gallery()
    assert [(s.kind, s.label) for s in gallery] == [("file", "notes.txt"), ("image", "photo.png")]
    record = message.record(gallery[0].context_id or "")
    assert record is not None and getattr(record, "attachment_id", None) == "att_a"
    assert message.resolved()[1] == {}  # canonical records (and so copies) are unchanged


def test_attachments_bound_by_a_record_are_not_shown_twice() -> None:
    wire = chip_message("u_bound")
    wire["attachments"] = [
        {"attachmentId": "att_img", "name": "chart.png", "mimeType": "image/png", "sizeBytes": 1},
        {"attachmentId": "att_extra", "name": "extra.csv", "mimeType": "text/csv",
         "sizeBytes": 3},
    ]
    message = message_from_wire(wire)
    labels = [s.label for s in message.gallery()]
    assert labels.count("chart.png") == 1
    assert labels[-1] == "extra.csv"


def test_delivery_status_names_queued_and_failed_messages_with_a_reason() -> None:
    from composer_app.ui.transcript.transcript_logic import delivery_status, reason_text

    assert delivery_status(None, "") is None
    assert delivery_status("sending", "") == ("queued", "Sending…")
    assert delivery_status("blocked", "") == ("queued", "Waiting for an earlier message…")
    assert delivery_status("sending", "HTTP 503") == ("queued", "Waiting to retry: HTTP 503")
    assert delivery_status("unsent", "unknown_attachment") == (
        "failed", "Not sent: an attached file is no longer on the server")
    assert delivery_status("unsent", "") == ("failed", "Not sent: the server did not accept it")
    assert reason_text("HTTP 413 too_large") == (
        "the message or a file is too large for the server")
    assert reason_text("  notes.txt is\n missing ") == "notes.txt is missing"
