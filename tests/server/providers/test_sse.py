"""Server-sent event decoding."""

from __future__ import annotations

from composer_app.server.providers.sse import SseDecoder


def test_events_end_at_blank_lines_and_join_data_lines():
    decoder = SseDecoder()
    out: list[str] = []
    for line in [": comment", "event: message", "data: {\"a\":", "data:1}", "id: 7", "",
                 "data: [DONE]", ""]:
        out += decoder.feed(line)
    assert out == ['{"a":\n1}', "[DONE]"]


def test_open_event_is_dispatched_at_close_and_empty_events_are_dropped():
    decoder = SseDecoder()
    assert decoder.feed("") == [] and decoder.feed("retry: 10") == []
    assert decoder.feed("data: tail\r") == []
    assert decoder.close() == ["tail"]
    assert decoder.close() == []
