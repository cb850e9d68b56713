"""PostgreSQL forms of the store's transaction and reader (few round trips, no global lock).

Invariants: threads, messages and events are keyed by ``(user_id, id)`` (see ``base``), and so are
the per-transaction caches. Appends to one thread are serialized by its row's lock, and appends to
different threads are not: an append to a thread this transaction has not locked is one statement
that bumps its thread's ``stream_version`` (locking that row only), takes the next number of the
events identity sequence, writes ``threads.last_sequence`` and inserts the event, returning its
sequence and stream version. Once the transaction holds the row's lock and knows its
``stream_version`` (locked by ``prefetch(reserve=n)`` or that append, or inserted by this
transaction), an append only inserts the event with the next stream version, and the row's
``stream_version`` and ``last_sequence`` are written with the transaction's other writes to the row
in one ``UPDATE`` (``SqlTransaction.finalize``), so a message's commands leave one new version of
the row per transaction. Reads a command is about to make (``prefetch``, a thread's newest user
messages included) are sent together and answered from a per-transaction cache, which any write to
the same row (for the newest user messages: any message of that thread), and any rollback to a
savepoint, invalidates. ``prefetch(reserve=n)`` also locks the thread's row and then takes ``n``
numbers in the same round trip (so within a thread, sequence order stays stream-version order); an
append to a locked thread then uses the next reserved number and needs no reply: it is queued and
travels with the next read or with ``COMMIT`` (past the reserved numbers, it takes the next number
of the sequence and needs its reply). A rollback to a savepoint forgets the locks and the numbers
taken inside it (PostgreSQL releases those locks), and the reserved numbers a transaction leaves
unused are reported in ``unused``. On a ``Batch`` a savepoint is sent only if its block's statements
go out while it is open (see ``postgres_batch``).
``PostgresReader.max_sequence`` never reports a watermark below which an event could still appear
(see ``Unsettled``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from composer_app.core.contracts.wire import format_timestamp
from composer_app.server.store.base import (
    JsonObject,
    MessageRow,
    Receipt,
    StoredEvent,
    ThreadRow,
    new_ordered_id,
)
from composer_app.server.store.postgres_batch import Batch, Savepoint
from composer_app.server.store.sql import (
    _EVENT_COLS,
    _MESSAGE_COLS,
    _THREAD_READ_COLS,
    EVENTS_FROM,
    RECENT_MATERIAL_MESSAGES,
    Execute,
    SqlReader,
    SqlTransaction,
    _event,
    _message,
    _thread,
    load,
    stored_payload,
)

EVENTS_SEQUENCE = "events_sequence_seq"
"""The identity sequence of ``events.sequence`` (the name PostgreSQL gave it when migration 0001
created the column). Named as a constant, it is resolved once, when a connection prepares the
statement, where ``pg_get_serial_sequence`` would look it up in the catalogs on every call."""
_NEXT = f"nextval('{EVENTS_SEQUENCE}')"
_APPEND = (
    "WITH t AS (UPDATE threads SET stream_version = stream_version + 1, "
    f"last_sequence = {_NEXT} "
    "WHERE user_id = ? AND thread_id = ? RETURNING stream_version, last_sequence) "
    "INSERT INTO events (sequence, event_id, user_id, thread_id, stream_version, event_type, "
    "occurred_at, device_id, command_id, message_id, payload_json) OVERRIDING SYSTEM VALUE "
    "SELECT t.last_sequence, ?, ?, ?, t.stream_version, ?, ?, ?, ?, ?, ? FROM t "
    "RETURNING sequence, stream_version"
)
_EVENT_INSERT = (
    "INSERT INTO events (sequence, event_id, user_id, thread_id, stream_version, event_type, "
    "occurred_at, device_id, command_id, message_id, payload_json) OVERRIDING SYSTEM VALUE "
)
_APPEND_LOCKED = _EVENT_INSERT + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_APPEND_LOCKED_NEXT = (
    _EVENT_INSERT + f"VALUES ({_NEXT}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING sequence")
_RESERVE = f"SELECT {_NEXT} FROM generate_series(1, ?)"
_DEVICE_ACTIVE = "SELECT 1 FROM devices WHERE device_id = ? AND revoked_at IS NULL"
_RECEIPT = ("SELECT command_type, request_hash, status, result_sequence, error_json "
            "FROM command_receipts WHERE device_id = ? AND command_id = ?")

SETTLE_POLL = (0.001, 0.05)  # first and longest pause while waiting for old transactions to end


class Unsettled(Exception):
    """A read saw events above the process's published mark with a lower number still open.

    The store waits until its mark reaches ``sequence`` and runs the read again.
    """

    def __init__(self, sequence: int) -> None:
        super().__init__(sequence)
        self.sequence = sequence


class PostgresTransaction(SqlTransaction):
    """``SqlTransaction`` with single-statement appends and prefetched command reads."""

    def __init__(self, execute: Execute, on_allocate: Callable[[int], None] | None = None,
                 *, keyed_new_messages: bool = False) -> None:
        super().__init__(execute)
        # True: a new message's id is checked by the primary key alone (``message_id_taken``)
        self.keyed_new_messages = keyed_new_messages
        self.allocated: list[int] = []
        self._on_allocate = on_allocate
        self._receipts: dict[tuple[str, str], Receipt | None] = {}
        self._threads: dict[tuple[str, str], ThreadRow | None] = {}  # by (user, thread)
        self._messages: dict[tuple[str, str], MessageRow | None] = {}  # by (user, message)
        # threads whose row this transaction has locked (or inserted): their stream_version now
        self._versions: dict[tuple[str, str], int] = {}
        self._reserved: dict[tuple[str, str], list[int]] = {}  # (user, thread), row locked
        self._devices: dict[str, bool] = {}
        # (user, thread) -> (limit, newest user messages oldest first) as prefetched
        self._recent: dict[tuple[str, str], tuple[int, list[MessageRow]]] = {}

    @property
    def unused(self) -> list[int]:
        """Numbers this transaction took and did not use (yet)."""
        used = {e.sequence for e in self.events}
        return [n for n in self.allocated if n not in used]

    def prefetch(self, *, receipt: tuple[str, str] | None = None, user_id: str | None = None,
                 thread_id: str | None = None, message_id: str | None = None, reserve: int = 0,
                 device_id: str | None = None, recent_material_messages: int = 0,
                 new_message_id: str | None = None) -> None:
        pending: list[tuple[str, Any, Any]] = []
        thread = None if user_id is None or thread_id is None else (user_id, thread_id)
        if message_id is None and not self.keyed_new_messages:
            message_id = new_message_id  # checked by a read, not by the key
        message = None if user_id is None or message_id is None else (user_id, message_id)
        if thread is None or thread in self._reserved:
            reserve = 0  # one reservation per thread and transaction
        if device_id is not None and device_id not in self._devices:
            pending.append(("d", device_id, self._x(_DEVICE_ACTIVE, (device_id,))))
        if receipt is not None and receipt not in self._receipts:
            pending.append(("r", receipt, self._x(_RECEIPT, receipt)))
        if thread is not None and (reserve > 0 or thread not in self._threads):
            self._write_thread(thread)  # the read sees this transaction's writes
            lock = ", stream_version FROM threads WHERE user_id = ? AND thread_id = ? FOR UPDATE"
            pending.append(("l" if reserve > 0 else "t", thread, self._x(
                f"SELECT {_THREAD_READ_COLS}"
                + (lock if reserve > 0 else " FROM threads WHERE user_id = ? AND thread_id = ?"),
                thread)))
        if thread is not None and reserve > 0:  # after the lock: numbers in thread order
            pending.append(("n", thread, self._x(_RESERVE, (reserve,))))
        if message is not None and message not in self._messages:
            pending.append(("m", message, self._x(
                f"SELECT {_MESSAGE_COLS} FROM messages WHERE user_id = ? AND message_id = ?",
                message)))
        if thread is not None and recent_material_messages > 0 and thread not in self._recent:
            pending.append(("u", thread, self._x(RECENT_MATERIAL_MESSAGES,
                                                 (*thread, recent_material_messages))))
        for kind, key, cursor in pending:  # the first fetch sends them all in one round trip
            if kind == "n":
                numbers = sorted(int(r[0]) for r in cursor.fetchall())
                for n in numbers:
                    self._allocate(n)
                self._reserved.setdefault(key, []).extend(numbers)
                continue
            if kind == "u":
                rows = [m for m in map(_message, reversed(cursor.fetchall())) if m is not None]
                self._recent[key] = (recent_material_messages, rows)
                continue
            row = cursor.fetchone()
            if kind == "d":
                self._devices[key] = row is not None
            elif kind == "r":
                self._receipts[key] = _receipt(row)
            elif kind in ("t", "l"):
                self._threads[key] = _thread(row)
                if kind == "l" and row is not None:
                    self._versions[key] = int(row[8])
            else:
                self._messages[key] = _message(row)

    def _open_savepoint(self) -> Any:
        if isinstance(self._x, Batch):  # sent only if its block's writes go out before it ends
            return self._x.savepoint()
        return super()._open_savepoint()

    def _release_savepoint(self, mark: Any) -> None:
        if isinstance(mark, Savepoint) and isinstance(self._x, Batch):
            self._x.release(mark)
        else:
            super()._release_savepoint(mark)

    def _rollback_savepoint(self, mark: Any) -> None:
        if isinstance(mark, Savepoint) and isinstance(self._x, Batch):
            self._x.rollback(mark)
        else:
            super()._rollback_savepoint(mark)

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """``SqlTransaction.savepoint``; a rolled-back block also drops the prefetched reads,
        which may describe rows it wrote, and the locks and numbers it took."""
        versions = dict(self._versions)
        reserved = {key: list(numbers) for key, numbers in self._reserved.items()}
        try:
            with super().savepoint():
                yield
        except BaseException:
            self._versions = versions  # a thread inserted or locked in the block is not ours
            self._reserved = reserved
            self._devices.clear()
            self._receipts.clear()
            self._threads.clear()
            self._messages.clear()
            self._recent.clear()
            raise

    def append_event(self, user_id: str, thread_id: str, event_type: str, payload: JsonObject,
                     *, device_id: str | None = None, command_id: str | None = None,
                     message_id: str | None = None) -> StoredEvent:
        event_id = new_ordered_id("evt")
        at = format_timestamp()
        key = (user_id, thread_id)
        stored = stored_payload(payload, message_id)
        version = self._versions.get(key)
        if version is not None:  # the row is ours: insert the event, write the row at the end
            version += 1
            reserved = self._reserved.get(key)
            if reserved:
                sequence = reserved.pop(0)
                self._x(_APPEND_LOCKED, (sequence, event_id, user_id, thread_id, version,
                                         event_type, at, device_id, command_id, message_id,
                                         stored))
            else:
                sequence = int(self.one(_APPEND_LOCKED_NEXT, (
                    event_id, user_id, thread_id, version, event_type, at, device_id, command_id,
                    message_id, stored))[0])
                self._allocate(sequence)
            self._note_thread(user_id, thread_id, stream_version=version, last_sequence=sequence)
        else:
            row = self.one(_APPEND, (user_id, thread_id, event_id, user_id, thread_id,
                                     event_type, at, device_id, command_id, message_id, stored))
            if row is None:
                raise LookupError(f"append_event: no thread {thread_id}")
            sequence, version = int(row[0]), int(row[1])
            self._allocate(sequence)
        self._versions[key] = version
        self._threads.pop(key, None)
        event = StoredEvent(sequence, event_id, thread_id, event_type, at, command_id, payload,
                            user_id)
        self.events.append(event)
        return event

    def device_active(self, device_id: str) -> bool:
        if device_id in self._devices:
            return self._devices[device_id]
        return super().device_active(device_id)

    def _allocate(self, sequence: int) -> None:
        self.allocated.append(sequence)
        if self._on_allocate is not None:
            self._on_allocate(sequence)

    def receipt(self, device_id: str, command_id: str) -> Receipt | None:
        key = (device_id, command_id)
        if key in self._receipts:
            return self._receipts[key]
        return _receipt(self.one(_RECEIPT, key))

    def put_receipt(self, device_id: str, command_id: str, command_type: str,
                    thread_id: str | None, request_hash: str, status: str,
                    result_sequence: int | None, error: JsonObject | None) -> None:
        self._receipts.pop((device_id, command_id), None)
        super().put_receipt(device_id, command_id, command_type, thread_id, request_hash, status,
                            result_sequence, error)

    def thread(self, user_id: str, thread_id: str) -> ThreadRow | None:
        if (user_id, thread_id) in self._threads:
            return self._threads[(user_id, thread_id)]
        return super().thread(user_id, thread_id)

    def insert_thread(self, thread_id: str, user_id: str, title: str | None, at: str) -> None:
        self._threads.pop((user_id, thread_id), None)
        super().insert_thread(thread_id, user_id, title, at)
        self._versions[(user_id, thread_id)] = 0

    def update_thread(self, user_id: str, thread_id: str, *, title: str | None = None,
                      deleted_at: str | None = None, at: str) -> None:
        self._threads.pop((user_id, thread_id), None)
        super().update_thread(user_id, thread_id, title=title, deleted_at=deleted_at, at=at)

    def set_thread_workspace(self, user_id: str, thread_id: str,
                             workspace: JsonObject | None) -> None:
        self._threads.pop((user_id, thread_id), None)
        super().set_thread_workspace(user_id, thread_id, workspace)

    def message_id_taken(self, user_id: str, message_id: str) -> bool:
        if self.keyed_new_messages:
            return False  # an insert of a taken id fails on messages_pkey (see PostgresStore)
        return super().message_id_taken(user_id, message_id)

    def message(self, user_id: str, message_id: str) -> MessageRow | None:
        if (user_id, message_id) in self._messages:
            return self._messages[(user_id, message_id)]
        return super().message(user_id, message_id)

    def recent_material_messages(self, user_id: str, thread_id: str, limit: int
                                 ) -> list[MessageRow]:
        known = self._recent.get((user_id, thread_id))
        if known is not None and known[0] == limit:  # the material among as many messages
            return list(known[1])
        return super().recent_material_messages(user_id, thread_id, limit)

    def insert_message(self, row: MessageRow) -> None:
        self._messages.pop((row.user_id, row.message_id), None)
        self._recent.pop((row.user_id, row.thread_id), None)
        super().insert_message(row)

    def update_message(self, row: MessageRow) -> None:
        self._messages.pop((row.user_id, row.message_id), None)
        self._recent.pop((row.user_id, row.thread_id), None)
        super().update_message(row)


class PostgresReader(SqlReader):
    """``SqlReader`` whose watermark is settled relative to the process's published mark."""

    def __init__(self, execute: Execute, published: int | None = None) -> None:
        super().__init__(execute)
        self._published = published

    def max_sequence(self) -> int:
        if self._published is None:
            return super().max_sequence()
        floor = self._published
        top, count = self.one("SELECT COALESCE(MAX(sequence), 0), COUNT(*) FROM events "
                              "WHERE sequence > ?", (floor,))
        top, count = int(top), int(count)
        if count == 0:
            return floor
        if count != top - floor:  # a lower number is still open (or not yet known unused)
            raise Unsettled(top)
        return top


