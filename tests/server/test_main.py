"""The command line and real server processes: crash safety and multi-process fan-out."""

from __future__ import annotations

import asyncio
import json
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from composer_app.server.store.sqlite import SqliteStore
from tests.server.harness import create_thread, tid, turn_start
from tests.server.live import ServerProcess, cli, data_args


@pytest.fixture
def processes() -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for process in started:
        process.stop()


def test_create_token_prints_it_once_and_stores_only_its_hash(tmp_path: Path) -> None:
    token = cli("create-token", "--user", "alice", "--name", "laptop", *data_args(tmp_path))
    assert token.startswith("cmp_") and "\n" not in token
    raw = (tmp_path / "composer-server.sqlite3").read_bytes()
    assert token.encode() not in raw
    cli("migrate", *data_args(tmp_path))
    store = SqliteStore.in_dir(tmp_path)
    store.open()
    try:
        import hashlib

        digest = hashlib.sha256(token.encode()).hexdigest()
        assert store.read_sync(lambda r: r.device_by_token_hash(digest)) is not None
    finally:
        store.close()


def _raw_post(url: str, token: str, body: dict[str, object]) -> socket.socket:
    """Write a complete POST /api/commands and return the socket without reading the answer."""
    host, port = url.removeprefix("http://").split(":")
    payload = json.dumps(body).encode()
    sock = socket.create_connection((host, int(port)))
    sock.sendall(b"POST /api/commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 + f"Authorization: Bearer {token}\r\nContent-Length: {len(payload)}\r\n\r\n"
                 .encode() + payload)
    return sock


def test_kill_9_mid_send_then_restart_keeps_each_message_exactly_once(
    tmp_path: Path, processes: list[ServerProcess]
) -> None:
    token = cli("create-token", "--user", "alice", "--name", "laptop", *data_args(tmp_path))
    headers = {"Authorization": f"Bearer {token}"}
    server = ServerProcess(data_args(tmp_path))
    processes.append(server.start())
    thread = tid()
    assert httpx.post(server.url + "/api/commands", headers=headers,
                      json=create_thread(thread)).status_code == 200
    bodies = [turn_start(thread, f"message {n}") for n in range(20)]
    sockets = [_raw_post(server.url, token, body) for body in bodies]
    server.kill9()  # some commands committed, some maybe not, answers lost
    for sock in sockets:
        sock.close()
    restarted = ServerProcess(data_args(tmp_path), port=server.port)
    processes.append(restarted.start())
    for body in bodies:  # the client retries every unanswered command with the same id
        response = httpx.post(restarted.url + "/api/commands", headers=headers, json=body,
                              timeout=30)
        assert response.status_code == 200, response.text
    snapshot = httpx.get(f"{restarted.url}/api/threads/{thread}", headers=headers).json()
    user_ids = [m["messageId"] for m in snapshot["messages"] if m["role"] == "user"]
    assert sorted(user_ids) == sorted(b["message"]["messageId"] for b in bodies)  # type: ignore[index]
    assert len(user_ids) == len(set(user_ids)) == 20


@pytest.mark.postgres
def test_two_processes_on_one_postgres_share_events(
    tmp_path: Path, postgres_dsn: str, processes: list[ServerProcess]
) -> None:
    args = ["--database-url", f"postgresql+psycopg://?{_query(postgres_dsn)}",
            "--data-dir", str(tmp_path / "data"), "--storage-dir", str(tmp_path / "blobs")]
    token = cli("create-token", "--user", "alice", "--name", "laptop", *args)
    headers = {"Authorization": f"Bearer {token}"}
    a = ServerProcess(args)
    b = ServerProcess(args)
    processes.extend([a.start(), b.start()])
    env_a = httpx.get(a.url + "/api/environment").json()["environmentId"]
    assert httpx.get(b.url + "/api/environment").json()["environmentId"] == env_a
    thread = tid()
    ws_url = b.url.replace("http://", "ws://") + "/api/ws"
    with connect(ws_url, additional_headers=headers, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "subscribe", "subscriptionId": "s",
                            "stream": {"kind": "shell"}, "afterSequence": 0}))
        assert json.loads(ws.recv(10))["type"] == "synchronized"
        ws.send(json.dumps({"type": "subscribe", "subscriptionId": "t",
                            "stream": {"kind": "thread", "threadId": thread},
                            "afterSequence": 0}))
        assert json.loads(ws.recv(10))["type"] == "error"  # no such thread yet
        accepted = httpx.post(a.url + "/api/commands", headers=headers,
                              json=turn_start(thread, "hello", bootstrap=True)).json()
        frame = json.loads(ws.recv(10))
        assert frame["event"]["type"] == "thread.created"
        assert frame["event"]["threadId"] == thread
        ws.send(json.dumps({"type": "subscribe", "subscriptionId": "t",
                            "stream": {"kind": "thread", "threadId": thread},
                            "afterSequence": frame["event"]["sequence"]}))
        seen = []
        while not seen or seen[-1]["type"] != "thread.assistant.completed":
            message = json.loads(ws.recv(10))
            if message["type"] == "event":
                seen.append(message["event"])
        sequences = [e["sequence"] for e in seen]
        assert sequences == sorted(sequences) and sequences[1] == accepted["sequence"]
        assert seen[-1]["payload"]["text"] == "Echo: hello"


