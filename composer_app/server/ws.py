"""``WS /api/ws``: subscriptions with replay or snapshot, then ``synchronized``, then live events.

Invariants: a subscription is registered with the hub (buffering) before the store is read, and the
read (events or snapshot plus the ``sequence`` watermark) is one consistent transaction; buffered
events with ``sequence`` at or below the watermark are skipped, so no event is lost or repeated
between replay and live. Another user's thread is ``error unknown_thread``. Frames are JSON text.

Bounds: a user holds at most ``max_sockets_per_user`` sockets and a socket at most
``max_subscriptions_per_socket`` subscriptions (past either, an ``error`` frame says so); one
catch-up (replay or snapshot) per socket is read and sent at a time, so a socket's memory is one
catch-up; a subscription that falls ``subscriber_backlog`` events behind is resynchronized from a
snapshot; a socket that accepts nothing for ``ws_send_timeout`` seconds is closed; a socket whose
token is revoked gets an ``unauthorized`` error frame and is closed within ``ws_auth_recheck``
seconds (and at its next subscribe frame). A frame the
server cannot use (binary, oversized, nested too deep, not JSON, not a known frame) gets an
``error`` frame; oversized frames and server failures also close the socket, after that frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from composer_app.core.contracts.wire import (
    SHELL_EVENT_TYPES,
    SubscribeFrame,
    UnsubscribeFrame,
    decode_client_frame,
)
from composer_app.core.errors import ComposerError, ContractError
from composer_app.core.json_depth import within_depth
from composer_app.server.errors import ApiError
from composer_app.server.hub import Subscription
from composer_app.server.json_text import compact
from composer_app.server.routes.threads import shell_snapshot, thread_snapshot
from composer_app.server.services import Services, services_of
from composer_app.server.snapshots import ProviderOf, event_wire, provider_of
from composer_app.server.store.base import Device, Reader, StoredEvent

_log = logging.getLogger(__name__)
MAX_FRAME_DEPTH = 16
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_SERVER_ERROR = 1011
SUBSCRIBE_COST = 0.05  # of a request: a client resubscribes every cached thread on reconnect
AUTH_RECHECK_SECONDS = 1.0


class _Socket:
    """One accepted socket: serialized sends with a timeout, and one catch-up at a time.

    A send that has not finished ``send_timeout`` seconds after it started (the client stopped
    reading and the transport is paused) is cancelled by the socket's watchdog, which then closes
    the socket: every later send raises ``ConnectionError``. The watchdog is one timer per socket,
    armed while sends happen and idle while none does, not one per send (a send that can write at
    once, nearly all of them, finishes without yielding to the loop).
    """

    def __init__(self, websocket: WebSocket, send_timeout: float) -> None:
        self.websocket = websocket
        self._lock = asyncio.Lock()
        self.catch_up = asyncio.Semaphore(1)
        self._send_timeout = send_timeout
        self.stalled = False
        self._sender: asyncio.Task[Any] | None = None  # the task inside a send, while it is
        self._since = 0.0  # when that send started (loop time)
        self._watchdog: asyncio.TimerHandle | None = None

    async def send(self, frame: dict[str, Any]) -> None:
        await self.send_text(compact(frame))

    async def send_text(self, text: str) -> None:
        """Send one text frame (the JSON text of a frame)."""
        async with self._lock:
            if self.stalled:
                raise ConnectionError("the socket stopped reading")
            loop = asyncio.get_running_loop()
            task = asyncio.current_task()
            self._sender, self._since = task, loop.time()
            if self._watchdog is None:
                self._watchdog = loop.call_at(self._since + self._send_timeout, self._check)
            try:
                await self.websocket.send_text(text)
            except asyncio.CancelledError:
                if not self.stalled or task is None or task.uncancel() > 0:
                    raise  # cancelled by someone else
                with contextlib.suppress(Exception):
                    await self.websocket.close(code=CLOSE_POLICY, reason="not reading")
                raise ConnectionError("the socket stopped reading") from None
            finally:
                self._sender = None

    def _check(self) -> None:
        """The watchdog: cancel a send running for ``send_timeout`` (and mark the socket
        stalled), wait for the end of a younger one, stop while no send runs."""
        self._watchdog = None
        sender = self._sender
        if sender is None:
            return
        loop = sender.get_loop()
        due = self._since + self._send_timeout
        if loop.time() < due:
            self._watchdog = loop.call_at(due, self._check)
            return
        self.stalled = True
        sender.cancel()

    async def error(self, code: str, message: str, subscription_id: str | None = None) -> None:
        frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if subscription_id is not None:
            frame["subscriptionId"] = subscription_id
        await self.send(frame)


def _catch_up(reader: Reader, sub: Subscription, after: int | None, limit: int,
              provider: ProviderOf | None = None
              ) -> tuple[int, list[StoredEvent] | None, dict[str, Any] | None]:
    """(watermark, replay events | None, snapshot | None) in one read transaction."""
    watermark = reader.max_sequence()
    if sub.thread_id is not None:
        row = reader.thread(sub.user_id, sub.thread_id)
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


async def _send_catch_up(svc: Services, socket: _Socket, sub: Subscription,
                         after: int | None) -> int | None:
    """Replay or snapshot, then ``synchronized``; the watermark (None: no such thread)."""
    sid = sub.subscription_id
    provider = provider_of(svc.settings.provider)
    async with socket.catch_up:
        watermark, events, snapshot = await svc.store.read(
            lambda r: _catch_up(r, sub, after, svc.settings.replay_limit, provider))
        if events is None and snapshot is None:
            return None
        if events is not None:
            head = _event_frame_head(sid)
            for event in events:
                await socket.send_text(head + compact(event_wire(event)) + "}")
        else:
            await socket.send({"type": "snapshot", "subscriptionId": sid, "sequence": watermark,
                               "snapshot": snapshot})
            del snapshot
        await socket.send({"type": "synchronized", "subscriptionId": sid, "sequence": watermark})
    return watermark


async def _serve_subscription(svc: Services, socket: _Socket, sub: Subscription,
                              after: int | None) -> None:
    sid = sub.subscription_id
    head = _event_frame_head(sid)
    watermark = await _send_catch_up(svc, socket, sub, after)
    if watermark is None:
        svc.hub.remove(sub)
        await socket.error("unknown_thread", "No such thread.", sid)
        return
    while True:
        delivery = await sub.queue.get()
        if delivery is None or sub.overflowed:  # fell too far behind: resync from a snapshot
            sub.overflowed = False
            while not sub.queue.empty():
                sub.queue.get_nowait()
            resynced = await _send_catch_up(svc, socket, sub, None)
            if resynced is None:
                svc.hub.remove(sub)
                await socket.error("unknown_thread", "No such thread.", sid)
                return
            watermark = resynced
            continue
        if delivery.event.sequence <= watermark:
            continue
        watermark = delivery.event.sequence
        text = delivery.text
        if text is None:  # the first subscription to send it encodes it for all
            text = delivery.text = compact(event_wire(delivery.event))
        await socket.send_text(head + text + "}")


def _event_frame_head(subscription_id: str) -> str:
    """The text of an ``event`` frame up to its event: the frame is this, the event's JSON and a
    closing brace (the same text as encoding the whole frame)."""
    return '{"type":"event","subscriptionId":' + compact(subscription_id) + ',"event":'


def _decode(raw: str, settings: Any) -> SubscribeFrame | UnsubscribeFrame:
    if not within_depth(raw, MAX_FRAME_DEPTH):
        raise ContractError(f"The frame nests deeper than {MAX_FRAME_DEPTH} levels.")
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        raise ContractError("The frame is not valid JSON.") from None
    frame = decode_client_frame(obj)
    assert isinstance(frame, SubscribeFrame | UnsubscribeFrame)
    return frame


async def websocket_endpoint(websocket: WebSocket) -> None:
    svc = services_of(websocket)
    try:
        device = await svc.auth.device(websocket.headers.get("authorization"))
        svc.limiter.check(device.user_id)
    except ApiError as exc:
        await websocket.close(code=CLOSE_POLICY, reason=exc.code)
        return
    settings = svc.settings
    await websocket.accept()
    socket = _Socket(websocket, settings.ws_send_timeout)
    if not svc.hub.open_socket(device.user_id, settings.max_sockets_per_user):
        with contextlib.suppress(Exception):
            await socket.error("too_many_connections",
                               f"At most {settings.max_sockets_per_user} connections per user.")
            await websocket.close(code=CLOSE_POLICY, reason="too many connections")
        return
    active: dict[str, tuple[Subscription, asyncio.Task[None]]] = {}
    loop = asyncio.get_running_loop()
    watchdog = loop.create_task(_close_when_revoked(svc, socket, device))
    checked_at = loop.time()

    def drop(sid: str) -> None:
        entry = active.pop(sid, None)
        if entry is not None:
            svc.hub.remove(entry[0])
            entry[1].cancel()

    try:
        while not socket.stalled:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                await socket.error("invalid_frame", "Frames are JSON text, not binary.")
                continue
            if len(raw) > settings.max_ws_frame_bytes:
                await socket.error("too_large",
                                   f"A frame may hold at most {settings.max_ws_frame_bytes} bytes.")
                await websocket.close(code=CLOSE_TOO_BIG, reason="frame too large")
                break
            try:
                frame = _decode(raw, settings)
            except ContractError as exc:
                await socket.error("invalid_frame", str(exc) or "Invalid frame.")
                continue
            if isinstance(frame, UnsubscribeFrame):
                drop(frame.subscription_id)
                continue
            drop(frame.subscription_id)
            if len(active) >= settings.max_subscriptions_per_socket:
                await socket.error(
                    "too_many_subscriptions",
                    f"At most {settings.max_subscriptions_per_socket} subscriptions per "
                    "connection.", frame.subscription_id)
                continue
            try:
                svc.limiter.check(device.user_id, SUBSCRIBE_COST)
                now = loop.time()
                if now - checked_at >= AUTH_RECHECK_SECONDS:  # a resubscribe burst reads once
                    await svc.auth.still_valid(device)
                    checked_at = now
            except ApiError as exc:
                await socket.error(exc.code, exc.message, frame.subscription_id)
                if exc.status == 401:
                    await websocket.close(code=CLOSE_POLICY, reason="unauthorized")
                    break
                continue
            thread_id = getattr(frame.stream, "thread_id", None)
            sub = Subscription(frame.subscription_id, device.user_id, thread_id,
                               backlog=settings.subscriber_backlog)
            svc.hub.add(sub)
            task = asyncio.get_running_loop().create_task(
                _guarded(svc, socket, sub, frame.after_sequence))
            active[frame.subscription_id] = (sub, task)
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass
    except Exception:
        _log.exception("websocket failed")
        with contextlib.suppress(Exception):
            await socket.error("unavailable", "The server failed.")
            await websocket.close(code=CLOSE_SERVER_ERROR)
    finally:
        watchdog.cancel()
        for sid in list(active):
            drop(sid)
        svc.hub.close_socket(device.user_id)


async def _close_when_revoked(svc: Services, socket: _Socket, device: Device) -> None:
    """Close the socket (after an ``unauthorized`` error frame) once its token is revoked."""
    while True:
        await asyncio.sleep(svc.settings.ws_auth_recheck)
        try:
            await svc.auth.still_valid(device)
        except ApiError as exc:
            with contextlib.suppress(Exception):
                await socket.error(exc.code, exc.message)
            with contextlib.suppress(Exception):
                await socket.websocket.close(code=CLOSE_POLICY, reason="unauthorized")
            return
        except ComposerError:
            continue  # the store is briefly unavailable: check again later


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
            await socket.error("unavailable", "The server failed to read.", sub.subscription_id)
