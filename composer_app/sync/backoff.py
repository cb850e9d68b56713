"""Retry schedules for the outbox and the socket.

Invariants: every delay is finite and non-negative; a server's ``Retry-After`` is a floor, never
a ceiling; the outbox gives up only after ``SEND_BUDGET_SECONDS`` measured from the first attempt;
the socket never gives up (after ``OFFLINE_AFTER_FAILURES`` failures it reports *offline* and keeps
trying every ``RECONNECT_MAX_SECONDS``).
"""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass, field

SEND_BASE_SECONDS = 1.0
SEND_MAX_SECONDS = 60.0
SEND_BUDGET_SECONDS = 300.0
RECONNECT_BASE_SECONDS = 1.0
RECONNECT_MAX_SECONDS = 64.0
OFFLINE_AFTER_FAILURES = 7
RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


def is_retryable_status(status: int) -> bool:
    """True for 408, 429 and every 5xx: the send may be repeated with the same command id."""
    return status in RETRYABLE_STATUSES or 500 <= status <= 599


def parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or HTTP date), or None.

    ``now`` is the current POSIX time, used for the HTTP-date form. A date in the past gives 0.
    """
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    if text.isdigit():
        return float(int(text))
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if moment is None or moment.tzinfo is None:
        return None
    return max(0.0, moment.timestamp() - now)


def send_delay(attempt: int, rng: random.Random, retry_after: float | None = None) -> float:
    """Delay before retry number ``attempt`` (1 = after the first failure).

    ``d = min(60, 1 * 2**(attempt-1))``, jittered uniformly in ``[d/2, d]``, and at least
    ``retry_after`` when the server sent one.
    """
    exponent = max(0, attempt - 1)
    d = SEND_MAX_SECONDS if exponent >= 6 else SEND_BASE_SECONDS * 2**exponent
    d = min(SEND_MAX_SECONDS, d)
    delay = rng.uniform(d / 2, d)
    if retry_after is not None:
        delay = max(delay, retry_after)
    return delay


def budget_exhausted(first_attempt_at: float, at: float) -> bool:
    """True when a retry scheduled for ``at`` would fall outside the send budget."""
    return at - first_attempt_at > SEND_BUDGET_SECONDS


@dataclass
class ReconnectBackoff:
    """Socket reconnect schedule: 1 s doubling to 64 s with jitter, forever.

    ``failures`` counts consecutive failed attempts; ``reset()`` after a successful connect.
    """

    rng: random.Random = field(default_factory=random.Random)
    failures: int = 0

    def next_delay(self) -> float:
        """Record one more failure and return the jittered delay before the next attempt."""
        self.failures += 1
        exponent = min(self.failures - 1, 6)
        d = min(RECONNECT_MAX_SECONDS, RECONNECT_BASE_SECONDS * 2**exponent)
        return self.rng.uniform(d / 2, d)

    @property
    def offline(self) -> bool:
        """True once ``OFFLINE_AFTER_FAILURES`` consecutive attempts have failed."""
        return self.failures >= OFFLINE_AFTER_FAILURES

    def reset(self) -> None:
        """Forget past failures (after a successful connect)."""
        self.failures = 0


class Clock:
    """Wall time for schedules. Tests substitute a clock they advance by hand."""

    def now(self) -> float:
        """POSIX seconds."""
        return time.time()

    def timeout_until(self, deadline: float) -> float | None:
        """How long to wait for ``deadline`` (None: wait only for an explicit wake-up)."""
        return max(0.0, deadline - self.now())
