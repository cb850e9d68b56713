"""Thread stores: SQLite (default, one data directory) and PostgreSQL (shared by processes)."""

from __future__ import annotations

from pathlib import Path

from composer_app.server.store.base import ThreadStore
from composer_app.server.store.executor import ExecutorStore


def open_store(data_dir: Path, database_url: str | None = None) -> ExecutorStore:
    """An unopened store: PostgreSQL when ``database_url`` is given, else SQLite in ``data_dir``."""
    if database_url:
        from composer_app.server.store.postgres import PostgresStore

        return PostgresStore(database_url)
    from composer_app.server.store.sqlite import SqliteStore

    return SqliteStore.in_dir(data_dir)


__all__ = ["ExecutorStore", "ThreadStore", "open_store"]
