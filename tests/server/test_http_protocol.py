"""Slowloris: half-sent requests are closed after the header deadline; others are served."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from composer_app.server.app import build_app
from composer_app.server.http_protocol import (
    FLUSH_BYTES,
    HeaderDeadlineProtocol,
    ResponseWriter,
    server_config,
)
from composer_app.server.settings import ServerSettings
from composer_app.server.store.sqlite import SqliteStore

tokens: list[str] = []


class QuickDeadline(HeaderDeadlineProtocol):
    header_timeout = 0.5


@pytest.fixture
def live_url(tmp_path: Path) -> Iterator[str]:
    store = SqliteStore.in_dir(tmp_path)
    store.open()
    tokens.append(store.create_token("alice", "laptop")[0])
    app = build_app(ServerSettings(tmp_path), store)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = server_config(app, http=QuickDeadline, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                              daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive()
        time.sleep(0.01)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(10)
    sock.close()


def test_half_sent_requests_are_closed_and_others_still_served(live_url: str) -> None:
    port = int(live_url.rsplit(":", 1)[1])
    stalled = []
    for _ in range(200):
        conn = socket.create_connection(("127.0.0.1", port))
        conn.sendall(b"GET /api/environment HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        stalled.append(conn)
    started = time.monotonic()
    assert httpx.get(live_url + "/api/environment", timeout=5).status_code == 200
    assert time.monotonic() - started < 2.0
    for conn in stalled:
        conn.settimeout(10)
        assert conn.recv(100) == b""  # closed by the server, without an answer
        conn.close()
    with socket.create_connection(("127.0.0.1", port)) as slow_keepalive:
        slow_keepalive.sendall(b"GET /api/environment HTTP/1.1\r\nHost: x\r\n\r\n")
        slow_keepalive.settimeout(10)
        answer = b""
        while not answer.endswith(b"}}"):  # the whole first answer
            answer += slow_keepalive.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200")
        slow_keepalive.sendall(b"GET /api/environment HTTP/1.1\r\nHo")  # then stalls
        received = b""
        while chunk := slow_keepalive.recv(4096):
            received += chunk
        assert received == b""


def test_websockets_outlive_the_header_deadline(live_url: str) -> None:
    import json

    from websockets.sync.client import connect

    headers = {"Authorization": f"Bearer {tokens[-1]}"}
    with connect(live_url.replace("http", "ws", 1) + "/api/ws", additional_headers=headers,
                 open_timeout=5) as ws:
        with pytest.raises(TimeoutError):  # several header deadlines pass in silence
            ws.recv(timeout=3 * QuickDeadline.header_timeout)
        ws.send(json.dumps({"type": "subscribe", "subscriptionId": "s",
                            "stream": {"kind": "shell"}, "afterSequence": None}))
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"


def test_what_one_loop_step_writes_leaves_in_one_write() -> None:
    def received(sock: socket.socket) -> bytes | None:
        try:
            return sock.recv(1 << 20)
        except BlockingIOError:
            return None  # nothing sent yet

    async def run() -> list[bytes | None]:
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair()
        theirs.setblocking(False)
        transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, ours)
        writer = ResponseWriter(transport, loop)
        seen: list[bytes | None] = []
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        writer.write(bytearray(b"ok"))
        writer.write(memoryview(b"\x81\x02hi"))  # a WebSocket frame of the same step
        seen.append(received(theirs))  # held until the end of the step
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        seen.append(received(theirs))  # all three in one write
        big = b"x" * FLUSH_BYTES
        writer.write(b"head")
        writer.write(big)  # reaching FLUSH_BYTES: sent at once, after what was held
        await asyncio.sleep(0.05)
        seen.append(b"".join(iter(lambda: received(theirs) or b"", b"")))
        writer.write(b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n")
        writer.close()  # closing sends what is held first
        await asyncio.sleep(0.05)
        seen.append(received(theirs))
        theirs.close()
        return seen

    early, together, large, last = asyncio.run(run())
    assert early is None
    assert together == b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok\x81\x02hi"
    assert large == b"head" + b"x" * FLUSH_BYTES
    assert last == b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n"


def test_the_access_log_is_built_only_when_it_is_written() -> None:
    from fastapi import FastAPI

    app = FastAPI()
    assert server_config(app, log_level="info").access_log is True
    assert server_config(app).access_log is True  # uvicorn's default level is info
    assert server_config(app, log_level="warning").access_log is False
    assert server_config(app, log_level="error", access_log=True).access_log is True