def _receipt(row: Any) -> Receipt | None:
    if row is None:
        return None
    return Receipt(row[0], row[1], row[2], None if row[3] is None else int(row[3]), load(row[4]))


def message_id_taken(exc: BaseException | None) -> bool:
    """Whether ``exc`` is an insert of a message whose ``(message_id, user_id)`` is taken (the
    primary key's check of a new message, ``PostgresTransaction.keyed_new_messages``)."""
    return isinstance(exc, psycopg.errors.UniqueViolation) and \
        exc.diag.constraint_name == "messages_pkey"


def settle_blocking(conn: Any) -> None:
    """``PostgresStore._settle`` on a blocking autocommit (psycopg) connection: returns once
    every transaction that was running when it was called has ended."""
    row = conn.execute("SELECT pg_current_xact_id()").fetchone()
    assert row is not None
    pause = SETTLE_POLL[0]
    while True:
        done = conn.execute("SELECT pg_snapshot_xmin(pg_current_snapshot()) > %s",
                            (row[0],)).fetchone()
        if done is not None and done[0]:
            return
        time.sleep(pause)
        pause = min(pause * 2, SETTLE_POLL[1])


async def events_numbered(conn: Any, numbers: list[int]) -> list[StoredEvent]:
    """The events numbered ``numbers`` (those that exist), in sequence order, read on an async
    (psycopg) connection."""
    cursor = await conn.execute(
        f"SELECT {_EVENT_COLS} FROM {EVENTS_FROM} WHERE e.sequence = ANY(%s) "
        "ORDER BY e.sequence", (numbers,))
    return [_event(row) for row in await cursor.fetchall()]
