"""Uploads start at attach; the send waits for them; expired URLs are re-requested."""

from __future__ import annotations

import asyncio
import hashlib
import random
from pathlib import Path
from typing import Any

import httpx

from composer_app.core.contracts.records import decode_record
from composer_app.sync.backoff import Clock
from composer_app.sync.engine import SyncEngine
from composer_app.sync.store import ClientStore, UploadRow
from composer_app.sync.uploads import Uploader
from tests.sync.conftest import WAIT, Fault, LoopbackServer, ManualClock, Recorder

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def _image(local_id: str) -> Any:
    return decode_record({"version": 1, "kind": "image", "contextId": "ctx_shot",
                          "label": "shot.png", "attachmentId": local_id, "name": "shot.png",
                          "mimeType": "image/png", "sizeBytes": len(PNG)})


def _upload(engine: SyncEngine, local_id: str) -> Any:
    return next(u for u in engine.uploads().result(WAIT) if u.local_id == local_id)


def test_send_waits_for_an_upload_that_started_at_attach(tmp_path: Path, server: LoopbackServer,
                                                         make_engine: Any) -> None:
    clock = ManualClock()
    token = server.token()
    engine, rec = make_engine(server.base_url, token, clock=clock)
    rec.wait(lambda: engine.connection_state[0] == "connected")
    thread_id = engine.create_thread().result(WAIT)
    rec.wait(lambda: not engine.outbox_items().result(WAIT))
    server.faults.rules.append(Fault(path="/api/attachments", status=503))
    original = tmp_path / "shot.png"
    original.write_bytes(PNG)
    row = engine.attach_file(original, mime_type="image/png").result(WAIT)
    original.unlink()  # the queued copy in app data is what gets uploaded
    assert Path(row.path).read_bytes() == PNG and row.sha256 == hashlib.sha256(PNG).hexdigest()
    rec.wait(lambda: ("POST", "/api/attachments") in server.faults.requests)  # before any send

    text = "Look ![shot.png](t3-context://v1/image/ctx_shot)"
    message_id = engine.send_message(thread_id, text, [_image(row.local_id)],
                                     [row.local_id]).result(WAIT)
    (item,) = engine.outbox_items().result(WAIT)
    assert item.depends_on_uploads == (row.local_id,) and item.first_attempt_at is None
    assert not [b for b in server.faults.forwarded if b.get("type") == "thread.turn.start"]
    echo = engine.messages(thread_id).result(WAIT)[-1]
    assert echo.attachments[0]["attachmentId"] == row.local_id  # local thumbnail binding

    server.faults.clear()
    server.faults.rules.append(Fault(method="PUT", path="/api/uploads/", prefix=True,
                                     status=410, remaining=1))
    engine.wake()
    rec.wait(lambda: rec.saw("outbox", thread_id, message_id, "sent"))
    assert not Path(row.path).exists()  # the app-data copy goes once the server has it
    assert row.local_id not in {u.local_id for u in engine.uploads().result(WAIT)}
    assert server.faults.requests.count(("POST", "/api/attachments")) >= 3  # 503, 410, ok
    assert sum(1 for m, _ in server.faults.requests if m == "PUT") == 2

    stored = server.get(f"/api/threads/{thread_id}", token)["messages"][0]
    bound = stored["attachments"][0]["attachmentId"]
    assert stored["messageId"] == message_id
    assert stored["context"]["records"][0]["attachmentId"] == bound  # Normalizer rewrite
    assert stored["context"]["records"][0]["contextId"] == "ctx_shot" and stored["text"] == text

    def replaced() -> bool:
        mine = [m for m in engine.messages(thread_id).result(WAIT) if m.message_id == message_id]
        return bool(mine) and mine[0].local_state is None
    rec.wait(replaced)
    mine = [m for m in engine.messages(thread_id).result(WAIT) if m.message_id == message_id]
    assert mine[0].attachments[0]["attachmentId"] == bound


