"""Thread and message ids are per user, over HTTP and WebSocket against a real server process on
SQLite and on a throwaway PostgreSQL: another user's id is simply free, and every route answers a
thread of another user exactly as an unknown id (same status, same body)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.harness import cid, create_thread, tid, turn_start
from tests.server.live import ServerProcess, cli, data_args


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[ServerProcess,
                                                                             list[str]]]:
    if request.param == "sqlite":
        args = data_args(tmp_path / "data")
    else:
        from tests.server.test_main import _query

        dsn = request.getfixturevalue("postgres_dsn")
        args = ["--database-url", f"postgresql+psycopg://?{_query(dsn)}",
                "--data-dir", str(tmp_path / "data"), "--storage-dir", str(tmp_path / "blobs")]
    tokens = [cli("create-token", "--user", user, "--name", "laptop", *args)
              for user in ("alice", "bob")]
    process = ServerProcess(args).start()
    try:
        yield process, tokens
    finally:
        process.stop()


class Client:
    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token
        self.http = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"},
                                 timeout=30.0)

    def command(self, body: dict[str, Any]) -> httpx.Response:
        return self.http.post("/api/commands", json=body)

    def ok(self, body: dict[str, Any]) -> dict[str, Any]:
        response = self.command(body)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def settled(self, thread_id: str) -> dict[str, Any]:
        """The thread's snapshot once no reply is streaming."""
        deadline = time.monotonic() + 30
        while True:
            snapshot: dict[str, Any] = self.http.get(f"/api/threads/{thread_id}").json()
            if not any(m["isStreaming"] for m in snapshot["messages"]):
                return snapshot
            assert time.monotonic() < deadline, snapshot
            time.sleep(0.05)

    def replay(self, thread_id: str | None, after: int = 0) -> list[dict[str, Any]]:
        """The frames of one subscription up to ``synchronized`` (or its error)."""
        stream = {"kind": "shell"} if thread_id is None else {"kind": "thread",
                                                               "threadId": thread_id}
        ws_url = self.url.replace("http://", "ws://") + "/api/ws"
        frames = []
        with connect(ws_url, additional_headers={"Authorization": f"Bearer {self.token}"}) as ws:
            ws.send(json.dumps({"type": "subscribe", "subscriptionId": "s", "stream": stream,
                                "afterSequence": after}))
            while True:
                frame = json.loads(ws.recv(timeout=30))
                frames.append(frame)
                if frame["type"] in ("synchronized", "error"):
                    return frames


@pytest.fixture
def users(server: tuple[ServerProcess, list[str]]) -> Iterator[tuple[Client, Client]]:
    """Alice and bob, each with a token of their own, on the running server."""
    process, tokens = server
    alice, bob = (Client(process.url, token) for token in tokens)
    try:
        yield alice, bob
    finally:
        alice.http.close()
        bob.http.close()


def _answer(response: httpx.Response) -> tuple[int, Any]:
    try:
        body = response.json()
    except ValueError:
        body = response.text
    return response.status_code, body


