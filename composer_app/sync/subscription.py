"""The event socket: one WebSocket, resubscribed from the cursors after every reconnect.

Invariants: every (re)connect first refreshes the environment's capabilities, then subscribes the
shell and every cached thread with its stored cursor (``afterSequence``; ``null`` when none), so the
server replays the gap or sends a snapshot and nothing is missed; duplicates are dropped by the
replica's per-stream cursor. Reconnects back off 1 s doubling to 64 s with jitter, forever; after 7
failures the state is ``offline``; ``wake()`` (*Retry now*) cuts a wait short. A refused token
(``401``/``403``) puts the state to ``unauthorized`` and waits for ``wake()`` (``set_token`` then
reconnects with the new token).

The loop never ends on its own: every failure (network, protocol, a local write that fails
because the client disk is full, anything unexpected) ends only the current connection, is logged
and reported through ``on_state``/``on_problem``, and is followed by a reconnect with backoff. A
server frame that cannot be read (not JSON, nested too deep, not a known frame) is logged and
skipped; the connection stays up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
from collections.abc import Awaitable, Callable

import websockets
from websockets.exceptions import InvalidStatus, WebSocketException

from composer_app.core.contracts.environment import Environment
from composer_app.core.contracts.wire import (
    ErrorFrame,
    EventFrame,
    ShellStream,
    SnapshotFrame,
    SubscribeFrame,
    SynchronizedFrame,
    ThreadStream,
    UnsubscribeFrame,
    decode_server_frame,
)
from composer_app.core.errors import AuthError, ContractError, StorageError, TransportError
from composer_app.core.json_depth import JsonTooDeep, check_json_depth
from composer_app.sync.backoff import Clock, ReconnectBackoff
from composer_app.sync.replica import SHELL, Changes, Replica, thread_stream
from composer_app.sync.transport import ws_url

CONNECTING = "connecting"
CONNECTED = "connected"
RECONNECTING = "reconnecting"
OFFLINE = "offline"
ERROR = "error"
UNAUTHORIZED = "unauthorized"
PING_INTERVAL_SECONDS = 20.0
OPEN_TIMEOUT_SECONDS = 10.0
MAX_FRAME_DEPTH = 64
_log = logging.getLogger(__name__)


class Subscription:
    """Keeps the socket up and feeds frames to the replica."""

    def __init__(self, base_url: str, token: str, replica: Replica, clock: Clock,
                 rng: random.Random, *, thread_ids: Callable[[], list[str]],
                 fetch_environment: Callable[[], Awaitable[Environment]],
                 on_connected: Callable[[Environment], None],
                 on_disconnected: Callable[[], None],
                 on_state: Callable[[str, int], None],
                 on_problem: Callable[[str, str], None] | None = None) -> None:
        self._url = ws_url(base_url)
        self._token = token
        self._replica = replica
        self._clock = clock
        self._backoff = ReconnectBackoff(rng)
        self._thread_ids = thread_ids
        self._fetch_environment = fetch_environment
        self._on_connected = on_connected
        self._on_disconnected = on_disconnected
        self._on_state = on_state
        self._on_problem = on_problem
        self._last_problem: str | None = None
        self.skipped_frames = 0
        self._wake = asyncio.Event()
        self._ws: websockets.ClientConnection | None = None
        self._subscribed: set[str] = set()
        self.synchronized: set[str] = set()

    def wake(self) -> None:
        """*Retry now*: end the current backoff wait."""
        self._wake.set()

    def set_token(self, token: str) -> None:
        """Sign the next connection with ``token`` (the current one is dropped by the caller)."""
        self._token = token

    async def drop(self) -> None:
        """Close the current socket (the loop reconnects)."""
        if self._ws is not None:
            await self._ws.close()

    async def run(self) -> None:
        """Connect, resubscribe, consume; reconnect with backoff on any failure, forever."""
        while True:
            self._on_state(CONNECTING if self._backoff.failures == 0 else RECONNECTING, 0)
            failed_auth = False
            try:
                await self._session()
            except AuthError:
                failed_auth = True
            except StorageError as exc:
                self._problem("storage", f"Cannot write to this device's storage: {exc}")
            except (TransportError, OSError, WebSocketException, TimeoutError) as exc:
                _log.info("event socket closed: %s", exc or type(exc).__name__)
            except Exception as exc:  # never let the loop die: reconnect instead
                _log.exception("event socket failed")
                self._problem("failure", f"The event stream failed: {exc or type(exc).__name__}")
            self._ws = None
            self._subscribed.clear()
            self.synchronized.clear()
            self._on_disconnected()
            self._wake.clear()
            if failed_auth:
                self._on_state(UNAUTHORIZED, 0)
                await self._wake.wait()
                continue
            delay = self._backoff.next_delay()
            self._on_state(OFFLINE if self._backoff.offline else RECONNECTING, math.ceil(delay))
            timeout = self._clock.timeout_until(self._clock.now() + delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    async def _session(self) -> None:
        environment = await self._fetch_environment()
        try:
            ws = await websockets.connect(
                self._url, additional_headers={"Authorization": f"Bearer {self._token}"},
                ping_interval=PING_INTERVAL_SECONDS, open_timeout=OPEN_TIMEOUT_SECONDS,
                max_size=None)
        except InvalidStatus as exc:
            if exc.response.status_code in (401, 403):
                raise AuthError("the server refused the token") from exc
            raise
        async with ws:
            self._ws = ws
            await self._subscribe(SHELL, self._replica.cursor(SHELL))
            for thread_id in self._thread_ids():
                stream = thread_stream(thread_id)
                await self._subscribe(stream, self._replica.cursor(stream))
            self._backoff.reset()
            self._on_connected(environment)
            self._on_state(CONNECTED, 0)
            async for raw in ws:
                frame = self._read_frame(raw)
                if frame is not None:
                    await self._handle(frame)

    def _problem(self, kind: str, message: str) -> None:
        """Log a failure and report it once per kind in a row (not once per retry)."""
        _log.warning("%s", message)
        if self._on_problem is not None and self._last_problem != kind:
            self._on_problem(kind, message)
        self._last_problem = kind

    def _read_frame(self, raw: str | bytes) -> object | None:
        """The JSON of one server frame, or None (logged and skipped) when it is unreadable."""
        try:
            check_json_depth(raw, MAX_FRAME_DEPTH)
            frame: object = json.loads(raw)
            return frame
        except (ValueError, JsonTooDeep, RecursionError) as exc:
            self.skipped_frames += 1
            _log.warning("skipped an unreadable frame from the server: %s",
                         str(exc)[:200] or type(exc).__name__)
            return None

    async def _subscribe(self, stream: str, after: int | None) -> None:
        if self._ws is None or stream in self._subscribed:
            return
        target = (ShellStream() if stream == SHELL
                  else ThreadStream(thread_id=stream.removeprefix("thread:")))
        frame = SubscribeFrame(subscription_id=stream, stream=target, after_sequence=after)
        self._subscribed.add(stream)
        await self._ws.send(json.dumps(frame.to_wire()))

    async def _unsubscribe(self, stream: str) -> None:
        if self._ws is None or stream not in self._subscribed:
            return
        self._subscribed.discard(stream)
        await self._ws.send(json.dumps(UnsubscribeFrame(subscription_id=stream).to_wire()))

    async def _handle(self, raw: object) -> None:
        try:
            frame = decode_server_frame(raw)
        except ContractError as exc:
            self.skipped_frames += 1
            _log.warning("skipped an invalid frame from the server: %s", str(exc)[:200])
            return
        changes: Changes | None = None
        if isinstance(frame, EventFrame):
            changes = self._replica.apply_event(frame.subscription_id, frame.event)
        elif isinstance(frame, SnapshotFrame):
            changes = self._replica.apply_snapshot(frame.subscription_id, frame.snapshot)
        elif isinstance(frame, SynchronizedFrame):
            self.synchronized.add(frame.subscription_id)
        elif isinstance(frame, ErrorFrame) and frame.subscription_id:
            self._subscribed.discard(frame.subscription_id)
        if changes is None:
            return
        self._last_problem = None  # local writes work again
        for thread_id, after in changes.new_threads:
            stream = thread_stream(thread_id)
            await self._subscribe(stream, None if after < 0 else after)
        for thread_id in changes.deleted_threads:
            await self._unsubscribe(thread_stream(thread_id))
