"""The PostgreSQL ``ThreadStore``: several server processes may share one database.

Invariants: every write transaction first takes ``pg_advisory_xact_lock(WRITE_LOCK_KEY)``, which
serializes writers across all processes, so identity ``sequence`` order equals commit order; each
write that appended events sends ``NOTIFY composer_events`` (delivered at commit); every process
listens and publishes ``WHERE sequence > published ORDER BY sequence`` to its own subscribers, so an
event committed through any process reaches subscribers of every process, in order, without gaps.
A process publishes its own commit directly when it follows the last published sequence.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import psycopg

from composer_app.core.errors import StorageError
from composer_app.server.store.base import Reader, StoredEvent
from composer_app.server.store.executor import ExecutorStore
from composer_app.server.store.sql import SqlReader, SqlTransaction

WRITE_LOCK_KEY = 0x636F6D70  # "comp"
CHANNEL = "composer_events"
PUMP_BATCH = 1000


def _all_after(reader: Reader, after: int) -> list[StoredEvent]:
    assert isinstance(reader, SqlReader)
    return reader.all_events_after(after, PUMP_BATCH)


def _sequence_of(payload: str) -> int:
    try:
        return int(payload)
    except ValueError:
        return 1 << 62  # unknown payload: read the log


def conninfo_of(database_url: str) -> str:
    """A psycopg conninfo from ``postgresql+psycopg://…`` (SQLAlchemy-style) or plain URLs."""
    for prefix in ("postgresql+psycopg://", "postgres+psycopg://"):
        if database_url.startswith(prefix):
            return "postgresql://" + database_url[len(prefix):]
    return database_url


class PostgresStore(ExecutorStore):
    """``ThreadStore`` on PostgreSQL with cross-process fan-out through LISTEN/NOTIFY."""

    dialect = "postgres"

    def __init__(self, database_url: str) -> None:
        super().__init__()
        self.conninfo = conninfo_of(database_url)
        self._published = 0
        self._stop = threading.Event()
        self._listen_thread: threading.Thread | None = None
        self._pump_wakeup: asyncio.Event | None = None
        self._pump_task: asyncio.Task[None] | None = None

    def _connect(self, *, writer: bool) -> Any:
        conn = psycopg.connect(self.conninfo, autocommit=False)
        if not writer:
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        return conn

    def _execute(self, conn: Any) -> Callable[[str, Sequence[Any]], Any]:
        def run(sql: str, params: Sequence[Any]) -> Any:
            return conn.execute(sql.replace("?", "%s"), tuple(params))

        return run

    def _begin(self, conn: Any, *, writer: bool) -> None:
        if writer:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK_KEY,))

    def _translate(self, exc: Exception) -> Exception | None:
        if isinstance(exc, psycopg.Error):
            return StorageError(f"postgres: {exc}")
        return None

    def _run_tx(self, conn: Any, fn: Callable[[SqlTransaction], Any]) -> Any:
        def with_notify(tx: SqlTransaction) -> Any:
            result = fn(tx)
            if tx.events:
                tx._x("SELECT pg_notify(?, ?)", (CHANNEL, str(tx.events[-1].sequence)))
            return result

        return super()._run_tx(conn, with_notify)

    # Fan-out -------------------------------------------------------------------------------------

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        super().bind_loop(loop)
        self._published = self.read_sync(lambda r: r.max_sequence())
        self._pump_wakeup = asyncio.Event()
        self._pump_task = loop.create_task(self._pump())
        self._stop.clear()
        self._listen_thread = threading.Thread(target=self._listen, name="store-listen",
                                               daemon=True)
        self._listen_thread.start()

    def _poke(self) -> None:
        if self._pump_wakeup is not None:
            self._pump_wakeup.set()

    def _after_commit(self, events: list[StoredEvent]) -> None:
        loop = getattr(self, "_loop", None)
        if events and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._publish_local, events)

    def _publish_local(self, events: list[StoredEvent]) -> None:
        """Publish our own commit at once when it directly follows what was published."""
        if events[-1].sequence <= self._published:
            return
        if events[0].sequence == self._published + 1:
            self._published = events[-1].sequence
            if self._listener is not None:
                self._listener(events)
        else:  # another process committed in between: read the log in order
            self._poke()

    def _on_notify(self, sequence: int) -> None:
        if sequence > self._published:
            self._poke()

    async def _pump(self) -> None:
        assert self._pump_wakeup is not None
        while True:
            await self._pump_wakeup.wait()
            self._pump_wakeup.clear()
            while True:
                after = self._published
                batch = await self.read(partial(_all_after, after=after))
                fresh = [e for e in batch if e.sequence > self._published]
                if fresh:
                    self._published = fresh[-1].sequence
                    if self._listener is not None:
                        self._listener(fresh)
                if len(batch) < PUMP_BATCH:
                    break

    def _listen(self) -> None:
        loop = self._loop
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    loop.call_soon_threadsafe(self._poke)  # catch up after (re)connecting
                    while not self._stop.is_set():
                        for notify in conn.notifies(timeout=0.5, stop_after=1):
                            if not loop.is_closed():
                                loop.call_soon_threadsafe(self._on_notify,
                                                          _sequence_of(notify.payload))
            except (psycopg.Error, RuntimeError):
                if self._stop.wait(0.5):
                    return

    def close(self) -> None:
        self._stop.set()
        if self._listen_thread is not None:
            self._listen_thread.join(timeout=5)
            self._listen_thread = None
        if self._pump_task is not None:
            self._pump_task.cancel()
            with contextlib.suppress(RuntimeError):
                loop = self._pump_task.get_loop()
                if not loop.is_closed() and not loop.is_running():
                    loop.run_until_complete(asyncio.gather(self._pump_task,
                                                           return_exceptions=True))
            self._pump_task = None
        super().close()
