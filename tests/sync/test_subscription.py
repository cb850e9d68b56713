"""The socket: resume by replay or snapshot, reconnect states, refused tokens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from composer_app.core.errors import ContractError
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


def test_a_refused_token_shows_unauthorized_until_retried(server: LoopbackServer,
                                                          make_engine: Any) -> None:
    engine, rec = make_engine(server.base_url, "not-a-token")
    rec.wait(lambda: rec.saw("state", "unauthorized", 0))
    assert engine.connection_state == ("unauthorized", 0)
    engine.retry_now()
    rec.wait(lambda: [c for c in rec.calls if c == ("state", "unauthorized", 0)][1:])


def test_a_new_token_reconnects_without_a_restart(server: LoopbackServer,
                                                  make_engine: Any) -> None:
    engine, rec = make_engine(server.base_url, "not-a-token")
    rec.wait(lambda: rec.saw("state", "unauthorized", 0))
    engine.set_token(server.token()).result(10)
    rec.wait(lambda: engine.connection_state[0] == "connected")


def test_unreadable_server_frames_are_skipped_and_the_stream_stays_up(
        server: LoopbackServer, make_engine: Any) -> None:
    server.faults.ws_garbage.extend(["not json", "[" * 100_000 + "]" * 100_000,
                                     '{"type": "bogus"}', '{"type": "event"}'])
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    rec.wait(lambda: engine.connection_state == ("connected", 0))
    thread_id = engine.create_thread("Still here").result(WAIT)
    engine.send_message(thread_id, "after the garbage").result(WAIT)
    rec.wait(lambda: "after the garbage" in _texts(engine, thread_id)
             and any(m.role == "assistant" and not m.is_streaming
                     for m in engine.messages(thread_id).result(WAIT)))
    assert engine._subscription.skipped_frames >= 4
    assert not [c for c in rec.calls if c[0] == "state" and c[1] in ("reconnecting", "offline")]


def test_a_full_client_disk_reconnects_with_backoff_and_recovers(
        server: LoopbackServer, make_engine: Any) -> None:
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    thread_id = engine.create_thread("Disk").result(WAIT)
    rec.wait(lambda: not engine.outbox_items().result(WAIT)
             and engine.connection_state == ("connected", 0))
    db = engine._store._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    engine._submit(_run(lambda: db.execute(f"PRAGMA max_page_count = {pages}"))).result(WAIT)
    other = server.token("ada", "phone")
    for n in range(40):  # far more than the free pages left: the client's writes fail
        server.post("/api/commands", other, {
            "type": "thread.turn.start", "commandId": f"cmd_{n:032x}", "threadId": thread_id,
            "createdAt": "2026-11-30T14:02:11Z",
            "message": {"messageId": f"msg_{n:032x}", "role": "user", "text": "x" * 4000,
                        "attachments": []}})
    rec.wait(lambda: [c for c in rec.calls if c[0] == "state" and c[1] == "reconnecting"
                      and c[2] > 0])
    toasts = [c for c in rec.calls if c[0] == "toast" and c[2] == "Cannot save messages"]
    assert len(toasts) == 1  # said once, not once per retry
    engine._submit(_run(lambda: db.execute("PRAGMA max_page_count = 1073741823"))).result(WAIT)
    engine.retry_now()
    rec.wait(lambda: len(_texts(engine, thread_id)) == 40, timeout=60)
    assert engine.connection_state == ("connected", 0)


def test_a_lone_surrogate_is_refused_before_anything_is_queued(
        server: LoopbackServer, make_engine: Any) -> None:
    engine, rec = make_engine(server.base_url, server.token())
    thread_id = engine.create_thread("Text").result(WAIT)
    with pytest.raises(ContractError, match="lone UTF-16 surrogate"):
        engine.send_message(thread_id, "broken \ud800 text").result(WAIT)
    with pytest.raises(ContractError, match="NUL"):
        engine.rename_thread(thread_id, "a\x00b").result(WAIT)
    with pytest.raises(ContractError, match="surrogate"):
        engine.create_thread("\udfff").result(WAIT)
    rec.wait(lambda: not engine.outbox_items().result(WAIT))
    assert _texts(engine, thread_id) == []


def _run(fn: Any) -> Any:
    async def go() -> Any:
        return fn()
    return go()
