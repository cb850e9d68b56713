"""The client's local cache: threads, messages, sync cursors, outbox and uploads in one SQLite file.

Invariants: the file is opened in WAL mode with ``synchronous=FULL``, so a committed transaction
survives ``kill -9`` of the process; every multi-row change (a queued send and its local echo, a
snapshot replacing a thread) is one transaction; a server copy replaces a local row by primary key
(``message_id``), so an echo is never duplicated. The store is used from one thread only (the
engine's); rows handed out are frozen dataclasses, never cursors.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from composer_app.core.errors import StorageError
from composer_app.sync import message_search
from composer_app.sync.message_search import MessageHit

_SCHEMA = """
CREATE TABLE IF NOT EXISTS environments(
    environment_id TEXT PRIMARY KEY, base_url TEXT NOT NULL, capabilities_json TEXT NOT NULL,
    last_seen_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS threads(
    thread_id TEXT PRIMARY KEY, environment_id TEXT, title TEXT, updated_at TEXT,
    last_sequence INTEGER, local_state TEXT, provider TEXT, workspace TEXT);
CREATE TABLE IF NOT EXISTS messages(
    message_id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, role TEXT NOT NULL, text TEXT NOT NULL,
    is_streaming INTEGER NOT NULL DEFAULT 0, attachments_json TEXT, context_json TEXT,
    sources_json TEXT, metadata_json TEXT, local_state TEXT, created_at TEXT,
    sequence INTEGER, local_reason TEXT);
CREATE INDEX IF NOT EXISTS messages_by_thread ON messages(thread_id);
CREATE TABLE IF NOT EXISTS outbox(
    command_id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, kind TEXT NOT NULL,
    message_id TEXT, payload_json TEXT NOT NULL, state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at REAL NOT NULL DEFAULT 0,
    first_attempt_at REAL, last_error TEXT, depends_on_uploads_json TEXT NOT NULL DEFAULT '[]',
    reason TEXT, for_good INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS uploads(
    local_id TEXT PRIMARY KEY, path TEXT NOT NULL, name TEXT NOT NULL, mime_type TEXT NOT NULL,
    sha256 TEXT NOT NULL, size INTEGER NOT NULL, server_attachment_id TEXT, state TEXT NOT NULL,
    expires_at TEXT, sent_bytes INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS sync_cursor(stream TEXT PRIMARY KEY, last_sequence INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS drafts(
    thread_key TEXT PRIMARY KEY, prompt TEXT, records_json TEXT, shelf_json TEXT, updated_at TEXT);
"""


_THREAD_COLS = ("thread_id, title, updated_at, last_sequence, environment_id, local_state, "
                "provider, workspace")
"""The ``threads`` columns in ``ThreadRow`` field order."""
_MESSAGE_COLS = ("message_id, thread_id, role, text, is_streaming, attachments_json, context_json, "
                 "sources_json, metadata_json, local_state, created_at, sequence, local_reason")
"""The ``messages`` columns in ``MessageRow`` field order."""
_OUTBOX_COLS = ("command_id, thread_id, kind, message_id, payload_json, state, attempts, "
                "next_attempt_at, first_attempt_at, last_error, depends_on_uploads_json, reason, "
                "for_good")
"""The ``outbox`` columns, in the order ``add_outbox`` and ``outbox`` use."""


def _dump(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@dataclass(frozen=True)
class ThreadRow:
    """One thread of the thread list; ``local_state`` is ``"creating"`` until the server has it.

    ``provider`` is the assistant provider the thread's turns use (``local``, ``openai``, ...), or
    None when the server does not say (a server with a single provider).
    """

    thread_id: str
    title: str | None = None
    updated_at: str | None = None
    last_sequence: int | None = None
    environment_id: str | None = None
    local_state: str | None = None
    provider: str | None = None
    workspace: str | None = None
    """The thread's workspace folder on the server, or None when it has none."""


@dataclass(frozen=True)
class MessageRow:
    """A message: a server copy (``local_state`` None) or a local echo (sending/blocked/unsent).

    ``reason`` says in plain words why an ``unsent`` echo was not sent (None otherwise).
    """

    message_id: str
    thread_id: str
    role: str
    text: str
    is_streaming: bool = False
    attachments: tuple[dict[str, Any], ...] = ()
    context: dict[str, Any] | None = None
    sources: Any = None
    metadata: Any = None
    local_state: str | None = None
    created_at: str | None = None
    sequence: int | None = None
    reason: str | None = None


@dataclass(frozen=True)
class OutboxRow:
    """One queued command; ``payload`` is the stored body (uploads bound, fold applied at send).

    ``last_error`` is the last failure's code; ``reason`` says in plain words why an ``unsent``
    item was not sent; ``for_good`` marks a failure no automatic retry can cure (a refusal, a file
    that is gone): such an item no longer holds back the later items of its thread.
    """

    command_id: str
    thread_id: str
    kind: str
    payload: dict[str, Any]
    state: str
    message_id: str | None = None
    attempts: int = 0
    next_attempt_at: float = 0.0
    first_attempt_at: float | None = None
    last_error: str | None = None
    depends_on_uploads: tuple[str, ...] = ()
    reason: str | None = None
    for_good: bool = False


@dataclass(frozen=True)
class UploadRow:
    """A file copied into app data and uploaded under a server-assigned pending id."""

    local_id: str
    path: str
    name: str
    mime_type: str
    sha256: str
    size: int
    state: str
    server_attachment_id: str | None = None
    expires_at: str | None = None
    sent_bytes: int = 0


class ClientStore:
    """The client database (``client.sqlite3``)."""

    def __init__(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
            self._upgrade()
            message_search.install(self._db)
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open the client database: {exc}") from exc
        self._depth = 0

    def _upgrade(self) -> None:
        """Add the columns later versions introduced to a database an older version created."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(threads)")}
        if "provider" not in columns:
            self._db.execute("ALTER TABLE threads ADD COLUMN provider TEXT")
        if "workspace" not in columns:
            self._db.execute("ALTER TABLE threads ADD COLUMN workspace TEXT")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(messages)")}
        if "local_reason" not in columns:
            self._db.execute("ALTER TABLE messages ADD COLUMN local_reason TEXT")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(outbox)")}
        if "reason" not in columns:
            self._db.execute("ALTER TABLE outbox ADD COLUMN reason TEXT")
        if "for_good" not in columns:
            self._db.execute("ALTER TABLE outbox ADD COLUMN for_good INTEGER NOT NULL DEFAULT 0")

    def close(self) -> None:
        """Close the connection (committed data is already on disk)."""
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic unit; nested uses join the outer transaction."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            if self._db.in_transaction:  # SQLite may have rolled back already (disk full)
                self._db.execute("ROLLBACK")
            raise
        self._depth = 0
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

    def _exec(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

    # environments ---------------------------------------------------------------------------
    def save_environment(self, environment_id: str, base_url: str, capabilities: dict[str, Any],
                         seen_at: float) -> None:
        """Remember a server's identity and its latest capabilities."""
        self._exec(
            "INSERT INTO environments VALUES(?,?,?,?) ON CONFLICT(environment_id) DO UPDATE SET "
            "base_url=excluded.base_url, capabilities_json=excluded.capabilities_json, "
            "last_seen_at=excluded.last_seen_at",
            (environment_id, base_url, _dump(capabilities), seen_at),
        )

    def environment_capabilities(self, base_url: str) -> dict[str, Any] | None:
        """The capabilities last seen at ``base_url``, or None."""
        row = self._exec(
            "SELECT capabilities_json FROM environments WHERE base_url=? "
            "ORDER BY last_seen_at DESC LIMIT 1", (base_url,)).fetchone()
        return None if row is None else dict(_load(row[0]))

    # threads ----------------------------------------------------------------------------------
    def upsert_thread(self, row: ThreadRow) -> None:
        """Insert or replace one thread."""
        self._exec(
            "INSERT OR REPLACE INTO threads(thread_id, environment_id, title, updated_at, "
            "last_sequence, local_state, provider, workspace) VALUES(?,?,?,?,?,?,?,?)",
            (row.thread_id, row.environment_id, row.title, row.updated_at, row.last_sequence,
             row.local_state, row.provider, row.workspace),
        )

    def thread(self, thread_id: str) -> ThreadRow | None:
        """One thread, or None."""
        row = self._exec(f"SELECT {_THREAD_COLS} FROM threads WHERE thread_id=?",
                         (thread_id,)).fetchone()
        return None if row is None else ThreadRow(*row)

    def threads(self) -> list[ThreadRow]:
        """Every cached thread, newest first."""
        rows = self._exec(f"SELECT {_THREAD_COLS} FROM threads "
                          "ORDER BY updated_at DESC, rowid DESC").fetchall()
        return [ThreadRow(*r) for r in rows]

    def delete_thread(self, thread_id: str) -> None:
        """Forget a thread, its messages and its cursor."""
        with self.transaction():
            self._exec("DELETE FROM threads WHERE thread_id=?", (thread_id,))
            self._exec("DELETE FROM messages WHERE thread_id=?", (thread_id,))
            self._exec("DELETE FROM sync_cursor WHERE stream=?", (f"thread:{thread_id}",))

    def replace_threads(self, rows: list[ThreadRow], as_of: int | None = None) -> None:
        """Shell snapshot: server threads become exactly ``rows``; locally created ones stay,
        and so do threads known from an event newer than the snapshot's sequence ``as_of``, in
        the state that event left (a list read before a thread was created or renamed says
        nothing about it)."""
        with self.transaction():
            keep = {r.thread_id for r in rows}
            cached = self.threads()
            newer = {t.thread_id for t in cached
                     if as_of is not None and (t.last_sequence or 0) > as_of}
            for old in cached:
                if (old.thread_id not in keep and old.local_state is None
                        and old.thread_id not in newer):
                    self.delete_thread(old.thread_id)
            for row in rows:
                if row.thread_id not in newer:  # never an older state over a newer one
                    self.upsert_thread(row)

    # messages ---------------------------------------------------------------------------------
    def upsert_message(self, row: MessageRow) -> None:
        """Insert a message or replace the row with the same ``message_id`` in place."""
        self._exec(
            "INSERT INTO messages(message_id, thread_id, role, text, is_streaming, "
            "attachments_json, context_json, sources_json, metadata_json, local_state, "
            "created_at, sequence, local_reason) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?) "
            "ON CONFLICT(message_id) DO UPDATE SET thread_id=excluded.thread_id, "
            "role=excluded.role, text=excluded.text, "
            "is_streaming=excluded.is_streaming, attachments_json=excluded.attachments_json, "
            "context_json=excluded.context_json, sources_json=excluded.sources_json, "
            "metadata_json=excluded.metadata_json, local_state=excluded.local_state, "
            "created_at=excluded.created_at, sequence=excluded.sequence, "
            "local_reason=excluded.local_reason",
            (row.message_id, row.thread_id, row.role, row.text, int(row.is_streaming),
             _dump(list(row.attachments)), _dump(row.context), _dump(row.sources),
             _dump(row.metadata), row.local_state, row.created_at, row.sequence, row.reason),
        )

    def message(self, message_id: str) -> MessageRow | None:
        """One message, or None."""
        row = self._exec(f"SELECT {_MESSAGE_COLS} FROM messages WHERE message_id=?",
                         (message_id,)).fetchone()
        return None if row is None else _message(row)

    def messages(self, thread_id: str) -> list[MessageRow]:
        """A thread's messages: server copies in sequence order, then local rows in queue order."""
        rows = self._exec(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE thread_id=? "
            "ORDER BY sequence IS NULL, sequence, rowid", (thread_id,)).fetchall()
        return [_message(r) for r in rows]

    def last_messages(self) -> dict[str, MessageRow]:
        """Each thread's last message (a local echo after the server copies), by thread id."""
        rows = self._exec(
            "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY thread_id "
            "ORDER BY sequence IS NULL DESC, sequence DESC, rowid DESC) AS n FROM messages) "
            "WHERE n = 1").fetchall()
        return {r[1]: _message(r) for r in rows}

    def search_messages(self, query: str, limit: int = 50,
                        thread_id: str | None = None) -> list[MessageHit]:
        """Messages whose text (chips as their labels) holds every word of ``query``."""
        try:
            return message_search.search(self._db, query, limit, thread_id)
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

    def delete_message(self, message_id: str) -> None:
        """Remove one message row."""
        self._exec("DELETE FROM messages WHERE message_id=?", (message_id,))

    def replace_messages(self, thread_id: str, rows: list[MessageRow]) -> None:
        """Thread snapshot: server copies become ``rows``; local echoes stay on top."""
        with self.transaction():
            self._exec("DELETE FROM messages WHERE thread_id=? AND local_state IS NULL",
                       (thread_id,))
            for row in rows:  # an echo the snapshot already holds moves to its server place
                self.delete_message(row.message_id)
            for row in rows:
                self.upsert_message(row)

    # cursors ----------------------------------------------------------------------------------
    def cursor(self, stream: str) -> int | None:
        """The last applied sequence of ``stream``, or None."""
        row = self._exec("SELECT last_sequence FROM sync_cursor WHERE stream=?",
                         (stream,)).fetchone()
        return None if row is None else int(row[0])

    def set_cursor(self, stream: str, sequence: int) -> None:
        """Record ``sequence`` as applied for ``stream``."""
        self._exec("INSERT OR REPLACE INTO sync_cursor VALUES(?,?)", (stream, sequence))

    # outbox -----------------------------------------------------------------------------------
    def add_outbox(self, row: OutboxRow, echo: MessageRow | None = None) -> None:
        """Queue a command and its local echo in one transaction."""
        with self.transaction():
            self._exec(
                f"INSERT INTO outbox({_OUTBOX_COLS}) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (row.command_id, row.thread_id, row.kind, row.message_id, _dump(row.payload),
                 row.state, row.attempts, row.next_attempt_at, row.first_attempt_at,
                 row.last_error, _dump(list(row.depends_on_uploads)), row.reason,
                 int(row.for_good)),
            )
            if echo is not None:
                self.upsert_message(echo)

    def update_outbox(self, row: OutboxRow) -> None:
        """Write an item's schedule and state back."""
        self._exec(
            "UPDATE outbox SET payload_json=?, state=?, attempts=?, next_attempt_at=?, "
            "first_attempt_at=?, last_error=?, depends_on_uploads_json=?, reason=?, for_good=? "
            "WHERE command_id=?",
            (_dump(row.payload), row.state, row.attempts, row.next_attempt_at,
             row.first_attempt_at, row.last_error, _dump(list(row.depends_on_uploads)),
             row.reason, int(row.for_good), row.command_id),
        )

    def renumber_outbox(self, command_id: str, row: OutboxRow) -> None:
        """Give the item ``command_id`` the new ``row.command_id`` (and the rest of ``row``),
        keeping its place in the queue."""
        with self.transaction():
            self._exec("UPDATE outbox SET command_id=? WHERE command_id=?",
                       (row.command_id, command_id))
            self.update_outbox(row)

    def remove_outbox(self, command_id: str) -> None:
        """Drop a delivered or deleted item."""
        self._exec("DELETE FROM outbox WHERE command_id=?", (command_id,))

    def queued_provider(self, thread_id: str) -> str | None:
        """The provider the last queued ``thread.meta.update`` of ``thread_id`` chooses, or None
        when no queued update chooses one."""
        row = self._exec(
            "SELECT json_extract(payload_json, '$.provider') FROM outbox WHERE thread_id=? "
            "AND kind='thread.meta.update' AND json_extract(payload_json, '$.provider') "
            "IS NOT NULL ORDER BY rowid DESC LIMIT 1", (thread_id,)).fetchone()
        return None if row is None else str(row[0])

    def outbox(self) -> list[OutboxRow]:
        """Every queued item in queue order."""
        rows = self._exec(f"SELECT {_OUTBOX_COLS} FROM outbox ORDER BY rowid").fetchall()
        return [
            OutboxRow(command_id=r[0], thread_id=r[1], kind=r[2], message_id=r[3],
                      payload=_load(r[4]), state=r[5], attempts=r[6], next_attempt_at=r[7],
                      first_attempt_at=r[8], last_error=r[9],
                      depends_on_uploads=tuple(_load(r[10]) or ()), reason=r[11],
                      for_good=bool(r[12]))
            for r in rows
        ]

    # uploads ----------------------------------------------------------------------------------
    def save_upload(self, row: UploadRow) -> None:
        """Insert or replace an upload row."""
        self._exec(
            "INSERT OR REPLACE INTO uploads VALUES(?,?,?,?,?,?,?,?,?,?)",
            (row.local_id, row.path, row.name, row.mime_type, row.sha256, row.size,
             row.server_attachment_id, row.state, row.expires_at, row.sent_bytes),
        )

    def upload(self, local_id: str) -> UploadRow | None:
        """One upload, or None."""
        r = self._exec("SELECT * FROM uploads WHERE local_id=?", (local_id,)).fetchone()
        return None if r is None else UploadRow(r[0], r[1], r[2], r[3], r[4], r[5], r[7], r[6],
                                                r[8], r[9])

    def uploads(self) -> list[UploadRow]:
        """Every upload row."""
        rows = self._exec("SELECT local_id FROM uploads ORDER BY rowid").fetchall()
        return [u for (lid,) in rows if (u := self.upload(lid)) is not None]

    def delete_upload(self, local_id: str) -> None:
        """Forget an upload."""
        self._exec("DELETE FROM uploads WHERE local_id=?", (local_id,))


def _message(r: tuple[Any, ...]) -> MessageRow:
    return MessageRow(
        message_id=r[0], thread_id=r[1], role=r[2], text=r[3], is_streaming=bool(r[4]),
        attachments=tuple(_load(r[5]) or ()), context=_load(r[6]), sources=_load(r[7]),
        metadata=_load(r[8]), local_state=r[9], created_at=r[10], sequence=r[11],
        reason=r[12],
    )
