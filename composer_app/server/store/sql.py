"""SQL shared by the SQLite and PostgreSQL stores (written with ``?`` placeholders).

Invariants: every statement is parameterized; JSON columns hold compact JSON; a connection given to
``SqlTransaction`` is inside an open transaction owned by the caller (commit/rollback are theirs).
Every thread, message and event statement names the owning user with the client's id (ids are
scoped per user, see ``base``); an event that references a message (``events.message_id``) stores
no copy of it and is read back with the row's ``to_wire()`` as its payload's ``message``. A
transaction's writes to a thread row (``update_thread``, ``set_thread_workspace``, the
``last_sequence`` of its appends) are collected and written in one ``UPDATE`` per thread by
``finalize`` (right before commit), so a later lookup of the row steps over one new version, not
one per write; a read of that row in the same transaction writes them first, so it sees them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from composer_app.core.contracts.wire import format_timestamp
from composer_app.server.json_text import compact
from composer_app.server.store.base import (
    AttachmentRow,
    Device,
    JsonObject,
    MessageRow,
    Reader,
    Receipt,
    ShareRow,
    StoredEvent,
    ThreadRow,
    Transaction,
    new_ordered_id,
)

Execute = Callable[[str, Sequence[Any]], Any]

_THREAD_COLS = "thread_id, user_id, title, created_at, updated_at, last_sequence, deleted_at"
_THREAD_READ_COLS = _THREAD_COLS + ", workspace_json"
_MESSAGE_COLS = (
    "message_id, thread_id, turn_id, role, text, is_streaming, attachments_json, context_json, "
    "sources_json, metadata_json, created_at, updated_at, completed_at, created_sequence, user_id"
)
_ATTACHMENT_COLS = (
    "a.attachment_id, a.device_id, d.user_id, a.state, a.name, a.mime_type, a.size_bytes, "
    "a.sha256, a.storage_path, a.message_id, a.created_at, a.expires_at"
)
_THREAD_WRITES = ("title", "deleted_at", "updated_at", "workspace_json", "stream_version",
                  "last_sequence")
"""The thread columns a transaction writes, in the order ``finalize`` writes them."""
_SHARE_COLS = "share_id, thread_id, user_id, created_at, revoked_at"
_EVENT_COLS = (
    "e.sequence, e.event_id, e.thread_id, e.event_type, e.occurred_at, e.command_id, "
    "e.payload_json, e.user_id, "
    + ", ".join(f"m.{column.strip()}" for column in _MESSAGE_COLS.split(","))
)
RECENT_MATERIAL_MESSAGES = (
    f"SELECT {_MESSAGE_COLS} FROM (SELECT {_MESSAGE_COLS} FROM messages "
    "WHERE user_id = ? AND thread_id = ? AND role = 'user' ORDER BY created_sequence DESC LIMIT ?) "
    "recent WHERE attachments_json <> '[]' OR context_json IS NOT NULL "
    "ORDER BY created_sequence DESC")
"""Those of a thread's newest user messages that carry attachments or a context, newest first
(``Transaction.recent_material_messages``; a message with neither brings no earlier material, and
the rows it would cost to read and decode are most of the query's work)."""
EVENTS_FROM = ("events e LEFT JOIN messages m ON e.message_id IS NOT NULL "
               "AND m.user_id = e.user_id AND m.message_id = e.message_id")
"""The ``FROM`` of event reads: each event with the message it references (if any)."""


def dump(value: Any) -> str | None:
    """Compact JSON, or None for None."""
    if value is None:
        return None
    return compact(value)


def load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _thread(row: Sequence[Any] | None) -> ThreadRow | None:
    if row is None:
        return None
    return ThreadRow(row[0], row[1], row[2], row[3], row[4], int(row[5] or 0), row[6],
                     load(row[7]))


def _message(row: Sequence[Any] | None) -> MessageRow | None:
    if row is None:
        return None
    return MessageRow(
        message_id=row[0], thread_id=row[1], turn_id=row[2], role=row[3], text=row[4],
        is_streaming=bool(row[5]), attachments=load(row[6]) or [], context=load(row[7]),
        sources=load(row[8]), metadata=load(row[9]), created_at=row[10], updated_at=row[11],
        completed_at=row[12], created_sequence=int(row[13] or 0), user_id=row[14],
    )


def _attachment(row: Sequence[Any] | None) -> AttachmentRow | None:
    if row is None:
        return None
    return AttachmentRow(
        row[0], row[1], row[2], row[3], row[4], row[5], int(row[6]), row[7], row[8], row[9],
        row[10], row[11],
    )


def _event(row: Sequence[Any]) -> StoredEvent:
    """An event read with ``_EVENT_COLS`` from ``EVENTS_FROM`` (its message put back)."""
    payload = json.loads(row[6])
    if row[8] is not None:
        message = _message(row[8:])
        assert message is not None
        payload["message"] = message.to_wire()
    return StoredEvent(int(row[0]), row[1], row[2], row[3], row[4], row[5], payload, row[7])


def stored_payload(payload: JsonObject, message_id: str | None) -> str:
    """The ``payload_json`` of an event: without its ``message`` when it references the row."""
    if message_id is None:
        return dump(payload) or "{}"
    return dump({k: v for k, v in payload.items() if k != "message"}) or "{}"


class SqlQueries:
    """Row access over one ``execute(sql, params) -> cursor`` callable."""

    def __init__(self, execute: Execute) -> None:
        self._x = execute

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._x(sql, params).fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(self._x(sql, params).fetchall())

    def max_sequence(self) -> int:
        row = self.one("SELECT COALESCE(MAX(sequence), 0) FROM events")
        return int(row[0])

    def live_storage_names(self) -> set[str]:
        rows = self.all("SELECT storage_path FROM attachments WHERE state <> 'deleted'")
        return {str(r[0]) for r in rows}

    def provider_choices(self) -> dict[tuple[str, str], str]:
        return {(str(r[0]), str(r[1])): str(r[2])
                for r in self.all("SELECT user_id, thread_id, provider FROM provider_choices")}

    def device_active(self, device_id: str) -> bool:
        return self.one("SELECT 1 FROM devices WHERE device_id = ? AND revoked_at IS NULL",
                        (device_id,)) is not None

    def server_value(self, key: str) -> str | None:
        row = self.one("SELECT value FROM server_state WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    def thread(self, user_id: str, thread_id: str) -> ThreadRow | None:
        return _thread(self.one(f"SELECT {_THREAD_READ_COLS} FROM threads "
                                "WHERE user_id = ? AND thread_id = ?", (user_id, thread_id)))

    def message(self, user_id: str, message_id: str) -> MessageRow | None:
        return _message(self.one(f"SELECT {_MESSAGE_COLS} FROM messages "
                                 "WHERE user_id = ? AND message_id = ?", (user_id, message_id)))

    def attachment(self, attachment_id: str) -> AttachmentRow | None:
        return _attachment(self.one(
            f"SELECT {_ATTACHMENT_COLS} FROM attachments a JOIN devices d "
            "ON d.device_id = a.device_id WHERE a.attachment_id = ?", (attachment_id,)))

    def share(self, share_id: str) -> ShareRow | None:
        return _share(self.one(f"SELECT {_SHARE_COLS} FROM share_links WHERE share_id = ?",
                               (share_id,)))

    def share_by_token_hash(self, token_sha256: str) -> ShareRow | None:
        return _share(self.one(f"SELECT {_SHARE_COLS} FROM share_links WHERE token_sha256 = ?",
                               (token_sha256,)))

    def shares_of(self, thread_id: str) -> list[ShareRow]:
        rows = self.all(f"SELECT {_SHARE_COLS} FROM share_links WHERE thread_id = ? "
                        "AND revoked_at IS NULL ORDER BY created_at, share_id", (thread_id,))
        return [s for s in map(_share, rows) if s is not None]


def _share(row: Sequence[Any] | None) -> ShareRow | None:
    return None if row is None else ShareRow(row[0], row[1], row[2], row[3], row[4])


@dataclass(frozen=True)
class DeviceInfo:
    """One device of a user, as ``list-tokens`` shows it (never the token)."""

    device_id: str
    name: str
    created_at: str
    revoked_at: str | None


class DeviceAdmin:
    """Device and secret administration over an open write transaction (command line)."""

    def __init__(self, queries: SqlQueries) -> None:
        self._q = queries

    def devices_of(self, user_name: str) -> list[DeviceInfo] | None:
        """The user's devices, oldest first; None when there is no such user."""
        user = self._q.one("SELECT user_id FROM users WHERE name = ?", (user_name,))
        if user is None:
            return None
        rows = self._q.all("SELECT device_id, name, created_at, revoked_at FROM devices "
                           "WHERE user_id = ? ORDER BY created_at, device_id", (user[0],))
        return [DeviceInfo(r[0], r[1] or "", r[2] or "", r[3]) for r in rows]

    def revoke(self, user_name: str, device_name: str, at: str) -> int:
        """Revoke every live token of the user's device ``device_name``; how many."""
        rows = self._q.all(
            "SELECT d.device_id FROM devices d JOIN users u ON u.user_id = d.user_id "
            "WHERE u.name = ? AND d.name = ? AND d.revoked_at IS NULL", (user_name, device_name))
        for row in rows:
            self._q._x("UPDATE devices SET revoked_at = ? WHERE device_id = ?", (at, row[0]))
        return len(rows)

    def set_server_value(self, key: str, value: str) -> None:
        self._q._x("UPDATE server_state SET value = ? WHERE key = ?", (value, key))


class SqlTransaction(SqlQueries, Transaction):
    """``Transaction`` over an open SQL transaction; collects the events it appends."""

    def __init__(self, execute: Execute) -> None:
        super().__init__(execute)
        self.events: list[StoredEvent] = []
        self._streams: dict[tuple[str, str], int] = {}  # (user, thread) -> last stream_version
        # (user, thread) -> column -> value this transaction has written and not yet sent
        self._thread_writes: dict[tuple[str, str], dict[str, Any]] = {}
        self._savepoints = 0  # savepoints opened so far (each gets its own name)

    def finalize(self) -> None:
        """Write each touched thread's row once (called right before commit)."""
        for key in list(self._thread_writes):
            self._write_thread(key)

    def _note_thread(self, user_id: str, thread_id: str, **columns: Any) -> None:
        """Remember column values of a thread row; ``finalize`` (or a read of it) writes them."""
        self._thread_writes.setdefault((user_id, thread_id), {}).update(columns)

    def _write_thread(self, key: tuple[str, str]) -> None:
        """Send what this transaction wrote to the thread row ``key`` (one ``UPDATE``)."""
        columns = self._thread_writes.pop(key, None)
        if not columns:
            return
        names = [name for name in _THREAD_WRITES if name in columns]
        self._x(f"UPDATE threads SET {', '.join(f'{name} = ?' for name in names)} "
                "WHERE user_id = ? AND thread_id = ?", (*(columns[n] for n in names), *key))

    def thread(self, user_id: str, thread_id: str) -> ThreadRow | None:
        self._write_thread((user_id, thread_id))
        return super().thread(user_id, thread_id)

    def _stream_of(self, user_id: str, thread_id: str) -> int:
        known = self._streams.get((user_id, thread_id))
        if known is not None:
            return known
        row = self.one(
            "SELECT (SELECT COALESCE(MAX(stream_version), 0) FROM events "
            "WHERE user_id = t.user_id AND thread_id = t.thread_id) FROM threads t "
            "WHERE t.user_id = ? AND t.thread_id = ?", (user_id, thread_id))
        if row is None:
            raise LookupError(f"append_event: no thread {thread_id}")
        return int(row[0])

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """SQL ``SAVEPOINT``; a raising block rolls back to it and drops what it appended."""
        events = len(self.events)
        streams = dict(self._streams)
        thread_writes = {key: dict(columns) for key, columns in self._thread_writes.items()}
        mark = self._open_savepoint()
        try:
            yield
        except BaseException:
            self._rollback_savepoint(mark)
            del self.events[events:]
            self._streams = streams
            self._thread_writes = thread_writes
            raise
        self._release_savepoint(mark)

    def _open_savepoint(self) -> Any:
        self._savepoints += 1
        name = f"block_{self._savepoints}"
        self._x(f"SAVEPOINT {name}", ())
        return name

    def _release_savepoint(self, mark: Any) -> None:
        self._x(f"RELEASE SAVEPOINT {mark}", ())

    def _rollback_savepoint(self, mark: Any) -> None:
        self._x(f"ROLLBACK TO SAVEPOINT {mark}", ())
        self._x(f"RELEASE SAVEPOINT {mark}", ())

    def append_event(self, user_id: str, thread_id: str, event_type: str, payload: JsonObject,
                     *, device_id: str | None = None, command_id: str | None = None,
                     message_id: str | None = None) -> StoredEvent:
        version = self._stream_of(user_id, thread_id) + 1
        self._streams[(user_id, thread_id)] = version
        event_id = new_ordered_id("evt")
        at = format_timestamp()
        row = self.one(
            "INSERT INTO events (event_id, user_id, thread_id, stream_version, event_type, "
            "occurred_at, device_id, command_id, message_id, payload_json) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING sequence",
            (event_id, user_id, thread_id, int(version), event_type, at, device_id, command_id,
             message_id, stored_payload(payload, message_id)))
        sequence = int(row[0])
        self._note_thread(user_id, thread_id, last_sequence=sequence)
        event = StoredEvent(sequence, event_id, thread_id, event_type, at, command_id, payload,
                            user_id)
        self.events.append(event)
        return event

    def receipt(self, device_id: str, command_id: str) -> Receipt | None:
        row = self.one(
            "SELECT command_type, request_hash, status, result_sequence, error_json "
            "FROM command_receipts WHERE device_id = ? AND command_id = ?", (device_id, command_id))
        if row is None:
            return None
        return Receipt(row[0], row[1], row[2], None if row[3] is None else int(row[3]),
                       load(row[4]))

    def put_receipt(self, device_id: str, command_id: str, command_type: str,
                    thread_id: str | None, request_hash: str, status: str,
                    result_sequence: int | None, error: JsonObject | None) -> None:
        self._x(
            "INSERT INTO command_receipts (device_id, command_id, command_type, thread_id, "
            "request_hash, status, result_sequence, error_json, accepted_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (device_id, command_id, command_type, thread_id, request_hash, status,
             result_sequence, dump(error), format_timestamp()))

    def insert_thread(self, thread_id: str, user_id: str, title: str | None, at: str) -> None:
        self._x(f"INSERT INTO threads ({_THREAD_COLS}) VALUES (?, ?, ?, ?, ?, 0, NULL)",
                (thread_id, user_id, title, at, at))

    def update_thread(self, user_id: str, thread_id: str, *, title: str | None = None,
                      deleted_at: str | None = None, at: str) -> None:
        columns: dict[str, Any] = {"updated_at": at}
        if title is not None:
            columns["title"] = title
        if deleted_at is not None:
            columns["deleted_at"] = deleted_at
        self._note_thread(user_id, thread_id, **columns)

    def set_thread_workspace(self, user_id: str, thread_id: str,
                             workspace: JsonObject | None) -> None:
        self._note_thread(user_id, thread_id, workspace_json=dump(workspace))

    def recent_material_messages(self, user_id: str, thread_id: str, limit: int
                                 ) -> list[MessageRow]:
        rows = self.all(RECENT_MATERIAL_MESSAGES, (user_id, thread_id, limit))
        return [m for m in map(_message, reversed(rows)) if m is not None]

    def assistant_message_for_turn(self, user_id: str, turn_id: str) -> MessageRow | None:
        return _message(self.one(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE user_id = ? AND turn_id = ? "
            "AND role = 'assistant'", (user_id, turn_id)))

    def streaming_messages(self) -> list[MessageRow]:
        rows = self.all(f"SELECT {_MESSAGE_COLS} FROM messages WHERE is_streaming = 1 "
                        "ORDER BY created_sequence")
        return [m for m in map(_message, rows) if m is not None]

    def _message_params(self, r: MessageRow) -> tuple[Any, ...]:
        return (r.message_id, r.thread_id, r.turn_id, r.role, r.text, int(r.is_streaming),
                dump(r.attachments), dump(r.context), dump(r.sources), dump(r.metadata),
                r.created_at, r.updated_at, r.completed_at, r.created_sequence, r.user_id)

    def insert_message(self, row: MessageRow) -> None:
        if not row.user_id:
            raise ValueError("insert_message: a message row needs its user")
        self._x(f"INSERT INTO messages ({_MESSAGE_COLS}) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", self._message_params(row))

    def update_message(self, row: MessageRow) -> None:
        self._x(
            "UPDATE messages SET text = ?, is_streaming = ?, sources_json = ?, metadata_json = ?, "
            "updated_at = ?, completed_at = ? WHERE user_id = ? AND message_id = ?",
            (row.text, int(row.is_streaming), dump(row.sources), dump(row.metadata),
             row.updated_at, row.completed_at, row.user_id, row.message_id))

    def stale_uploads(self, now: str) -> list[AttachmentRow]:
        rows = self.all(
            f"SELECT {_ATTACHMENT_COLS} FROM attachments a JOIN devices d "
            "ON d.device_id = a.device_id WHERE a.state IN ('pending', 'uploaded') "
            "AND a.expires_at < ?", (now,))
        return [a for a in map(_attachment, rows) if a is not None]

    def insert_attachment(self, row: AttachmentRow) -> None:
        self._x(
            "INSERT INTO attachments (attachment_id, device_id, state, name, mime_type, "
            "size_bytes, sha256, storage_path, message_id, created_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.attachment_id, row.device_id, row.state, row.name, row.mime_type,
             row.size_bytes, row.sha256, row.storage_path, row.message_id, row.created_at,
             row.expires_at))

    def thread_owners(self, thread_id: str) -> list[str]:
        return [str(r[0]) for r in self.all(
            "SELECT user_id FROM threads WHERE thread_id = ? ORDER BY user_id", (thread_id,))]

    def set_provider_choice(self, user_id: str, thread_id: str, provider: str) -> None:
        self._x("INSERT INTO provider_choices (user_id, thread_id, provider) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id, thread_id) DO UPDATE SET provider = excluded.provider",
                (user_id, thread_id, provider))

    def release_thread_attachments(self, user_id: str, thread_id: str) -> list[str]:
        owned = ("FROM attachments WHERE state <> 'deleted' AND message_id IN "
                 "(SELECT message_id FROM messages WHERE user_id = ? AND thread_id = ?) "
                 "AND device_id IN (SELECT device_id FROM devices WHERE user_id = ?)")
        params = (user_id, thread_id, user_id)
        names = [str(r[0]) for r in self.all(f"SELECT storage_path {owned}", params)]
        if names:
            self._x(f"UPDATE attachments SET state = 'deleted' WHERE attachment_id IN "
                    f"(SELECT attachment_id {owned})", params)
        return names

    def set_attachment(self, attachment_id: str, *, state: str, new_id: str | None = None,
                       message_id: str | None = None) -> None:
        self._x(
            "UPDATE attachments SET state = ?, attachment_id = ?, "
            "message_id = COALESCE(?, message_id) WHERE attachment_id = ?",
            (state, new_id or attachment_id, message_id, attachment_id))

    def insert_share(self, row: ShareRow, token_sha256: str) -> None:
        self._x("INSERT INTO share_links (share_id, token_sha256, thread_id, user_id, created_at, "
                "revoked_at) VALUES (?, ?, ?, ?, ?, ?)",
                (row.share_id, token_sha256, row.thread_id, row.user_id, row.created_at,
                 row.revoked_at))

    def revoke_share(self, share_id: str, at: str) -> None:
        self._x("UPDATE share_links SET revoked_at = ? WHERE share_id = ? AND revoked_at IS NULL",
                (at, share_id))


