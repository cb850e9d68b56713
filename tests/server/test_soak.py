"""Soak (bounded): a socket that never reads, holding 20 subscriptions that replay a thread of
several MB (its whole event log, from sequence 0), and a 40 MB body cost the server under 150 MB
while other clients keep a p99 under 1 s."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.harness import cid, create_thread, mid, tid, turn_start
from tests.server.live import ServerProcess, cli, data_args

SUBSCRIPTIONS = 20
MESSAGE_CHARS = 400_000
MESSAGES = 8
SOAK_SECONDS = 12.0
PACE_SECONDS = 0.02  # the other client's requests, spaced below the per-user sustained rate


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _masked_text_frame(text: str) -> bytes:
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    n = len(payload)
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 65536:
        header += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        header += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _never_reading_socket(port: int, token: str, thread: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET /api/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                  "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nAuthorization: Bearer {token}\r\n\r\n").encode())
    for n in range(SUBSCRIPTIONS):
        sock.sendall(_masked_text_frame(json.dumps({
            "type": "subscribe", "subscriptionId": f"s{n}", "afterSequence": 0,
            "stream": {"kind": "thread", "threadId": thread}})))
    return sock  # never read from


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[ServerProcess, str, str]]:
    args = data_args(tmp_path)
    attacker = cli("create-token", "--user", "mallory", "--name", "laptop", *args)
    victim = cli("create-token", "--user", "alice", "--name", "laptop", *args)
    process = ServerProcess(args).start()
    yield process, attacker, victim
    process.stop()


def test_one_client_cannot_exhaust_or_stall_the_server(
        server: tuple[ServerProcess, str, str]) -> None:
    process, attacker, victim = server
    assert process.process is not None
    pid, url = process.process.pid, process.url
    big = tid()
    with httpx.Client(base_url=url, timeout=60,
                      headers={"Authorization": f"Bearer {attacker}"}) as client:
        assert client.post("/api/commands", json=create_thread(big)).status_code == 200
        for _ in range(MESSAGES):
            body = turn_start(big, "x" * MESSAGE_CHARS)
            assert client.post("/api/commands", json=body).status_code == 200
        snapshot = client.get(f"/api/threads/{big}").content
    assert len(snapshot) > 3_000_000  # a thread of several MB
    baseline = _rss_mb(pid)
    stop = threading.Event()
    peak = [baseline]
    stalled = _never_reading_socket(process.port, attacker, big)

    def huge_body() -> None:  # 40 MB, chunked so its size is known only while it arrives
        def chunks() -> Iterator[bytes]:
            for _ in range(40):
                yield b"{}" * 500_000
        with contextlib.suppress(httpx.HTTPError):  # it may close the connection at its limit
            httpx.post(url + "/api/commands", content=chunks(), timeout=60,
                       headers={"Authorization": f"Bearer {attacker}"})

    def watch_memory() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _rss_mb(pid))
            stop.wait(0.05)

    background = [threading.Thread(target=huge_body), threading.Thread(target=watch_memory)]
    for task in background:
        task.start()
    latencies: list[float] = []
    thread = tid()
    try:  # a failed check must not leave the watcher and the stalled socket to later tests
        with httpx.Client(base_url=url, timeout=30,
                          headers={"Authorization": f"Bearer {victim}"}) as other:
            assert other.post("/api/commands", json=create_thread(thread)).status_code == 200
            deadline = time.monotonic() + SOAK_SECONDS
            while time.monotonic() < deadline:
                started = time.monotonic()
                response = other.post("/api/commands", json=turn_start(
                    thread, "hello", message_id=mid(), command_id=cid()))
                latencies.append(time.monotonic() - started)
                assert response.status_code == 200, response.text
                time.sleep(max(0.0, started + PACE_SECONDS - time.monotonic()))
        background[0].join(60)
    finally:
        stop.set()
        background[1].join(5)
        stalled.close()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    grown = peak[0] - baseline
    print(f"soak: {len(latencies)} requests, p99 {p99 * 1000:.0f} ms, RSS +{grown:.0f} MB")
    assert len(latencies) > 20
    assert p99 < 1.0, f"p99 {p99:.3f} s over {len(latencies)} requests"
    assert peak[0] - baseline < 150, f"RSS grew {peak[0] - baseline:.0f} MB"
