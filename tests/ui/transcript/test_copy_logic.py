"""Copy payloads: canonical Markdown always, fragment and carrier only with referenced records."""

from __future__ import annotations

from composer_app.core.codecs.clipboard import decode_clipboard_html, decode_fragment
from composer_app.core.contracts.clipboard import CLIPBOARD_MIME
from composer_app.ui.transcript.copy_logic import (
    clipboard_payload,
    estimate_lines,
    fragment_source,
    plain_selection,
)
from composer_app.ui.transcript.samples import chip_message
from composer_app.ui.transcript.transcript_logic import message_from_wire

SOURCE = fragment_source("env-1", "thr_1", "msg_1")


def test_prose_only_selection_writes_text_only() -> None:
    records = message_from_wire(chip_message()).resolved()[1]
    assert clipboard_payload("Why does", records, SOURCE) == {"text/plain": "Why does"}


def test_chip_selection_carries_only_referenced_records() -> None:
    records = message_from_wire(chip_message()).resolved()[1]
    text = "x [build L12-14](t3-context://v1/terminal/ctx_term) y"
    payload = clipboard_payload(text, records, SOURCE)
    assert payload["text/plain"] == text
    fragment = decode_fragment(payload[CLIPBOARD_MIME])
    assert fragment is not None and [r.context_id for r in fragment.records] == ["ctx_term"]
    carried = decode_clipboard_html(payload["text/html"])
    assert carried is not None and carried.source.message_id == "msg_1"


def test_plain_selection_drops_object_characters() -> None:
    assert plain_selection("a\ufffc b\u2029c") == "a b\nc"


def test_estimate_counts_wrapped_lines() -> None:
    assert estimate_lines("a" * 25 + "\n\nb", 10) == 5
