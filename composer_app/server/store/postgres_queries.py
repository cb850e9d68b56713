"""PostgreSQL forms of the store's transaction and reader (few round trips, no global lock).

Invariants: an append is one statement that bumps its thread's ``stream_version`` (locking that
thread's row only, so appends to one thread are serialized and appends to different threads are
not), takes the next number of the events identity sequence, writes ``threads.last_sequence`` and
inserts the event, returning its sequence and the thread's owner; reads a command is about to make
(``prefetch``) are sent together and answered from a per-transaction cache, which any write to the
same row, and any rollback to a savepoint, invalidates. ``PostgresReader.max_sequence`` never
reports a watermark below which an event could still appear (see ``Unsettled``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from composer_app.core.contracts.wire import format_timestamp
from composer_app.server.store.base import (
    JsonObject,
    MessageRow,
    Receipt,
    StoredEvent,
    ThreadRow,
    new_id,
)
from composer_app.server.store.sql import (
    _MESSAGE_COLS,
    _THREAD_READ_COLS,
    Execute,
    SqlReader,
    SqlTransaction,
    _message,
    _thread,
    dump,
    load,
)

_APPEND = (
    "WITH t AS (UPDATE threads SET stream_version = stream_version + 1, "
    "last_sequence = nextval(pg_get_serial_sequence('events', 'sequence')) "
    "WHERE thread_id = ? RETURNING stream_version, last_sequence, user_id) "
    "INSERT INTO events (sequence, event_id, thread_id, stream_version, event_type, occurred_at, "
    "device_id, command_id, payload_json) OVERRIDING SYSTEM VALUE "
    "SELECT t.last_sequence, ?, ?, t.stream_version, ?, ?, ?, ?, ? FROM t "
    "RETURNING sequence, (SELECT user_id FROM t)"
)
_RECEIPT = ("SELECT command_type, request_hash, status, result_sequence, error_json "
            "FROM command_receipts WHERE device_id = ? AND command_id = ?")


class Unsettled(Exception):
    """A read saw events above the process's published mark with a lower number still open.

    The store waits until its mark reaches ``sequence`` and runs the read again.
    """

    def __init__(self, sequence: int) -> None:
        super().__init__(sequence)
        self.sequence = sequence


class PostgresTransaction(SqlTransaction):
    """``SqlTransaction`` with single-statement appends and prefetched command reads."""

    def __init__(self, execute: Execute, on_allocate: Callable[[int], None] | None = None
                 ) -> None:
        super().__init__(execute)
        self.allocated: list[int] = []
        self._on_allocate = on_allocate
        self._receipts: dict[tuple[str, str], Receipt | None] = {}
        self._threads: dict[str, ThreadRow | None] = {}
        self._messages: dict[str, MessageRow | None] = {}

    def prefetch(self, *, receipt: tuple[str, str] | None = None, thread_id: str | None = None,
                 message_id: str | None = None) -> None:
        pending: list[tuple[str, Any, Any]] = []
        if receipt is not None and receipt not in self._receipts:
            pending.append(("r", receipt, self._x(_RECEIPT, receipt)))
        if thread_id is not None and thread_id not in self._threads:
            pending.append(("t", thread_id, self._x(
                f"SELECT {_THREAD_READ_COLS} FROM threads WHERE thread_id = ?", (thread_id,))))
        if message_id is not None and message_id not in self._messages:
            pending.append(("m", message_id, self._x(
                f"SELECT {_MESSAGE_COLS} FROM messages WHERE message_id = ?", (message_id,))))
        for kind, key, cursor in pending:  # the first fetch sends them all in one round trip
            row = cursor.fetchone()
            if kind == "r":
                self._receipts[key] = _receipt(row)
            elif kind == "t":
                self._threads[key] = _thread(row)
            else:
                self._messages[key] = _message(row)

    def finalize(self) -> None:
        """Nothing to do: each append already wrote its thread's ``last_sequence``."""

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """``SqlTransaction.savepoint``; a rolled-back block also drops the prefetched reads,
        which may describe rows it wrote."""
        try:
            with super().savepoint():
                yield
        except BaseException:
            self._receipts.clear()
            self._threads.clear()
            self._messages.clear()
            raise

    def append_event(self, thread_id: str, event_type: str, payload: JsonObject, *,
                     device_id: str | None = None, command_id: str | None = None) -> StoredEvent:
        event_id = new_id("evt")
        at = format_timestamp()
        row = self.one(_APPEND, (thread_id, event_id, thread_id, event_type, at, device_id,
                                 command_id, dump(payload)))
        if row is None:
            raise LookupError(f"append_event: no thread {thread_id}")
        sequence = int(row[0])
        self.allocated.append(sequence)
        if self._on_allocate is not None:
            self._on_allocate(sequence)
        self._threads.pop(thread_id, None)
        event = StoredEvent(sequence, event_id, thread_id, event_type, at, command_id, payload,
                            row[1])
        self.events.append(event)
        return event

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

    def thread(self, thread_id: str) -> ThreadRow | None:
        if thread_id in self._threads:
            return self._threads[thread_id]
        return super().thread(thread_id)

    def insert_thread(self, thread_id: str, user_id: str, title: str | None, at: str) -> None:
        self._threads.pop(thread_id, None)
        super().insert_thread(thread_id, user_id, title, at)

    def update_thread(self, thread_id: str, *, title: str | None = None,
                      deleted_at: str | None = None, at: str) -> None:
        self._threads.pop(thread_id, None)
        self._x("UPDATE threads SET title = COALESCE(?, title), "
                "deleted_at = COALESCE(?, deleted_at), updated_at = ? WHERE thread_id = ?",
                (title, deleted_at, at, thread_id))

    def message(self, message_id: str) -> MessageRow | None:
        if message_id in self._messages:
            return self._messages[message_id]
        return super().message(message_id)

    def insert_message(self, row: MessageRow) -> None:
        self._messages.pop(row.message_id, None)
        super().insert_message(row)

    def update_message(self, row: MessageRow) -> None:
        self._messages.pop(row.message_id, None)
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
