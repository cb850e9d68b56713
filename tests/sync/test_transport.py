"""The HTTP adapter: replies, error codes, failures as TransportError."""

from __future__ import annotations

import asyncio

import pytest

from composer_app.core.errors import TransportError
from composer_app.sync.transport import HttpTransport, Reply, ws_url
from tests.sync.conftest import LoopbackServer, free_port


def test_reply_reads_spec_error_bodies() -> None:
    reply = Reply(429, {"error": {"code": "rate_limited", "message": "m", "retryable": True}},
                  "3")
    assert not reply.ok and reply.error_code == "rate_limited" and reply.retry_after == "3"
    assert Reply(200, {"x": 1}).ok and Reply(200, {"x": 1}).error_code is None


def test_ws_url_follows_the_scheme() -> None:
    assert ws_url("http://127.0.0.1:8765/") == "ws://127.0.0.1:8765/api/ws"
    assert ws_url("https://example.org") == "wss://example.org/api/ws"


def test_real_answers_and_refused_connections(server: LoopbackServer) -> None:
    async def go() -> tuple[Reply, Reply]:
        http = HttpTransport(server.base_url, "bad-token")
        try:
            return await http.get("/api/environment"), await http.get("/api/threads")
        finally:
            await http.aclose()

    environment, refused = asyncio.run(go())
    assert environment.ok and environment.body["capabilities"]["inlineMessageContext"] is True
    assert refused.status == 401 and refused.error_code == "unauthorized"

    async def dead() -> None:
        http = HttpTransport(f"http://127.0.0.1:{free_port()}")
        try:
            await http.get("/api/environment")
        finally:
            await http.aclose()

    with pytest.raises(TransportError):
        asyncio.run(dead())
