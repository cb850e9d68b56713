"""Thread-pool mechanics shared by the SQL stores: one writer thread, a few reader threads.

Invariants: one writer connection, used under one lock, runs every write transaction of a process,
so writes are serialized; with ``inline_writes`` (SQLite, where a transaction takes well under a
millisecond) they run on the event loop thread itself, otherwise on one writer thread. Inline writes
that name a ``group`` (the thread they are about) and arrive in the same step of the event loop
commit together at the start of the next step: one transaction, each write inside its own savepoint
and in arrival order, so each sees what the earlier ones wrote, and one that raises is rolled back
alone and gets its own exception (one ``COMMIT`` for several clients' commands). Committed events
reach the commit listener on the event loop right after commit, in commit order. Readers use their
own thread-local connections in a small pool.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import threading
from abc import abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any, TypeVar

from composer_app.core.contracts.wire import format_timestamp
from composer_app.core.errors import StorageError
from composer_app.server.store.base import (
    Device,
    Reader,
    StoredEvent,
    ThreadStore,
    Transaction,
    new_id,
)
from composer_app.server.store.sql import SqlQueries, SqlReader, SqlTransaction

T = TypeVar("T")


def token_hash(token: str) -> str:
    """SHA-256 hex of a bearer token (the only form the server stores)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def migration_scripts(dialect: str) -> list[tuple[int, str]]:
    """``(version, sql)`` of the numbered migrations of ``dialect``, in order."""
    folder = resources.files("composer_app.server.store") / "migrations" / dialect
    scripts = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            scripts.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    return sorted(scripts)


