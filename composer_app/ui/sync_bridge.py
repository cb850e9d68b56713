"""``SyncBridge``: the sync engine's callbacks as Qt signals on the GUI thread.

Invariants: the engine calls the bridge's listener on its own thread; the listener only posts a
plain tuple through a queued connection, and every public signal is emitted from the bridge's own
(GUI) thread, so connected slots always run there. Payloads are ids and strings (or frozen rows),
never live engine objects. UI → engine goes through the engine's thread-safe API; ``request()``
reports completion with ``request_finished`` (also on the GUI thread). No QtAsyncio.
"""

from __future__ import annotations

import concurrent.futures
import itertools
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal, Slot

from composer_app.sync.engine import EngineListener, SyncEngine

STOP_TIMEOUT_SECONDS = 5.0


class _Relay(EngineListener):
    """Engine-thread side: turns each callback into one posted tuple."""

    def __init__(self, post: Callable[[tuple[Any, ...]], None]) -> None:
        self._post = post

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
    toast_requested = Signal(str, str, str)
    request_finished = Signal(int, object, str)

    _posted = Signal(object)

    def __init__(self, engine: SyncEngine, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._engine = engine
        self._ids = itertools.count(1)
        self._posted.connect(self._on_engine_posted, Qt.ConnectionType.QueuedConnection)
        engine.add_listener(_Relay(self._posted.emit))

    @property
    def engine(self) -> SyncEngine:
        """The engine (its methods are thread-safe and return futures)."""
        return self._engine

    def start(self, app: QCoreApplication | None = None) -> None:
        """Start the engine; stop it on ``app.aboutToQuit`` when given."""
        if app is not None:
            app.aboutToQuit.connect(self.stop)
        self._engine.start()

    @Slot()
    def stop(self) -> None:
        """Stop the engine (its state is on disk) and join its thread with a timeout."""
        self._engine.stop(STOP_TIMEOUT_SECONDS)

    def request(self, method: str, *args: Any, **kwargs: Any) -> int:
        """Call an engine method; ``request_finished(id, result, error)`` reports the outcome."""
        request_id = next(self._ids)
        future: concurrent.futures.Future[Any] = getattr(self._engine, method)(*args, **kwargs)

        def done(f: concurrent.futures.Future[Any]) -> None:
            exc = f.exception()
            result = None if exc is not None else f.result()
            self._posted.emit(("request_finished", request_id, result,
                               "" if exc is None else str(exc) or type(exc).__name__))

        future.add_done_callback(done)
        return request_id

    @Slot(object)
    def _on_engine_posted(self, item: tuple[Any, ...]) -> None:
        name, *args = item
        getattr(self, name).emit(*args)