def _query(dsn: str) -> str:
    from psycopg.conninfo import conninfo_to_dict

    return "&".join(f"{k}={v}" for k, v in conninfo_to_dict(dsn).items())


def test_serve_workspace_options(tmp_path: Path, processes: list[ServerProcess]) -> None:
    root, skills = tmp_path / "projects", tmp_path / "skills"
    (root / "app").mkdir(parents=True)
    (root / "app" / "notes.txt").write_text("hello\n")
    (skills / "review").mkdir(parents=True)
    (skills / "review" / "SKILL.md").write_text("---\nname: review\ndescription: Review\n---\n")
    data = tmp_path / "data"
    token = cli("create-token", "--user", "alice", "--name", "laptop", *data_args(data))
    headers = {"Authorization": f"Bearer {token}"}
    server = ServerProcess([*data_args(data), "--workspace-root", str(root), "--allow-commands",
                            "--skills-dir", str(skills)])
    processes.append(server.start())
    thread = tid()
    body = create_thread(thread)
    body["workspace"] = {"path": str(root / "app")}
    assert httpx.post(server.url + "/api/commands", headers=headers, json=body).status_code == 200
    base = f"{server.url}/api/threads/{thread}/workspace"
    assert httpx.get(f"{base}/files?q=notes", headers=headers).json() == {
        "files": [{"path": "notes.txt", "kind": "file"}]}
    ran = httpx.post(f"{base}/run", headers=headers, json={"command": "cat notes.txt"})
    assert json.loads(ran.text.splitlines()[-1])["text"] == "hello\n"
    assert httpx.get(f"{server.url}/api/skills", headers=headers).json() == {
        "skills": [{"name": "review", "description": "Review"}]}
async def _shell_subscriber(url: str, headers: dict[str, str], received: list[int],
                            synced: asyncio.Event, stop: asyncio.Event) -> int:
    """Collect the live shell-event sequences of one process; returns its start watermark."""
    from websockets.asyncio.client import connect as aconnect

    ws_url = url.replace("http://", "ws://") + "/api/ws"
    async with aconnect(ws_url, additional_headers=headers, open_timeout=20) as ws:
        await ws.send(json.dumps({"type": "subscribe", "subscriptionId": "s",
                                  "stream": {"kind": "shell"}, "afterSequence": None}))
        watermark = 0
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "synchronized":
                watermark = frame["sequence"]
                synced.set()
                break
        while not stop.is_set():
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
            except TimeoutError:
                continue
            if frame["type"] == "event":
                received.append(frame["event"]["sequence"])
        return watermark


async def _writer(urls: list[str], headers: dict[str, str], commands: int,
                  acknowledged: list[str]) -> None:
    """Create a thread, then rename it ``commands`` times, round-robin over ``urls``."""
    thread = tid()
    async with httpx.AsyncClient(timeout=30) as client:
        for n in range(commands + 1):
            body = create_thread(thread) if n == 0 else {
                "type": "thread.meta.update", "commandId": f"cmd_{uuid.uuid4().hex}",
                "threadId": thread, "title": f"title {n}"}
            try:
                response = await client.post(urls[n % len(urls)] + "/api/commands",
                                             headers=headers, json=body)
            except httpx.TransportError:
                return  # the process was killed under this request: not acknowledged
            if response.status_code != 200:
                return
            acknowledged.append(body["commandId"])


def _shell_log(dsn: str) -> list[tuple[int, str | None]]:
    import psycopg

    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT sequence, command_id FROM events WHERE event_type IN "
            "('thread.created', 'thread.meta-updated', 'thread.deleted') ORDER BY sequence"
        ).fetchall()
    return [(int(r[0]), r[1]) for r in rows]


