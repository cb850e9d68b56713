"""``SyncBridge``: the sync engine's callbacks as Qt signals on the GUI thread.

Invariants: the engine calls the bridge's listener on its own thread; the listener only posts a
plain tuple through a queued connection, and every public signal is emitted from the bridge's own
(GUI) thread, so connected slots always run there. Payloads are ids and strings (or frozen rows),
never live engine objects. The GUI never reads the engine's attributes: ``connection_state`` and
``environment`` are GUI-thread snapshots of what the engine last reported (the environment is read
on the engine's thread when the socket connects, and announced with ``environment_changed``).
UI → engine goes through the engine's thread-safe API (``submit`` with a typed call; the window
and the composer's uploads wrap it in ``EngineCalls``); completion is reported with
``request_finished`` (also on the GUI thread). No QtAsyncio.
"""

from __future__ import annotations

import concurrent.futures
import itertools
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot

from composer_app.core.contracts.environment import Environment
from composer_app.sync.engine import EngineListener, SyncEngine
from composer_app.sync.subscription import CONNECTING

STOP_TIMEOUT_SECONDS = 5.0


class _Relay(EngineListener):
    """Engine-thread side: turns each callback into one posted tuple."""

    def __init__(self, post: Callable[[tuple[Any, ...]], None],
                 environment: Callable[[], Environment | None]) -> None:
        self._post = post
        self._environment = environment

    def thread_list_changed(self) -> None:
        self._post(("thread_list_changed",))

    def thread_changed(self, thread_id: str) -> None:
        self._post(("thread_changed", thread_id))

    def message_upserted(self, thread_id: str, message_id: str) -> None:
        self._post(("message_upserted", thread_id, message_id))

    def message_removed(self, thread_id: str, message_id: str) -> None:
        self._post(("message_removed", thread_id, message_id))

    def outbox_item_changed(self, thread_id: str, message_id: str, state: str) -> None:
        self._post(("outbox_item_changed", thread_id, message_id, state))

    def upload_changed(self, local_id: str, state: str, sent_bytes: int) -> None:
        self._post(("upload_changed", local_id, state, sent_bytes))

    def connection_state_changed(self, state: str, next_try_seconds: int) -> None:
        if state == "connected":  # read here, on the engine's thread, and handed over as a value
            self._post(("environment_changed", self._environment()))
        self._post(("connection_state_changed", state, next_try_seconds))

    def toast_requested(self, level: str, title: str, body: str) -> None:
        self._post(("toast_requested", level, title, body))


class SyncBridge(QObject):
    """Runs a ``SyncEngine`` and re-emits its callbacks as queued Qt signals."""

    thread_list_changed = Signal()
    thread_changed = Signal(str)
    message_upserted = Signal(str, str)
    message_removed = Signal(str, str)
    outbox_item_changed = Signal(str, str, str)
    upload_changed = Signal(str, str, int)
    connection_state_changed = Signal(str, int)
    environment_changed = Signal(object)  # Environment: the server the engine connected to
    toast_requested = Signal(str, str, str)
    request_finished = Signal(int, object, str)

    _posted = Signal(object)

    def __init__(self, engine: SyncEngine, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._engine = engine
        self._ids = itertools.count(1)
        self._connection_state: tuple[str, int] = (CONNECTING, 0)
        self._environment: Environment | None = None
        self._posted.connect(self._on_engine_posted, Qt.ConnectionType.QueuedConnection)
        engine.add_listener(_Relay(self._posted.emit, lambda: engine.environment))

    @property
    def engine(self) -> SyncEngine:
        """The engine (its methods are thread-safe and return futures)."""
        return self._engine

    @property
    def connection_state(self) -> tuple[str, int]:
        """``(state, seconds to the next try)`` as last reported (GUI-thread snapshot)."""
        return self._connection_state

    @property
    def environment(self) -> Environment | None:
        """The environment of the server last connected to (GUI-thread snapshot)."""
        return self._environment

    def start(self, app: QCoreApplication | None = None) -> None:
        """Start the engine; stop it on ``app.aboutToQuit`` when given."""
        if app is not None:
            app.aboutToQuit.connect(self.stop)
        self._engine.start()

    @Slot()
    def stop(self) -> None:
        """Stop the engine (its state is on disk) and join its thread with a timeout."""
        self._engine.stop(STOP_TIMEOUT_SECONDS)

    def retry_now(self) -> None:
        """Wake the socket's backoff and the queues (thread-safe, returns at once)."""
        self._engine.retry_now()

    def submit(self, call: Callable[[SyncEngine], concurrent.futures.Future[Any]]) -> int:
        """Start ``call(engine)`` (an engine method returning a future) and return the request id;
        ``request_finished(id, result, error)`` reports the outcome on the GUI thread.
        ``RuntimeError`` at once when the engine is not running."""
        request_id = next(self._ids)
        future = call(self._engine)

        def done(f: concurrent.futures.Future[Any]) -> None:
            if f.cancelled():
                self._posted.emit(("request_finished", request_id, None, "Cancelled."))
                return
            exc = f.exception()
            result = None if exc is not None else f.result()
            self._posted.emit(("request_finished", request_id, result,
                               "" if exc is None else str(exc) or type(exc).__name__))

        future.add_done_callback(done)
        return request_id

    @Slot(object)
    def _on_engine_posted(self, item: tuple[Any, ...]) -> None:
        name, *args = item
        if name == "connection_state_changed":
            self._connection_state = (str(args[0]), int(args[1]))
        elif name == "environment_changed":
            self._environment = args[0]
        getattr(self, name).emit(*args)
