"""The socket: resume by replay or snapshot, reconnect states, refused tokens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.sync.conftest import WAIT, LoopbackServer, ManualClock, free_port


def _texts(engine: Any, thread_id: str) -> list[str]:
    return [m.text for m in engine.messages(thread_id).result(WAIT) if m.role == "user"]


def test_resume_past_the_replay_limit_uses_a_snapshot(tmp_path: Path, make_engine: Any) -> None:
    server = LoopbackServer(tmp_path / "srv", replay_limit=3).start()
    try:
        token = server.token()
        engine, rec = make_engine(server.base_url, token)
        thread_id = engine.create_thread().result(WAIT)
        engine.send_message(thread_id, "one").result(WAIT)
        rec.wait(lambda: _texts(engine, thread_id) == ["one"]
                 and not engine.outbox_items().result(WAIT))
        engine.stop()
        other, other_rec = make_engine(server.base_url, server.token("ada", "phone"), "phone")
        for text in ("two", "three", "four"):  # far more than 3 events with the replies
            other.send_message(thread_id, text).result(WAIT)
        other_rec.wait(lambda: _texts(other, thread_id) == ["one", "two", "three", "four"])
        again, rec2 = make_engine(server.base_url, token)
        rec2.wait(lambda: _texts(again, thread_id) == ["one", "two", "three", "four"])
        rows = again.messages(thread_id).result(WAIT)
        assert len({m.message_id for m in rows}) == len(rows)
    finally:
        server.stop()


def test_reconnect_backoff_reports_reconnecting_then_offline(tmp_path: Path,
                                                            make_engine: Any) -> None:
    clock = ManualClock()
    engine, rec = make_engine(f"http://127.0.0.1:{free_port()}", "tok", clock=clock)

    def states() -> list[tuple[str, int]]:  # the states reported while waiting to retry
        return [(c[1], c[2]) for c in rec.calls if c[0] == "state" and c[2] > 0]

    rec.wait(lambda: len(states()) >= 1)
    for n in range(2, 9):
        engine.wake()  # the test's clock never runs out on its own; wake the backoff instead
        rec.wait(lambda n=n: len(states()) >= n)
    seen = states()
    assert [s for s, _ in seen] == ["reconnecting"] * 6 + ["offline"] * 2
    caps = [1, 2, 4, 8, 16, 32, 64, 64]
    assert all(c // 2 <= wait <= c for (_, wait), c in zip(seen, caps, strict=True))


def test_a_refused_token_shows_error_until_retried(server: LoopbackServer,
                                                   make_engine: Any) -> None:
    engine, rec = make_engine(server.base_url, "not-a-token")
    rec.wait(lambda: rec.saw("state", "error", 0))
    assert engine.connection_state == ("error", 0)
    engine.retry_now()
    rec.wait(lambda: [c for c in rec.calls if c == ("state", "error", 0)][1:])