async def _run_writers_and_subscribers(
    servers: list[ServerProcess], headers: dict[str, str], writers: int, commands: int,
    dsn: str, kill: ServerProcess | None = None,
) -> tuple[list[list[int]], list[int], list[str]]:
    stop = asyncio.Event()
    received: list[list[int]] = [[] for _ in servers]
    synced = [asyncio.Event() for _ in servers]
    subscribers = [asyncio.create_task(_shell_subscriber(s.url, headers, received[i], synced[i],
                                                         stop))
                   for i, s in enumerate(servers) if s is not kill]
    for i, s in enumerate(servers):
        if s is not kill:
            await asyncio.wait_for(synced[i].wait(), 30)
    acknowledged: list[str] = []
    urls = [s.url for s in servers]
    tasks = [asyncio.create_task(_writer(urls[i % len(urls):] + urls[:i % len(urls)], headers,
                                         commands, acknowledged)) for i in range(writers)]
    if kill is not None:
        while len(acknowledged) < writers * commands // 3:  # mid-write: a third is through
            await asyncio.sleep(0.01)
        kill.kill9()
    await asyncio.gather(*tasks)
    committed = _shell_log(dsn)
    last = committed[-1][0]
    deadline = asyncio.get_running_loop().time() + 30
    while any(i < len(received) and (not received[i] or received[i][-1] < last)
              for i, s in enumerate(servers) if s is not kill):
        assert asyncio.get_running_loop().time() < deadline, "live events stopped arriving"
        await asyncio.sleep(0.05)
    stop.set()
    watermarks = await asyncio.gather(*subscribers)
    live = [received[i] for i, s in enumerate(servers) if s is not kill]
    return live, list(watermarks), acknowledged


def _assert_in_commit_order(live: list[int], watermark: int, dsn: str) -> None:
    """Strictly increasing, and exactly the committed events after the start watermark."""
    assert live == sorted(set(live)), "out of order or repeated"
    assert live == [seq for seq, _ in _shell_log(dsn) if seq > watermark], \
        "a subscriber skipped an event (a gap that filled later)"


@pytest.mark.postgres
def test_two_postgres_processes_publish_in_commit_order_under_concurrent_writers(
    tmp_path: Path, postgres_dsn: str, processes: list[ServerProcess]
) -> None:
    args = ["--database-url", f"postgresql+psycopg://?{_query(postgres_dsn)}",
            "--data-dir", str(tmp_path / "data")]
    token = cli("create-token", "--user", "alice", "--name", "laptop", *args)
    headers = {"Authorization": f"Bearer {token}"}
    servers = [ServerProcess(args), ServerProcess(args)]
    processes.extend(s.start() for s in servers)
    live, watermarks, acknowledged = asyncio.run(_run_writers_and_subscribers(
        servers, headers, writers=8, commands=12, dsn=postgres_dsn))
    assert len(acknowledged) == 8 * 13
    for received, watermark in zip(live, watermarks, strict=True):
        _assert_in_commit_order(received, watermark, postgres_dsn)


@pytest.mark.postgres
def test_kill_9_of_one_postgres_process_mid_write_loses_nothing_acknowledged(
    tmp_path: Path, postgres_dsn: str, processes: list[ServerProcess]
) -> None:
    args = ["--database-url", f"postgresql+psycopg://?{_query(postgres_dsn)}",
            "--data-dir", str(tmp_path / "data")]
    token = cli("create-token", "--user", "alice", "--name", "laptop", *args)
    headers = {"Authorization": f"Bearer {token}"}
    victim, survivor = ServerProcess(args), ServerProcess(args)
    processes.extend([victim.start(), survivor.start()])
    live, watermarks, acknowledged = asyncio.run(_run_writers_and_subscribers(
        [victim, survivor], headers, writers=8, commands=12, dsn=postgres_dsn, kill=victim))
    stored = {command for _, command in _shell_log(postgres_dsn)}
    assert acknowledged and set(acknowledged) <= stored  # every acknowledged command is kept
    _assert_in_commit_order(live[0], watermarks[0], postgres_dsn)
    # the survivor keeps serving, and its log reads back complete through a fresh replay
    with connect(survivor.url.replace("http://", "ws://") + "/api/ws",
                 additional_headers=headers, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "subscribe", "subscriptionId": "r",
                            "stream": {"kind": "shell"}, "afterSequence": 0}))
        replayed = []
        while (frame := json.loads(ws.recv(10)))["type"] != "synchronized":
            replayed.append(frame["event"]["sequence"])
    assert replayed == [seq for seq, _ in _shell_log(postgres_dsn)]