class ExecutorStore(ThreadStore):
    """A ``ThreadStore`` over blocking DB-API connections run in worker threads."""

    dialect = ""
    readers = 4
    inline_writes = False

    def __init__(self) -> None:
        self._writer_pool: ThreadPoolExecutor | None = None
        self._reader_pool: ThreadPoolExecutor | None = None
        self._local = threading.local()
        self._writer_conn: Any = None
        self._reader_conns: list[Any] = []
        self._reader_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._listener: Callable[[list[StoredEvent]], None] | None = None
        self._grouped: list[tuple[Callable[[Transaction], Any], asyncio.Future[Any]]] = []

    # Backend hooks -------------------------------------------------------------------------------

    @abstractmethod
    def _connect(self, *, writer: bool) -> Any: ...

    @abstractmethod
    def _execute(self, conn: Any) -> Callable[[str, Sequence[Any]], Any]: ...

    @abstractmethod
    def _begin(self, conn: Any, *, writer: bool) -> None: ...

    @abstractmethod
    def _translate(self, exc: Exception) -> Exception | None:
        """A ``StorageError`` for a driver error, or None when ``exc`` is not one."""

    def _after_commit(self, events: list[StoredEvent]) -> None:
        """Hand ``events`` to the listener on its loop (overridden by multi-process stores)."""
        listener, loop = self._listener, getattr(self, "_loop", None)
        if not events or listener is None or loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            listener(events)
        else:
            loop.call_soon_threadsafe(listener, events)

    # Lifecycle -----------------------------------------------------------------------------------

    def open(self) -> None:
        self._writer_pool = ThreadPoolExecutor(1, thread_name_prefix="store-writer")
        self._reader_pool = ThreadPoolExecutor(self.readers, thread_name_prefix="store-reader")
        self._writer_pool.submit(self._open_writer).result()

    @property
    def is_open(self) -> bool:
        return self._writer_pool is not None

    def _open_writer(self) -> None:
        self._writer_conn = self._connect(writer=True)
        self._migrate(self._writer_conn)
        self.environment_id = self._state("environment_id", lambda: new_id("env"))
        self.secret = bytes.fromhex(self._state("signing_secret", lambda: secrets.token_hex(32)))

    def _run_tx(self, conn: Any, fn: Callable[[SqlTransaction], T]) -> tuple[T, SqlTransaction]:
        self._begin(conn, writer=True)
        tx = SqlTransaction(self._execute(conn))
        try:
            result = fn(tx)
            tx.finalize()
        except BaseException:
            conn.rollback()
            raise
        conn.commit()
        return result, tx

    def _migrate(self, conn: Any, upto: int | None = None) -> None:
        """Apply the migrations not applied yet (those numbered up to ``upto``: tests that
        build the database of an older server)."""
        def apply(tx: SqlTransaction) -> None:
            tx._x("CREATE TABLE IF NOT EXISTS schema_migrations "
                  "(version INTEGER PRIMARY KEY, applied_at TEXT)", ())
            done = {int(r[0]) for r in tx.all("SELECT version FROM schema_migrations")}
            for version, sql in migration_scripts(self.dialect):
                if version in done or (upto is not None and version > upto):
                    continue
                for statement in (s.strip() for s in sql.split(";")):
                    if statement and not all(
                        line.startswith("--") for line in statement.splitlines()
                    ):
                        tx._x(statement, ())
                tx._x("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                      (version, format_timestamp()))

        self._guard(lambda: self._run_tx(conn, apply))

    def _state(self, key: str, make: Callable[[], str]) -> str:
        def get_or_put(tx: SqlTransaction) -> str:
            row = tx.one("SELECT value FROM server_state WHERE key = ?", (key,))
            if row is not None:
                return str(row[0])
            value = make()
            tx._x("INSERT INTO server_state (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
                  (key, value))
            return str(tx.one("SELECT value FROM server_state WHERE key = ?", (key,))[0])

        return self._guard(lambda: self._run_tx(self._writer_conn, get_or_put))[0]

    def close(self) -> None:
        if self._writer_pool is not None:
            self._writer_pool.submit(self._close_writer).result()
            self._writer_pool.shutdown(wait=True)
            self._writer_pool = None
        if self._reader_pool is not None:
            self._reader_pool.shutdown(wait=True)
            self._reader_pool = None
        with self._reader_lock:
            for conn in self._reader_conns:
                conn.close()
            self._reader_conns.clear()

    def _close_writer(self) -> None:
        if self._writer_conn is not None:
            self._writer_conn.close()
            self._writer_conn = None

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """The loop on which the commit listener runs."""
        self._loop = loop

    # Writes and reads ----------------------------------------------------------------------------

    def _guard(self, call: Callable[[], T]) -> T:
        try:
            return call()
        except Exception as exc:
            translated = self._translate(exc)
            if translated is None:
                raise
            raise translated from exc

    def write_sync(self, fn: Callable[[Transaction], T]) -> T:
        """Run ``fn`` in one write transaction on the calling (writer) thread."""
        if self._writer_conn is None:
            raise StorageError("store is closed")
        with self._write_lock:
            result, tx = self._guard(lambda: self._run_tx(self._writer_conn, fn))
        self._after_commit(tx.events)
        return result

    async def write(self, fn: Callable[[Transaction], T], *,
                    group: tuple[str, str] | None = None) -> T:
        if self._writer_pool is None:
            raise StorageError("store is closed")
        loop = asyncio.get_running_loop()
        if not self.inline_writes:
            return await loop.run_in_executor(self._writer_pool, self.write_sync, fn)
        if group is None:
            return self.write_sync(fn)
        future: asyncio.Future[T] = loop.create_future()
        self._grouped.append((fn, future))
        if len(self._grouped) == 1:  # the writes of this loop step commit together
            loop.call_soon(self._write_grouped)
        return await future

    def _write_grouped(self) -> None:
        """Commit the grouped writes of one loop step in one transaction, each inside its own
        savepoint (one that raises is rolled back alone and gets its exception), in arrival
        order; when the transaction itself is lost, each runs again on its own."""
        members = [(fn, future) for fn, future in self._grouped if not future.done()]
        self._grouped = []
        if len(members) == 1:
            fn, future = members[0]
            _resolve(future, lambda: self.write_sync(fn))
            return
        if not members:
            return
        try:
            with self._write_lock:
                outcomes = self._guard(lambda: self._run_grouped(self._writer_conn, members))
        except _TransactionLost:
            for fn, future in members:
                _resolve(future, lambda fn=fn: self.write_sync(fn))  # type: ignore[misc]
            return
        except Exception as exc:
            for _, future in members:
                if not future.done():
                    future.set_exception(exc)
            return
        self._after_commit(sorted((e for tx, _ in outcomes if tx is not None for e in tx.events),
                                  key=lambda e: e.sequence))
        for (_, future), (tx, value) in zip(members, outcomes, strict=True):
            if future.done():
                continue
            if tx is None:
                future.set_exception(value)
            else:
                future.set_result(value)

    def _run_grouped(self, conn: Any, members: list[tuple[Callable[[Transaction], Any], Any]]
                   ) -> list[tuple[SqlTransaction | None, Any]]:
        """``(transaction, result)`` per member, or ``(None, exception)`` (``_write_grouped``)."""
        if conn is None:
            raise StorageError("store is closed")
        self._begin(conn, writer=True)
        execute = self._execute(conn)
        outcomes: list[tuple[SqlTransaction | None, Any]] = []
        try:
            for i, (fn, _) in enumerate(members):
                tx = SqlTransaction(execute)
                execute(f"SAVEPOINT group_{i}", ())
                try:
                    result = fn(tx)
                    tx.finalize()
                except Exception as exc:
                    if not self._in_transaction(conn):
                        raise _TransactionLost from exc
                    execute(f"ROLLBACK TO SAVEPOINT group_{i}", ())
                    execute(f"RELEASE SAVEPOINT group_{i}", ())
                    outcomes.append((None, self._translate(exc) or exc))
                    continue
                execute(f"RELEASE SAVEPOINT group_{i}", ())
                outcomes.append((tx, result))
        except BaseException:
            conn.rollback()
            raise
        conn.commit()
        return outcomes

    def _in_transaction(self, conn: Any) -> bool:
        """Whether ``conn`` still holds its open transaction (after an error in it)."""
        return True

    def _reader_conn(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect(writer=False)
            self._local.conn = conn
            with self._reader_lock:
                self._reader_conns.append(conn)
        return conn

    def read_sync(self, fn: Callable[[Reader], T]) -> T:
        def run() -> T:
            conn = self._reader_conn()
            self._begin(conn, writer=False)
            try:
                return fn(SqlReader(self._execute(conn)))
            finally:
                conn.rollback()

        return self._guard(run)

    async def read(self, fn: Callable[[Reader], T]) -> T:
        if self._reader_pool is None:
            raise StorageError("store is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reader_pool, self.read_sync, fn)

    # Administration ------------------------------------------------------------------------------

    def create_token(self, user_name: str, device_name: str) -> tuple[str, Device]:
        token = "cmp_" + secrets.token_urlsafe(32)

        def create(tx: Transaction) -> Device:
            assert isinstance(tx, SqlQueries)
            at = format_timestamp()
            row = tx.one("SELECT user_id FROM users WHERE name = ?", (user_name,))
            if row is None:
                user_id = new_id("usr")
                tx._x("INSERT INTO users (user_id, name, created_at) VALUES (?, ?, ?)",
                      (user_id, user_name, at))
            else:
                user_id = row[0]
            device = Device(new_id("dev"), user_id, device_name)
            tx._x("INSERT INTO devices (token_sha256, device_id, user_id, name, created_at) "
                  "VALUES (?, ?, ?, ?, ?)",
                  (token_hash(token), device.device_id, user_id, device_name, at))
            return device

        if self._writer_pool is None:
            raise StorageError("store is closed")
        device = self._writer_pool.submit(self.write_sync, create).result()
        return token, device


class _TransactionLost(Exception):
    """A grouped write's error ended the whole transaction (its members run again alone)."""


def _resolve(future: asyncio.Future[Any], call: Callable[[], Any]) -> None:
    """Set ``future`` to the outcome of ``call()`` (unless its caller gave up)."""
    try:
        result = call()
    except Exception as exc:
        if not future.done():
            future.set_exception(exc)
    else:
        if not future.done():
            future.set_result(result)
