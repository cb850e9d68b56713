"""The commit notification's payload: the range, the unused numbers and as many committed events
as fit in PostgreSQL's limit, read back exactly."""

from __future__ import annotations

from composer_app.server.store.base import StoredEvent
from composer_app.server.store.commit_notification import (
    LIMIT,
    announced_events,
    announced_first,
    announced_range,
    announced_unused,
    payload,
)


def _event(sequence: int, text: str = "hi") -> StoredEvent:
    return StoredEvent(sequence, f"evt_{sequence}", "thr_a", "thread.message-sent",
                       "2026-12-02T10:00:00.000Z", None if sequence % 2 else f"cmd_{sequence}",
                       {"message": {"text": text, "attachments": []}, "n": 1.5}, "u1")


def test_a_payload_names_its_range_its_unused_numbers_and_carries_its_events() -> None:
    events = [_event(9, "é ' \" \\ \n \x00 \u2028"), _event(7)]
    text = payload([7, 8, 9], events)
    assert text is not None and text.startswith("7-9;8\n")
    assert announced_range(text) == 9 and announced_unused(text) == [8]
    assert announced_first(text) == 7 and announced_first("12") == 12
    assert announced_events(text) == sorted(events, key=lambda e: e.sequence)
    assert payload([], []) is None


def test_older_payloads_and_malformed_parts_read_as_nothing() -> None:
    assert announced_range("7-9") == 9 and announced_unused("7-9") == []
    assert announced_range("7-9;8") == 9 and announced_unused("7-9;8") == [8]
    assert announced_range("12") == 12 and announced_unused("12;x") == []
    assert announced_events("7-9;8") == []
    assert announced_range("nonsense") is None and announced_first("x-9") is None
    assert announced_events("7-9\n[1, 2") == [] and announced_events("7-9\n[[1]]") == []


def test_events_that_do_not_fit_are_left_to_the_log() -> None:
    big = [_event(n, "x" * 3000) for n in range(10, 14)]
    text = payload([n for n in range(10, 14)], big)
    assert text is not None and len(text.encode("utf-8")) <= LIMIT
    carried = announced_events(text)
    assert carried == big[:len(carried)] and 0 < len(carried) < len(big)
    wide = [_event(20, "é" * 4100)]  # 4100 characters, 8200 bytes
    text = payload([20], wide)
    assert text == "20-20" and announced_events(text) == []
    assert payload([30], [_event(30, "\udc80")]) == "30-30"  # not valid text: read from the log
