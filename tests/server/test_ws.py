"""WS /api/ws: replay after a cursor, snapshot on null or a large gap, live events, isolation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from composer_app.core.contracts.wire import decode_server_frame
from tests.server.harness import Harness, cid, create_thread, harness, tid, turn_start


def subscribe(ws: Any, sid: str, after: int | None, thread_id: str | None = None) -> None:
    stream = {"kind": "shell"} if thread_id is None else {"kind": "thread", "threadId": thread_id}
    ws.send_json({"type": "subscribe", "subscriptionId": sid, "stream": stream,
                  "afterSequence": after})


def until_synchronized(ws: Any) -> list[dict[str, Any]]:
    frames = []
    while True:
        frame = ws.receive_json()
        decode_server_frame(frame)  # every frame matches the wire models
        frames.append(frame)
        if frame["type"] in ("synchronized", "error"):
            return frames


def test_replay_after_cursor_then_live(h: Harness) -> None:
    thread = tid()
    first = h.ok(h.alice, create_thread(thread))["sequence"]
    h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": thread,
                   "title": "B"})
    last = h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": thread,
                          "title": "C"})["sequence"]
    with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        subscribe(ws, "s1", first)
        frames = until_synchronized(ws)
        assert [f["type"] for f in frames] == ["event", "event", "synchronized"]
        assert [f["event"]["payload"]["title"] for f in frames[:2]] == ["B", "C"]
        assert frames[-1] == {"type": "synchronized", "subscriptionId": "s1", "sequence": last}
        live = h.ok(h.alice, {"type": "thread.delete", "commandId": cid(), "threadId": thread})
        frame = ws.receive_json()
        assert frame["type"] == "event" and frame["subscriptionId"] == "s1"
        assert frame["event"]["type"] == "thread.deleted"
        assert frame["event"]["sequence"] == live["sequence"]


def test_null_cursor_gets_a_snapshot(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread, "Mine"))
    h.ok(h.bob, create_thread(tid(), "Not yours"))
    with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        subscribe(ws, "s", None)
        snap, synced = until_synchronized(ws)
        assert snap["type"] == "snapshot" and snap["snapshot"]["kind"] == "shell"
        assert [t["title"] for t in snap["snapshot"]["threads"]] == ["Mine"]
        assert snap["sequence"] == synced["sequence"] == snap["snapshot"]["sequence"]


def test_large_gap_gets_a_snapshot(tmp_path: Path) -> None:
    with harness(tmp_path, replay_limit=3) as h:
        thread = tid()
        first = h.ok(h.alice, create_thread(thread))["sequence"]
        for n in range(4):
            h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": thread,
                           "title": f"T{n}"})
        with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
            subscribe(ws, "t", first, thread)
            frames = until_synchronized(ws)
            assert [f["type"] for f in frames] == ["snapshot", "synchronized"]
            assert frames[0]["snapshot"]["thread"]["title"] == "T3"
            subscribe(ws, "u", first + 1, thread)  # a gap of 3: replay
            assert [f["type"] for f in until_synchronized(ws)] == ["event"] * 3 + ["synchronized"]


def test_cursor_ahead_of_the_log_gets_a_snapshot(h: Harness) -> None:
    h.ok(h.alice, create_thread(tid()))
    with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        subscribe(ws, "s", 10_000)
        assert [f["type"] for f in until_synchronized(ws)] == ["snapshot", "synchronized"]


def test_shell_stream_carries_only_own_thread_list_events(h: Harness) -> None:
    with h.client.websocket_connect("/api/ws", headers=h.bob) as ws:
        subscribe(ws, "s", 0)
        assert [f["type"] for f in until_synchronized(ws)] == ["synchronized"]
        h.ok(h.alice, turn_start(tid(), "alice's secret", bootstrap=True))
        h.wait_turns()
        mine = tid()
        h.ok(h.bob, turn_start(mine, "bob's", bootstrap=True))
        h.wait_turns()
        frame = ws.receive_json()
        assert frame["event"]["type"] == "thread.created"
        assert frame["event"]["threadId"] == mine
        subscribe(ws, "again", 0)  # replay for bob never includes alice's events
        frames = until_synchronized(ws)
        assert {f["event"]["threadId"] for f in frames if f["type"] == "event"} == {mine}


def test_other_users_thread_stream_is_an_error(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    with h.client.websocket_connect("/api/ws", headers=h.bob) as ws:
        for after in (None, 0):
            subscribe(ws, "x", after, thread)
            frame = ws.receive_json()
            assert frame == {"type": "error", "subscriptionId": "x", "code": "unknown_thread",
                             "message": frame["message"]}


def test_invalid_frames_get_an_error_and_the_socket_stays(h: Harness) -> None:
    with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        ws.send_text("{nope")
        assert ws.receive_json()["type"] == "error"
        ws.send_json({"type": "subscribe", "subscriptionId": "s", "stream": {"kind": "moon"}})
        assert ws.receive_json()["type"] == "error"
        subscribe(ws, "s", 0)
        assert until_synchronized(ws)[-1]["type"] == "synchronized"


def test_unsubscribe_stops_events(h: Harness) -> None:
    with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        subscribe(ws, "a", 0)
        until_synchronized(ws)
        ws.send_json({"type": "unsubscribe", "subscriptionId": "a"})
        subscribe(ws, "b", None)
        until_synchronized(ws)  # processed in order: "a" is gone before "b" exists
        h.ok(h.alice, create_thread(tid()))
        frame = ws.receive_json()
        assert frame["subscriptionId"] == "b"


def test_socket_without_token_is_refused(h: Harness) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), h.client.websocket_connect("/api/ws") as ws:
        ws.receive_json()


def test_a_subscription_replaced_at_once_leaves_nothing_behind(h: Harness) -> None:
    # Subscriptions dropped right after they were made leave no coroutine behind (a never-awaited
    # one would be an error here: warnings are errors). One may still have answered before its
    # unsubscribe was read; the last subscription is served all the same.
    import gc

    with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        for _ in range(20):
            subscribe(ws, "s", None)
            ws.send_json({"type": "unsubscribe", "subscriptionId": "s"})
        subscribe(ws, "last", None)
        frames = until_synchronized(ws)
        while frames[-1].get("subscriptionId") != "last":
            assert frames[-1]["subscriptionId"] == "s"
            frames = until_synchronized(ws)
        assert frames[-1]["type"] == "synchronized"
    gc.collect()


def test_garbage_frames_get_an_error_frame_and_the_socket_stays(h: Harness) -> None:
    with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        ws.send_bytes(b"\x00\x01binary")
        assert ws.receive_json() == {"type": "error", "code": "invalid_frame",
                                     "message": "Frames are JSON text, not binary."}
        ws.send_text("[" * 60_000)
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["code"] == "invalid_frame"
        assert "deeper" in frame["message"]
        ws.send_text("{not json")
        assert ws.receive_json()["code"] == "invalid_frame"
        ws.send_text('{"type": "subscribe", "subscriptionId": "\\ud800", "stream": 1}')
        assert ws.receive_json()["code"] == "invalid_frame"
        subscribe(ws, "s", None)
        assert [f["type"] for f in until_synchronized(ws)] == ["snapshot", "synchronized"]


def test_an_oversized_frame_gets_an_error_frame_before_close(h: Harness) -> None:
    from starlette.websockets import WebSocketDisconnect

    with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        ws.send_text(" " * (h.settings.max_ws_frame_bytes + 1))
        assert ws.receive_json()["code"] == "too_large"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1009


def test_subscriptions_per_socket_and_sockets_per_user_are_capped(tmp_path: Path) -> None:
    from starlette.websockets import WebSocketDisconnect

    with harness(tmp_path, max_subscriptions_per_socket=3, max_sockets_per_user=2) as h, \
            h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        for n in range(3):
            subscribe(ws, f"s{n}", None)
            until_synchronized(ws)
        subscribe(ws, "s3", None)
        frame = ws.receive_json()
        assert frame["code"] == "too_many_subscriptions" and frame["subscriptionId"] == "s3"
        subscribe(ws, "s0", None)  # replacing one of its own is fine
        assert until_synchronized(ws)[-1]["type"] == "synchronized"
        with h.client.websocket_connect("/api/ws", headers=h.alice2):
            with h.client.websocket_connect("/api/ws", headers=h.alice) as third:
                assert third.receive_json()["code"] == "too_many_connections"
                with pytest.raises(WebSocketDisconnect):
                    third.receive_json()
            with h.client.websocket_connect("/api/ws", headers=h.bob) as other_user:
                subscribe(other_user, "s", None)
                assert until_synchronized(other_user)[-1]["type"] == "synchronized"


def test_a_subscriber_that_falls_behind_is_resynchronized_from_a_snapshot(
        tmp_path: Path) -> None:
    from composer_app.server.hub import Delivery, Subscription

    sub = Subscription("s", "usr", None, backlog=3)
    from composer_app.server.store.base import StoredEvent

    for n in range(5):
        sub.offer(Delivery(StoredEvent(n + 1, f"evt_{n}", "thr", "thread.created", "", None, {},
                                       "usr")))
    assert sub.overflowed and sub.queue.qsize() == 1 and sub.queue.get_nowait() is None
    with harness(tmp_path, subscriber_backlog=2) as h, \
            h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
        subscribe(ws, "s", None)
        until_synchronized(ws)
        hub = h.client.app.state.services.hub  # type: ignore[attr-defined]
        threads = [tid() for _ in range(6)]

        def burst() -> None:  # published in one go: the sender cannot keep up
            h.client.portal.call(_create_many, h, threads)  # type: ignore[union-attr]
        burst()
        frames = []
        while True:
            frame = ws.receive_json()
            frames.append(frame)
            if frame["type"] == "snapshot":
                break
        snapshot_ids = {t["threadId"] for t in frame["snapshot"]["threads"]}
        assert set(threads) <= snapshot_ids
        assert ws.receive_json()["type"] == "synchronized"
        assert hub.subscription_count == 1


async def _create_many(h: Harness, threads: list[str]) -> None:
    from composer_app.core.contracts.wire import decode_command
    from composer_app.server.ledger import execute_command

    store = h.store
    device = await h.client.app.state.services.auth.device(  # type: ignore[attr-defined]
        h.alice["Authorization"])

    def all_at_once(tx: Any) -> None:
        for thread in threads:
            body = create_thread(thread)
            execute_command(tx, device, decode_command(body), body["commandId"])
    await store.write(all_at_once)


def test_an_open_socket_of_a_revoked_token_is_closed(tmp_path: Path) -> None:
    from starlette.websockets import WebSocketDisconnect

    from composer_app.server.administration import revoke_token

    with harness(tmp_path, ws_auth_recheck=0.05) as h, \
            h.client.websocket_connect("/api/ws", headers=h.bob) as ws:
        subscribe(ws, "s", None)
        until_synchronized(ws)
        h.client.portal.call(_revoke, h, revoke_token)  # type: ignore[union-attr]
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


async def _revoke(h: Harness, revoke_token: Any) -> None:
    import asyncio

    assert await asyncio.to_thread(revoke_token, h.store, "bob", "laptop") == 1


def test_event_frames_are_the_compact_json_of_the_frame_and_shared_by_subscriptions(
        h: Harness) -> None:
    """Live and replayed event frames are byte for byte the compact JSON of the frame object
    (non-ASCII text as is), whether a subscription encoded the event or reused another's text."""
    import json

    def exact(text: str) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(text)
        assert text == json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
        return frame

    thread = tid()
    first = h.ok(h.alice, create_thread(thread, "Grüße"))["sequence"]
    with h.client.websocket_connect("/api/ws", headers=h.alice) as one, \
            h.client.websocket_connect("/api/ws", headers=h.alice) as two:
        for ws, sid in ((one, "a"), (two, "b\u00e9")):
            subscribe(ws, sid, first - 1, thread)
            replayed = exact(ws.receive_text())
            assert replayed["subscriptionId"] == sid
            assert replayed["event"]["payload"]["thread"]["title"] == "Grüße"
            assert exact(ws.receive_text())["type"] == "synchronized"
        h.ok(h.alice, turn_start(thread, "naïve ☃ \"quoted\""))
        for ws, sid in ((one, "a"), (two, "b\u00e9")):
            frame = exact(ws.receive_text())
            assert frame["subscriptionId"] == sid
            assert frame["event"]["type"] == "thread.message-sent"
            assert frame["event"]["payload"]["message"]["text"] == "naïve ☃ \"quoted\""


