"""Send and reconnect schedules."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from email.utils import format_datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.sync.backoff import (
    OFFLINE_AFTER_FAILURES,
    ReconnectBackoff,
    budget_exhausted,
    is_retryable_status,
    parse_retry_after,
    send_delay,
)


@pytest.mark.parametrize(("attempt", "cap"), [(1, 1), (2, 2), (3, 4), (6, 32), (7, 60), (40, 60)])
def test_send_delay_doubles_from_one_second_to_sixty_with_jitter(attempt: int, cap: float) -> None:
    rng = random.Random(7)
    delays = [send_delay(attempt, rng) for _ in range(200)]
    assert all(cap / 2 <= d <= cap for d in delays)
    assert max(delays) - min(delays) > cap / 10  # jitter is real


@given(st.integers(1, 100), st.floats(0, 3600), st.integers(0, 2**32))
def test_retry_after_is_a_floor(attempt: int, retry_after: float, seed: int) -> None:
    assert send_delay(attempt, random.Random(seed), retry_after) >= retry_after


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    now = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC).timestamp()
    assert parse_retry_after("7", now) == 7.0
    later = format_datetime(datetime(2026, 11, 30, 12, 0, 30, tzinfo=UTC), usegmt=True)
    assert parse_retry_after(later, now) == pytest.approx(30.0)
    earlier = format_datetime(datetime(2026, 11, 30, 11, 0, 0, tzinfo=UTC), usegmt=True)
    assert parse_retry_after(earlier, now) == 0.0
    assert parse_retry_after(None, now) is None
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after("", now) is None


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504, 599])
def test_retryable_statuses(status: int) -> None:
    assert is_retryable_status(status)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 410, 413, 422])
def test_other_client_errors_are_final(status: int) -> None:
    assert not is_retryable_status(status)


def test_budget_is_five_minutes_from_the_first_attempt() -> None:
    assert not budget_exhausted(1000.0, 1300.0)
    assert budget_exhausted(1000.0, 1300.5)


def test_reconnect_doubles_to_64_seconds_and_goes_offline_after_seven_failures() -> None:
    backoff = ReconnectBackoff(random.Random(3))
    caps = [1, 2, 4, 8, 16, 32, 64, 64, 64]
    for n, cap in enumerate(caps, start=1):
        delay = backoff.next_delay()
        assert cap / 2 <= delay <= cap
        assert backoff.offline == (n >= OFFLINE_AFTER_FAILURES)
    backoff.reset()
    assert not backoff.offline
    assert backoff.next_delay() <= 1
