"""Per-user rate limits: 429 rate_limited with Retry-After; other users are not affected."""

from __future__ import annotations

from pathlib import Path

import pytest

from composer_app.server.errors import ApiError
from composer_app.server.rate_limit import RateLimiter
from tests.server.harness import create_thread, harness, tid


def test_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    limiter = RateLimiter(2.0, 3, clock=lambda: now[0])
    for _ in range(3):
        limiter.check("u")
    with pytest.raises(ApiError) as refused:
        limiter.check("u")
    assert refused.value.status == 429 and refused.value.headers["Retry-After"] == "1"
    limiter.check("v")  # another user has a bucket of their own
    now[0] += 0.5
    limiter.check("u")


def test_a_user_over_the_limit_gets_429_with_retry_after(tmp_path: Path) -> None:
    with harness(tmp_path, rate_limit_per_second=0.5, rate_limit_burst=3) as h:
        answers = [h.command(h.alice, create_thread(tid())) for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        error = answers[-1].json()["error"]
        assert error == {"code": "rate_limited", "message": error["message"], "retryable": True}
        assert int(answers[-1].headers["retry-after"]) >= 1
        assert h.client.get("/api/threads", headers=h.alice2).status_code == 429  # same user
        assert h.command(h.bob, create_thread(tid())).status_code == 200
