"""Per-user request rate limits: a token bucket per user, ``429 rate_limited`` + ``Retry-After``.

Invariants: a user may make ``burst`` requests at once and ``rate`` per second sustained; a refused
request costs nothing and says, in whole seconds rounded up, when the next one will be accepted;
buckets of users idle long enough to have refilled are forgotten, so memory stays bounded by the
users active in the last ``burst / rate`` seconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from composer_app.server.errors import ApiError

_PRUNE_EVERY = 1_000


class RateLimiter:
    """Token buckets keyed by user id (one process; each server process limits on its own)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # user -> (tokens, at)
        self._checks = 0

    def check(self, user_id: str, cost: float = 1.0) -> None:
        """Take ``cost`` tokens of ``user_id``'s bucket or raise ``429 rate_limited``."""
        if self.rate <= 0:
            return
        now = self._clock()
        tokens, at = self._buckets.get(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < cost:
            self._buckets[user_id] = (tokens, now)
            wait = math.ceil((cost - tokens) / self.rate)
            raise ApiError(429, "rate_limited",
                           f"Too many requests; try again in {wait} s.", retryable=True,
                           headers={"Retry-After": str(max(1, wait))})
        self._buckets[user_id] = (tokens - cost, now)
        self._checks += 1
        if self._checks % _PRUNE_EVERY == 0:
            self._prune(now)

    def _prune(self, now: float) -> None:
        full = self.burst / self.rate
        for user_id, (_, at) in list(self._buckets.items()):
            if now - at >= full:
                del self._buckets[user_id]
