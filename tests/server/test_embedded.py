"""The embedded server: real uvicorn on loopback, restart durability, keepalive pings."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import socket
from pathlib import Path

import httpx
from websockets.sync.client import connect

from composer_app.server.embedded import start_embedded
from tests.server.harness import create_thread, image, tid, turn_start


def test_embedded_server_speaks_http_and_websocket(tmp_path: Path) -> None:
    server = start_embedded(tmp_path)
    try:
        assert server.url.startswith("http://127.0.0.1:")
        headers = {"Authorization": f"Bearer {server.token}"}
        env = httpx.get(server.url + "/api/environment").json()
        assert env["environmentId"] == server.environment_id
        thread = tid()
        with connect(server.url.replace("http", "ws", 1) + "/api/ws",
                     additional_headers=headers) as ws:
            ws.send(json.dumps({"type": "subscribe", "subscriptionId": "s",
                                "stream": {"kind": "shell"}, "afterSequence": None}))
            assert json.loads(ws.recv(10))["type"] == "snapshot"
            assert json.loads(ws.recv(10))["type"] == "synchronized"
            sent = httpx.post(server.url + "/api/commands", headers=headers,
                              json=create_thread(thread)).json()
            event = json.loads(ws.recv(10))["event"]
            assert (event["type"], event["sequence"]) == ("thread.created", sent["sequence"])
    finally:
        server.stop()
    assert not server._thread.is_alive()


def test_restart_keeps_messages_and_chips_resolvable(tmp_path: Path) -> None:
    data = b"\x89PNG-bytes"
    thread = tid()
    with start_embedded(tmp_path) as server:
        headers = {"Authorization": f"Bearer {server.token}"}
        created = httpx.post(server.url + "/api/attachments", headers=headers, json={
            "name": "shot.png", "mimeType": "image/png", "sizeBytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}).json()
        assert httpx.put(server.url + created["uploadUrl"], content=data).status_code == 204
        body = turn_start(thread, "see ![shot.png](t3-context://v1/image/img1)", bootstrap=True,
                          context={"version": 1, "records": [image("img1",
                                                                    created["attachmentId"])]},
                          attachments=[{"attachmentId": created["attachmentId"],
                                        "name": "shot.png", "mimeType": "image/png",
                                        "sizeBytes": len(data)}])
        assert httpx.post(server.url + "/api/commands", headers=headers,
                          json=body).status_code == 200
        before = httpx.get(f"{server.url}/api/threads/{thread}", headers=headers).json()
        env = server.environment_id
    with start_embedded(tmp_path) as again:
        assert again.environment_id == env
        headers = {"Authorization": f"Bearer {again.token}"}
        after = httpx.get(f"{again.url}/api/threads/{thread}", headers=headers).json()
        user = after["messages"][0]
        assert user == before["messages"][0]
        record = user["context"]["records"][0]
        assert record["attachmentId"] == user["attachments"][0]["attachmentId"]
        url = httpx.post(again.url + "/api/assets/url", headers=headers,
                         json={"attachmentId": record["attachmentId"]}).json()["url"]
        assert httpx.get(again.url + url).content == data


def test_server_sends_keepalive_pings(tmp_path: Path) -> None:
    with start_embedded(tmp_path, ws_ping_interval=0.05) as server:
        host, port = server.url.removeprefix("http://").split(":")
        key = base64.b64encode(os.urandom(16)).decode()
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(
                f"GET /api/ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nAuthorization: Bearer {server.token}\r\n\r\n"
                .encode())
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(1)
            assert head.startswith(b"HTTP/1.1 101")
            opcode = sock.recv(1)[0] & 0x0F
            assert opcode == 0x9  # ping, sent by the server while the socket is idle


def test_websocket_with_a_bad_token_is_refused(tmp_path: Path) -> None:
    import pytest
    from websockets.exceptions import InvalidStatus

    with start_embedded(tmp_path) as server, pytest.raises(InvalidStatus):
        connect(server.url.replace("http", "ws", 1) + "/api/ws",
                additional_headers={"Authorization": "Bearer wrong"}).close()


def test_a_turn_cut_by_a_restart_ends_as_failed(tmp_path: Path) -> None:
    from composer_app.server.settings import ServerSettings
    from tests.server.test_turns import GatedProvider

    thread = tid()
    settings = ServerSettings(tmp_path, provider=GatedProvider(), delta_interval=0.0)
    with start_embedded(tmp_path, settings=settings) as server:
        headers = {"Authorization": f"Bearer {server.token}"}
        httpx.post(server.url + "/api/commands", headers=headers,
                   json=turn_start(thread, "hi", bootstrap=True))
    with start_embedded(tmp_path) as again:
        headers = {"Authorization": f"Bearer {again.token}"}
        reply = httpx.get(f"{again.url}/api/threads/{thread}", headers=headers).json()[
            "messages"][1]
        assert reply["isStreaming"] is False
        with connect(again.url.replace("http", "ws", 1) + "/api/ws",
                     additional_headers=headers) as ws:
            ws.send(json.dumps({"type": "subscribe", "subscriptionId": "t", "afterSequence": 0,
                                "stream": {"kind": "thread", "threadId": thread}}))
            events = []
            while (frame := json.loads(ws.recv(10)))["type"] == "event":
                events.append(frame["event"])
        assert events[-1]["type"] == "thread.turn-failed"
        assert "restarted" in events[-1]["payload"]["error"]["message"]


def test_the_embedded_server_reuses_its_device_token(tmp_path: Path) -> None:
    from composer_app.server.administration import list_tokens, revoke_token
    from composer_app.server.store.sqlite import SqliteStore

    with start_embedded(tmp_path) as first:
        token = first.token
    with start_embedded(tmp_path) as second:
        assert second.token == token
        headers = {"Authorization": f"Bearer {second.token}"}
        assert httpx.get(second.url + "/api/threads", headers=headers).status_code == 200
    saved = tmp_path / "device-desktop.token"
    assert saved.stat().st_mode & 0o777 == 0o600
    store = SqliteStore.in_dir(tmp_path)
    store.open()
    try:
        assert len(list_tokens(store, "local") or []) == 1
        assert revoke_token(store, "local", "desktop") == 1
    finally:
        store.close()
    with start_embedded(tmp_path) as third:  # a revoked token is replaced, once
        assert third.token != token
        headers = {"Authorization": f"Bearer {third.token}"}
        assert httpx.get(third.url + "/api/threads", headers=headers).status_code == 200
