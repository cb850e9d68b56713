"""``WS /api/ws``: subscriptions with replay or snapshot, then ``synchronized``, then live events.

Invariants: a subscription is registered with the hub (buffering) before the store is read, and the
read (events or snapshot plus the ``sequence`` watermark) is one consistent transaction; buffered
events with ``sequence`` at or below the watermark are skipped, so no event is lost or repeated
between replay and live. Another user's thread is ``error unknown_thread``. Frames are JSON text.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from composer_app.core.contracts.wire import (
    SHELL_EVENT_TYPES,
    SubscribeFrame,
    UnsubscribeFrame,
    decode_client_frame,
)
from composer_app.core.errors import ComposerError, ContractError
from composer_app.server.errors import ApiError
from composer_app.server.hub import Subscription
from composer_app.server.routes.threads import shell_snapshot, thread_snapshot
from composer_app.server.services import Services, services_of
from composer_app.server.snapshots import ProviderOf, event_wire, provider_of
from composer_app.server.store.base import Reader, StoredEvent


class _Socket:
    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self._lock = asyncio.Lock()

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
        async with self._lock:
            await self.websocket.send_text(text)


def _catch_up(reader: Reader, sub: Subscription, after: int | None, limit: int,
              provider: ProviderOf | None = None
              ) -> tuple[int, list[StoredEvent] | None, dict[str, Any] | None]:
    """(watermark, replay events | None, snapshot | None) in one read transaction."""
    watermark = reader.max_sequence()
    if sub.thread_id is not None:
        row = reader.thread(sub.thread_id)
        if row is None or row.user_id != sub.user_id:
            return watermark, None, None
    if after is not None and after <= watermark:
        types = SHELL_EVENT_TYPES if sub.thread_id is None else None
        events = reader.events_after(after, sub.user_id, thread_id=sub.thread_id, types=types,
                                     limit=limit + 1)
        if len(events) <= limit:
            return watermark, events, None
    if sub.thread_id is None:
        return watermark, None, shell_snapshot(reader, sub.user_id, provider)
    return watermark, None, thread_snapshot(reader, sub.user_id, sub.thread_id,
                                            provider=provider)


async def _serve_subscription(svc: Services, socket: _Socket, sub: Subscription,
                              after: int | None) -> None:
    sid = sub.subscription_id
    provider = provider_of(svc.settings.provider)
    watermark, events, snapshot = await svc.store.read(
        lambda r: _catch_up(r, sub, after, svc.settings.replay_limit, provider))
    if events is None and snapshot is None:
        svc.hub.remove(sub)
        await socket.send({"type": "error", "subscriptionId": sid, "code": "unknown_thread",
                           "message": "No such thread."})
        return
    if events is not None:
        for event in events:
            await socket.send({"type": "event", "subscriptionId": sid, "event": event_wire(event)})
    else:
        await socket.send({"type": "snapshot", "subscriptionId": sid, "sequence": watermark,
                           "snapshot": snapshot})
    await socket.send({"type": "synchronized", "subscriptionId": sid, "sequence": watermark})
    while True:
        event = await sub.queue.get()
        if event.sequence <= watermark:
            continue
        watermark = event.sequence
        await socket.send({"type": "event", "subscriptionId": sid, "event": event_wire(event)})


async def websocket_endpoint(websocket: WebSocket) -> None:
    svc = services_of(websocket)
    try:
        device = await svc.auth.device(websocket.headers.get("authorization"))
    except ApiError:
        await websocket.close(code=1008, reason="unauthorized")
        return
    await websocket.accept()
    socket = _Socket(websocket)
    active: dict[str, tuple[Subscription, asyncio.Task[None]]] = {}

    def drop(sid: str) -> None:
        entry = active.pop(sid, None)
        if entry is not None:
            svc.hub.remove(entry[0])
            entry[1].cancel()

    try:
        while True:
            raw = await websocket.receive_text()
            try:
                frame = decode_client_frame(json.loads(raw))
            except (ValueError, ContractError) as exc:
                await socket.send({"type": "error", "code": "invalid_frame",
                                   "message": str(exc) or "Invalid frame."})
                continue
            if isinstance(frame, UnsubscribeFrame):
                drop(frame.subscription_id)
                continue
            assert isinstance(frame, SubscribeFrame)
            drop(frame.subscription_id)
            thread_id = getattr(frame.stream, "thread_id", None)
            sub = Subscription(frame.subscription_id, device.user_id, thread_id)
            svc.hub.add(sub)
            task = asyncio.get_running_loop().create_task(
                _guarded(svc, socket, sub, frame.after_sequence))
            active[frame.subscription_id] = (sub, task)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        for sid in list(active):
            drop(sid)


async def _guarded(svc: Services, socket: _Socket, sub: Subscription, after: int | None) -> None:
    """Serve one subscription until it is dropped or the socket fails.

    The serving coroutine is created here, inside the task: a subscription dropped before its task
    first runs (subscribe then unsubscribe, or a socket closed at once) leaves no coroutine behind
    that was never awaited.
    """
    try:
        await _serve_subscription(svc, socket, sub, after)
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        return
    except ComposerError:
        with contextlib.suppress(Exception):
            await socket.send({"type": "error", "subscriptionId": sub.subscription_id,
                               "code": "unavailable", "message": "The server failed to read."})