class _PausedSocket:
    """A WebSocket whose client reads nothing: a send waits until ``drained`` is set."""

    def __init__(self) -> None:
        import asyncio

        self.drained = asyncio.Event()
        self.sent: list[str] = []
        self.closed: list[int] = []

    async def send_text(self, text: str) -> None:
        await self.drained.wait()
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed.append(code)


def test_a_send_that_cannot_finish_in_time_closes_the_socket_and_others_are_not_stalled() -> None:
    import asyncio

    from composer_app.server.ws import CLOSE_POLICY, _Socket

    async def scenario() -> None:
        slow = _PausedSocket()
        socket = _Socket(slow, 1.0)  # type: ignore[arg-type]
        slow.drained.set()
        for n in range(3):  # sends that can write at once (the first arms the watchdog)
            await socket.send_text(f"frame {n}")
        await asyncio.sleep(0.5)
        slow.drained.clear()
        asyncio.get_running_loop().call_later(0.7, slow.drained.set)
        # the watchdog armed by the first send fires while this one runs: it is younger than
        # the timeout, so it finishes
        await socket.send_text("late but in time")
        assert not socket.stalled and slow.sent[-1] == "late but in time"
        await asyncio.sleep(1.2)  # longer than the timeout, but no send is running
        slow.drained.clear()
        began = asyncio.get_running_loop().time()
        with pytest.raises(ConnectionError):
            await socket.send_text("never read")
        assert 0.95 <= asyncio.get_running_loop().time() - began < 3.0
        assert socket.stalled and slow.closed == [CLOSE_POLICY]
        with pytest.raises(ConnectionError):
            await socket.send_text("after the stall")

    asyncio.run(scenario())


def test_cancelling_a_waiting_send_is_not_taken_for_a_stall() -> None:
    import asyncio

    from composer_app.server.ws import _Socket

    async def scenario() -> None:
        slow = _PausedSocket()
        socket = _Socket(slow, 5.0)  # type: ignore[arg-type]
        task = asyncio.ensure_future(socket.send_text("waits"))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not socket.stalled and slow.closed == []
        slow.drained.set()
        await socket.send_text("next")
        assert slow.sent == ["next"]

    asyncio.run(scenario())
