"""The engine against the real thread server on loopback: echo, replacement, order, resume."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from composer_app.server.providers.echo import EchoProvider
from composer_app.sync.engine import DATABASE_FILE, EngineStartTimeout, SyncEngine
from tests.sync.conftest import WAIT, LoopbackServer, Recorder

Make = Callable[..., tuple[SyncEngine, Recorder]]


def _server_messages(server: LoopbackServer, token: str, thread_id: str) -> list[dict[str, Any]]:
    data = server.get(f"/api/threads/{thread_id}", token, missing={"messages": []})
    return list(data["messages"])


def test_local_echo_then_in_place_replacement_by_message_id(server: LoopbackServer,
                                                            make_engine: Make) -> None:
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    rec.wait(lambda: engine.connection_state[0] == "connected")
    thread_id = engine.create_thread("Plans").result(WAIT)
    message_id = engine.send_message(thread_id, "hello there").result(WAIT)
    echo = [m for m in engine.messages(thread_id).result(WAIT) if m.message_id == message_id]
    assert len(echo) == 1  # visible at once, before any answer was awaited
    assert rec.saw("message_upserted", thread_id, message_id)

    def replaced() -> bool:
        rows = engine.messages(thread_id).result(WAIT)
        mine = [m for m in rows if m.message_id == message_id]
        return len(mine) == 1 and mine[0].local_state is None and mine[0].sequence is not None
    rec.wait(replaced)
    rows = engine.messages(thread_id).result(WAIT)
    assert [m.message_id for m in rows].count(message_id) == 1
    assert rows[0].text == "hello there" and rows[0].role == "user"
    server_ids = [m["messageId"] for m in _server_messages(server, token, thread_id)]
    assert server_ids.count(message_id) == 1
    # the echo provider's reply streams in and completes
    rec.wait(lambda: any(m.role == "assistant" and not m.is_streaming and m.text
                         for m in engine.messages(thread_id).result(WAIT)))
    assert engine.outbox_items().result(WAIT) == []


def _local(engine: SyncEngine, thread_id: str) -> list[tuple[str, str, str, str | None]]:
    return [(m.message_id, m.role, m.text, m.local_state)
            for m in engine.messages(thread_id).result(WAIT)]


def _in_sync(engine: SyncEngine, server: LoopbackServer, token: str, thread_id: str) -> bool:
    messages = _server_messages(server, token, thread_id)
    remote = [(m["messageId"], m["role"], m["text"], None) for m in messages]
    done = bool(messages) and all(not m.get("isStreaming") for m in messages)
    return done and _local(engine, thread_id) == remote


def test_lost_answer_is_retried_with_the_same_command_id_and_lands_once(
        server: LoopbackServer, make_engine: Make) -> None:
    from tests.sync.conftest import Fault

    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    rec.wait(lambda: engine.connection_state[0] == "connected")
    thread_id = engine.create_thread().result(WAIT)
    rec.wait(lambda: not engine.outbox_items().result(WAIT))
    server.faults.rules.append(Fault(lose=True, thread_id=thread_id, remaining=1))
    message_id = engine.send_message(thread_id, "only once").result(WAIT)
    engine.retry_now()  # do not wait out the first backoff step
    rec.wait(lambda: rec.saw("outbox", thread_id, message_id, "sent"))
    sent = [b for b in server.faults.forwarded
            if b.get("message", {}).get("messageId") == message_id]
    assert len(sent) == 2 and sent[0] == sent[1]  # same commandId, byte-identical body
    rec.wait(lambda: _in_sync(engine, server, token, thread_id))
    ids = [m["messageId"] for m in _server_messages(server, token, thread_id)]
    assert ids.count(message_id) == 1
    mine = [m for m in engine.messages(thread_id).result(WAIT) if m.message_id == message_id]
    assert len(mine) == 1 and mine[0].local_state is None


def test_order_is_kept_within_a_thread(tmp_path: Path, make_engine: Make) -> None:
    # A slow echo keeps each turn streaming while the next messages are sent, so replies are
    # written after later prompts; every reply must still sit under its own prompt, as on the
    # server.
    server = LoopbackServer(tmp_path / "server", provider=EchoProvider(chunk_chars=4, pause=0.02))
    server.start()
    try:
        _check_order(server, make_engine)
    finally:
        server.stop()


def _check_order(server: LoopbackServer, make_engine: Make) -> None:
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    thread_id = engine.create_thread("burst").result(WAIT)
    texts = [f"message {i}" for i in range(12)]
    sent = [engine.send_message(thread_id, t).result(WAIT) for t in texts]
    rec.wait(lambda: _in_sync(engine, server, token, thread_id))
    users = [m for m in _server_messages(server, token, thread_id) if m["role"] == "user"]
    assert [m["messageId"] for m in users] == sent
    assert [m["text"] for m in users] == texts


def test_resume_after_reconnect_has_no_gap_and_no_duplicate(server: LoopbackServer,
                                                            make_engine: Make) -> None:
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    thread_id = engine.create_thread("resume").result(WAIT)
    engine.send_message(thread_id, "before").result(WAIT)
    rec.wait(lambda: _in_sync(engine, server, token, thread_id))
    engine.stop()
    # another device of the same user writes while this client is away
    other, other_rec = make_engine(server.base_url, server.token("ada", "phone"), "phone")
    for i in range(3):
        other.send_message(thread_id, f"while away {i}").result(WAIT)
    other_rec.wait(lambda: _in_sync(other, server, token, thread_id))
    again, rec2 = make_engine(server.base_url, token)
    rec2.wait(lambda: _in_sync(again, server, token, thread_id))
    # a live drop and reconnect resumes from the cursor as well
    again.disconnect().result(WAIT)
    rec2.wait(lambda: rec2.calls.count(("state", "connected", 0)) >= 2 or again.retry_now())
    other.send_message(thread_id, "after reconnect").result(WAIT)
    rec2.wait(lambda: _in_sync(again, server, token, thread_id))
    texts = [m[2] for m in _local(again, thread_id) if m[1] == "user"]
    assert texts == ["before", "while away 0", "while away 1", "while away 2", "after reconnect"]


def test_rename_and_delete_reach_the_thread_list(server: LoopbackServer,
                                                 make_engine: Make) -> None:
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    thread_id = engine.create_thread("Draft title").result(WAIT)
    keep = engine.create_thread("Keep").result(WAIT)

    def titles() -> dict[str, str | None]:
        return {t.thread_id: t.title for t in engine.threads().result(WAIT)}

    rec.wait(lambda: titles() == {thread_id: "Draft title", keep: "Keep"}
             and not engine.outbox_items().result(WAIT))
    engine.rename_thread(thread_id, "Final title").result(WAIT)
    rec.wait(lambda: titles().get(thread_id) == "Final title")
    engine.delete_thread(thread_id).result(WAIT)
    rec.wait(lambda: titles() == {keep: "Keep"})
    remote = {t["threadId"] for t in server.get("/api/threads", token)["threads"]}
    assert remote == {keep}


def test_start_gives_up_after_its_timeout_with_a_clear_error(tmp_path: Path) -> None:
    """A client cache another process holds locked: ``start`` fails in plain words after its
    timeout instead of hanging, and the late engine stops by itself once it gets through."""
    client = tmp_path / "client"
    client.mkdir()
    holder = sqlite3.connect(client / DATABASE_FILE, isolation_level=None)
    holder.execute("CREATE TABLE held (x)")
    holder.execute("BEGIN EXCLUSIVE")
    engine = SyncEngine("http://127.0.0.1:9", "token", client)
    began = time.monotonic()
    with pytest.raises(EngineStartTimeout, match=r"did not start within 0\.3 seconds"):
        engine.start(timeout=0.3)
    assert time.monotonic() - began < 3
    holder.execute("COMMIT")
    holder.close()
    worker = engine._thread
    assert worker is not None
    worker.join(WAIT)
    assert not worker.is_alive()
    with pytest.raises(RuntimeError, match="not running"):
        engine.threads()
