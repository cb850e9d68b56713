"""Crashes: the server killed mid-send and restarted; the client killed while writing its outbox."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from composer_app.sync.engine import SyncEngine
from tests.sync.conftest import WAIT, Recorder, ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]


def _user_texts(base_url: str, token: str, thread_id: str) -> list[str] | None:
    with httpx.Client(base_url=base_url, timeout=WAIT) as client:
        reply = client.get(f"/api/threads/{thread_id}",
                           headers={"Authorization": f"Bearer {token}"})
    if reply.status_code != 200:
        return None
    return [m["text"] for m in reply.json()["messages"] if m["role"] == "user"]


def _create_thread(base_url: str, token: str) -> str:
    thread_id = "thr_" + os.urandom(16).hex()
    with httpx.Client(base_url=base_url, timeout=WAIT) as client:
        reply = client.post("/api/commands", headers={"Authorization": f"Bearer {token}"},
                            json={"type": "thread.create", "threadId": thread_id,
                                  "commandId": "cmd_" + os.urandom(16).hex()})
    assert reply.status_code == 200, reply.text
    return thread_id


def _settled(engine: SyncEngine, base_url: str, token: str, thread_id: str,
             expected: list[str] | None = None) -> Any:
    if engine.outbox_items().result(WAIT):
        return False
    # user messages only: a reply that was streaming when the server died may stay unfinished
    texts = _user_texts(base_url, token, thread_id)
    local = [m.text for m in engine.messages(thread_id).result(WAIT)
             if m.role == "user" and m.local_state is None]
    if texts is None or local != texts:
        return False
    return texts if expected is None or texts == expected else False


def test_server_killed_mid_send_then_restarted(tmp_path: Path, make_engine: Any) -> None:
    server = ServerProcess(tmp_path / "server", free_port())
    token = server.create_token()
    server.start()
    try:
        engine, rec = make_engine(server.base_url, token)
        rec.wait(lambda: engine.connection_state[0] == "connected")
        thread_id = engine.create_thread("crash").result(WAIT)
        rec.wait(lambda: not engine.outbox_items().result(WAIT))
        texts = [f"burst {i}" for i in range(20)]
        ids = [engine.send_message(thread_id, t).result(WAIT) for t in texts]
        rec.wait(lambda: rec.saw("outbox", thread_id, ids[0], "sent"))
        server.kill()  # SIGKILL while later items are queued or in flight
        rec.wait(lambda: engine.connection_state[0] in ("reconnecting", "offline"))
        server.start()  # same port, same data directory
        engine.retry_now()
        rec.wait(lambda: _settled(engine, server.base_url, token, thread_id, texts))
        ids_on_server = [m.message_id for m in engine.messages(thread_id).result(WAIT)
                         if m.role == "user"]
        assert ids_on_server == ids  # each exactly once, in order
        assert engine.connection_state[0] == "connected"
    finally:
        server.stop()


def test_client_killed_while_writing_its_outbox_loses_nothing(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "server", free_port())
    token = server.create_token()
    server.start()
    try:
        thread_id = _create_thread(server.base_url, token)
        data_dir = tmp_path / "client"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("outbox_writer.py")), str(data_dir),
             server.base_url, token, thread_id],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        assert child.stdout is not None
        committed = [child.stdout.readline().strip() for _ in range(40)]
        child.send_signal(signal.SIGKILL)
        child.wait(30)
        with child.stdout:
            committed += [line.strip() for line in child.stdout if line.strip()]
        assert all(m.startswith("msg_") for m in committed)

        db = sqlite3.connect(data_dir / "client.sqlite3")
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        queued = db.execute("SELECT count(*) FROM outbox").fetchone()[0]
        assert queued > 0  # the restart below has undelivered items to finish
        db.close()

        engine = SyncEngine(server.base_url, token, data_dir)
        rec = Recorder()
        engine.add_listener(rec)
        engine.start()
        try:
            texts = rec.wait(lambda: _settled(engine, server.base_url, token, thread_id))
            count = len(texts)
            assert count >= len(committed)
            assert texts == [f"m{i}" for i in range(count)]  # no gap, no duplicate, in order
            local_ids = [m.message_id for m in engine.messages(thread_id).result(WAIT)
                         if m.role == "user"]
            assert local_ids[: len(committed)] == committed
        finally:
            engine.stop()
    finally:
        server.stop()