class SqlReader(SqlQueries, Reader):
    """``Reader`` over one open read transaction."""

    def device_by_token_hash(self, token_sha256: str) -> Device | None:
        row = self.one("SELECT device_id, user_id, name FROM devices "
                       "WHERE token_sha256 = ? AND revoked_at IS NULL", (token_sha256,))
        return None if row is None else Device(row[0], row[1], row[2] or "")

    def threads_of(self, user_id: str) -> list[ThreadRow]:
        rows = self.all(f"SELECT {_THREAD_READ_COLS} FROM threads WHERE user_id = ? "
                        "AND deleted_at IS NULL ORDER BY updated_at DESC, thread_id", (user_id,))
        return [t for t in map(_thread, rows) if t is not None]

    def messages_of(self, user_id: str, thread_id: str, *, limit: int | None = None,
                    before_sequence: int | None = None) -> tuple[list[MessageRow], bool]:
        sql = f"SELECT {_MESSAGE_COLS} FROM messages WHERE user_id = ? AND thread_id = ?"
        params: list[Any] = [user_id, thread_id]
        if before_sequence is not None:
            sql += " AND created_sequence < ?"
            params.append(before_sequence)
        sql += " ORDER BY created_sequence DESC, role DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit + 1)
        rows = [m for m in map(_message, self.all(sql, params)) if m is not None]
        has_more = limit is not None and len(rows) > limit
        rows = rows[:limit] if limit is not None else rows
        rows.reverse()
        return rows, has_more

    def events_after(self, after: int, user_id: str, *, thread_id: str | None = None,
                     types: tuple[str, ...] | None = None, limit: int | None = None
                     ) -> list[StoredEvent]:
        sql = f"SELECT {_EVENT_COLS} FROM {EVENTS_FROM} WHERE e.user_id = ? AND e.sequence > ?"
        params: list[Any] = [user_id, after]
        if thread_id is not None:
            sql += " AND e.thread_id = ?"
            params.append(thread_id)
        if types:
            sql += f" AND e.event_type IN ({', '.join('?' for _ in types)})"
            params.extend(types)
        sql += " ORDER BY e.sequence"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [_event(row) for row in self.all(sql, params)]

    def all_events_after(self, after: int, limit: int) -> list[StoredEvent]:
        """Every user's events after ``after`` (fan-out pump)."""
        rows = self.all(f"SELECT {_EVENT_COLS} FROM {EVENTS_FROM} WHERE e.sequence > ? "
                        "ORDER BY e.sequence LIMIT ?", (after, limit))
        return [_event(row) for row in rows]
