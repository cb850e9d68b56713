"""The SQLite ``ThreadStore``: one file in the data directory, WAL mode, exactly one writer.

Invariants: every connection runs with ``journal_mode=WAL``, ``synchronous=NORMAL``,
``busy_timeout=5000``, ``foreign_keys=ON`` and ``temp_store=MEMORY``; the data directory is 0700 and
the database with its WAL and shared-memory files 0600, whatever the umask; one writer connection
(used under one lock, on the event loop thread while serving) does every write, so
``INTEGER PRIMARY KEY AUTOINCREMENT`` is gap-free in commit order and safe as a resume cursor.

The writer's settings are chosen for group commits (many commands' savepoints in one transaction):
the savepoints' rollback pages stay in memory (``temp_store=MEMORY``; in a temporary file they were
most of the process's file writes), its page cache holds ``WRITER_CACHE_KIB`` (the default 2
MiB made a large group spill pages to the WAL and read index pages back), and the WAL is
checkpointed into the database every ``CHECKPOINT_PAGES`` pages (a page written by many commits is
copied once per checkpoint). Durability is unchanged: a commit is in the WAL before it is answered.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from composer_app.core.errors import StorageError
from composer_app.server.private_files import make_private, private_dir, private_file
from composer_app.server.store.executor import ExecutorStore

DATABASE_FILE = "composer-server.sqlite3"
WRITER_CACHE_KIB = 32 * 1024
CHECKPOINT_PAGES = 4000


class SqliteStore(ExecutorStore):
    """``ThreadStore`` on one SQLite file."""

    dialect = "sqlite"
    inline_writes = True

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)

    @classmethod
    def in_dir(cls, data_dir: Path) -> SqliteStore:
        """The store of a server data directory (created if missing)."""
        private_dir(Path(data_dir))
        return cls(Path(data_dir) / DATABASE_FILE)

    def _connect(self, *, writer: bool) -> Any:
        if writer:
            private_file(self.path)
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                               timeout=5.0)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA temp_store=MEMORY")
        if writer:
            conn.execute(f"PRAGMA cache_size=-{WRITER_CACHE_KIB}")
            conn.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_PAGES}")
            for suffix in ("-wal", "-shm"):
                make_private(self.path.with_name(self.path.name + suffix))
        return _Connection(conn)

    def _execute(self, conn: Any) -> Callable[[str, Sequence[Any]], Any]:
        raw: sqlite3.Connection = conn.raw
        return lambda sql, params: raw.execute(sql, tuple(params))

    def _begin(self, conn: Any, *, writer: bool) -> None:
        conn.raw.execute("BEGIN IMMEDIATE" if writer else "BEGIN")

    def _translate(self, exc: Exception) -> Exception | None:
        if isinstance(exc, sqlite3.Error):
            return StorageError(f"sqlite: {exc}")
        return None

    def _in_transaction(self, conn: Any) -> bool:
        return bool(conn.raw.in_transaction)


class _Connection:
    """An autocommit sqlite3 connection with explicit BEGIN/COMMIT/ROLLBACK."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def commit(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("COMMIT")

    def rollback(self) -> None:
        if self.raw.in_transaction:
            self.raw.execute("ROLLBACK")

    def close(self) -> None:
        self.raw.close()