def test_a_cancelled_upload_leaves_its_message_unsent(tmp_path: Path, server: LoopbackServer,
                                                      make_engine: Any) -> None:
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    thread_id = engine.create_thread().result(WAIT)
    server.faults.rules.append(Fault(path="/api/attachments", status=503))
    source = tmp_path / "notes.txt"
    source.write_text("notes")
    row = engine.attach_file(source).result(WAIT)
    assert row.mime_type == "text/plain"
    message_id = engine.send_message(thread_id, "see file", None, [row.local_id]).result(WAIT)
    assert engine.cancel_upload(row.local_id).result(WAIT)
    rec.wait(lambda: rec.saw("upload", row.local_id, "cancelled", 0))
    rec.wait(lambda: rec.saw("outbox", thread_id, message_id, "unsent"))
    assert not Path(row.path).exists()


def rec_sent(rec: Recorder, thread_id: str, message_id: str) -> bool:
    return rec.saw("outbox", thread_id, message_id, "sent")


def test_close_ends_every_upload_task_and_keeps_the_rows(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, UploadRow | None]:
        store = ClientStore(tmp_path / "client.sqlite3")
        connected = asyncio.Event()  # never set: the upload task waits for the connection
        uploader = Uploader(store, tmp_path / "outbox", Clock(), random.Random(0),
                            lambda _row: None, lambda *_: None, connected)
        source = tmp_path / "notes.txt"
        source.write_bytes(b"notes")
        row = await uploader.attach(source)
        running = len(asyncio.all_tasks()) - 1
        await uploader.close()
        assert asyncio.all_tasks() == {asyncio.current_task()}  # nothing left to touch the store
        kept = store.upload(row.local_id)
        store.close()
        return running, kept

    running, kept = asyncio.run(scenario())
    assert running == 1
    assert kept is not None and kept.state == "queued"  # resumed on the next start


def _file(local_id: str, name: str = "report.pdf") -> Any:
    return decode_record({"version": 1, "kind": "file", "contextId": "ctx_report",
                          "label": name, "attachmentId": local_id, "name": name,
                          "mimeType": "application/pdf", "sizeBytes": 10})


def _forget_on_server(server: LoopbackServer, token: str, attachment_id: str) -> None:
    with httpx.Client(base_url=server.base_url, timeout=WAIT) as client:
        reply = client.delete(f"/api/attachments/{attachment_id}",
                              headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 204


def test_a_file_the_server_forgot_is_uploaded_again_from_its_copy(
        tmp_path: Path, server: LoopbackServer, make_engine: Any) -> None:
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    thread_id = engine.create_thread().result(WAIT)
    source = tmp_path / "report.pdf"
    source.write_bytes(b"%PDF-1.4 q")
    row = engine.attach_file(source).result(WAIT)
    rec.wait(lambda: rec.saw("upload", row.local_id, "uploaded", row.size))
    forgotten = _upload(engine, row.local_id).server_attachment_id
    _forget_on_server(server, token, forgotten)
    text = "see [report.pdf](t3-context://v1/file/ctx_report)"
    # no upload ids from the caller: the bound record is resolved through the client store
    message_id = engine.send_message(thread_id, text, [_file(row.local_id)]).result(WAIT)
    rec.wait(lambda: rec.saw("outbox", thread_id, message_id, "sent"))
    stored = server.get(f"/api/threads/{thread_id}", token)["messages"][0]
    [attachment] = stored["attachments"]
    assert attachment["name"] == "report.pdf"
    assert stored["context"]["records"][0]["attachmentId"] == attachment["attachmentId"]
    assert server.faults.requests.count(("POST", "/api/attachments")) == 2  # uploaded again


def test_a_failed_upload_retries_from_its_kept_copy(tmp_path: Path, server: LoopbackServer,
                                                    make_engine: Any) -> None:
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    server.faults.rules.append(Fault(path="/api/attachments", status=413))
    source = tmp_path / "report.pdf"
    source.write_bytes(b"%PDF-1.4 q")
    row = engine.attach_file(source).result(WAIT)
    rec.wait(lambda: rec.saw("upload", row.local_id, "failed", 0))
    source.unlink()
    server.faults.clear()
    again = engine.attach_file(Path(row.path), row.name, row.mime_type,
                               row.local_id).result(WAIT)
    assert again.path == row.path and again.sha256 == row.sha256
    rec.wait(lambda: rec.saw("upload", row.local_id, "uploaded", row.size))