def test_two_users_use_the_same_thread_and_message_ids_independently(
        users: tuple[Client, Client]) -> None:
    alice, bob = users
    thread, message = tid(), "msg_same_for_both"
    alice.ok(create_thread(thread, title="Alice's"))
    alice.ok(turn_start(thread, "from alice", message_id=message))
    # Bob's create and message with the same ids succeed: no "exists", no "already used".
    bob.ok(create_thread(thread, title="Bob's"))
    bob.ok(turn_start(thread, "from bob", message_id=message))
    bootstrapped = tid()
    alice.ok(create_thread(bootstrapped, title="Alice's other"))
    bob.ok(turn_start(bootstrapped, "bob bootstraps it", bootstrap=True))
    mine, theirs = alice.settled(thread), bob.settled(thread)
    assert (mine["thread"]["title"], theirs["thread"]["title"]) == ("Alice's", "Bob's")
    assert [m["text"] for m in mine["messages"] if m["role"] == "user"] == ["from alice"]
    assert [m["text"] for m in theirs["messages"] if m["role"] == "user"] == ["from bob"]
    assert mine["messages"][0]["messageId"] == theirs["messages"][0]["messageId"] == message
    assert bob.settled(bootstrapped)["thread"]["title"] == "New"
    assert alice.settled(bootstrapped)["messages"] == []
    # Within one user an id is still unique.
    again = bob.command(create_thread(thread))
    assert again.status_code == 409 and again.json()["error"]["code"] == "thread_exists"
    reused = bob.command(turn_start(thread, "twice", message_id=message))
    assert reused.status_code == 400
    # Each user's replay (thread and shell streams) holds only their own events.
    for client, text in ((alice, "from alice"), (bob, "from bob")):
        frames = client.replay(thread)
        sent = [f["event"]["payload"]["message"] for f in frames
                if f["type"] == "event" and f["event"]["type"] == "thread.message-sent"]
        assert [m["text"] for m in sent] == [text]
        assert sent[0] == client.settled(thread)["messages"][0]  # the row, as the snapshot has
        shell = [f["event"]["payload"]["thread"]["title"] for f in client.replay(None)
                 if f["type"] == "event" and f["event"]["type"] == "thread.created"]
        assert len(shell) == 2 and shell[0] == ("Alice's" if client is alice else "Bob's")
    # Deleting bob's thread leaves alice's with the same id untouched.
    bob.ok({"type": "thread.delete", "commandId": cid(), "threadId": thread,
            "createdAt": "2026-11-30T14:02:11Z"})
    assert bob.http.get(f"/api/threads/{thread}").status_code == 404
    assert alice.settled(thread)["thread"]["title"] == "Alice's"


def test_another_users_thread_answers_exactly_like_an_unknown_id(
        users: tuple[Client, Client]) -> None:
    alice, bob = users
    hers, unknown = tid(), tid()
    alice.ok(create_thread(hers, title="Private"))
    alice.ok(turn_start(hers, "secret", message_id="msg_hers"))
    turn = alice.settled(hers)["messages"][1]["turnId"]
    share = alice.http.post(f"/api/threads/{hers}/shares")
    assert share.status_code == 201
    share_id = share.json()["shareId"]

    def routes(thread_id: str) -> list[httpx.Response]:
        return [
            bob.http.get(f"/api/threads/{thread_id}"),
            bob.http.get(f"/api/threads/{thread_id}", params={"turnLimit": "1"}),
            bob.http.get(f"/api/threads/{thread_id}/shares"),
            bob.http.post(f"/api/threads/{thread_id}/shares"),
            bob.http.delete(f"/api/threads/{thread_id}/shares/{share_id}"),
            bob.http.get(f"/api/threads/{thread_id}/messages/msg_hers/sources/src_1/download"),
            bob.http.get(f"/api/threads/{thread_id}/workspace/files"),
            bob.http.get(f"/api/threads/{thread_id}/workspace/file", params={"path": "a.txt"}),
            bob.http.get(f"/api/threads/{thread_id}/workspace/changes"),
            bob.http.post(f"/api/threads/{thread_id}/workspace/run", json={"command": "ls"}),
        ]

    def commands(thread_id: str) -> list[httpx.Response]:
        at = "2026-11-30T14:02:11Z"
        return [
            bob.command({"type": "thread.meta.update", "commandId": cid(),
                         "threadId": thread_id, "title": "Mine now", "createdAt": at}),
            bob.command(turn_start(thread_id, "hello?")),
            bob.command({"type": "thread.turn.interrupt", "commandId": cid(),
                         "threadId": thread_id, "turnId": turn, "createdAt": at}),
            bob.command({"type": "thread.delete", "commandId": cid(), "threadId": thread_id,
                         "createdAt": at}),
        ]

    for answers in (routes, commands):
        for of_hers, of_unknown in zip(answers(hers), answers(unknown), strict=True):
            assert _answer(of_hers) == _answer(of_unknown), of_hers.request.url
            assert of_hers.status_code == 404, of_hers.text
    assert bob.replay(hers) == bob.replay(unknown)
    assert bob.replay(hers)[-1]["code"] == "unknown_thread"
    # Nothing bob tried changed alice's thread; her share link still works.
    snapshot = alice.settled(hers)
    assert snapshot["thread"]["title"] == "Private"
    assert snapshot["messages"][0]["text"] == "secret"
    assert [s["shareId"] for s in alice.http.get(f"/api/threads/{hers}/shares").json()[
        "shares"]] == [share_id]
