"""Shared fixtures (keep small)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.postgres import PostgresServer, throwaway_cluster


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session (skips only when no PostgreSQL binaries exist)."""
    with throwaway_cluster() as server:
        if server is None:
            pytest.skip("no PostgreSQL binaries (initdb/pg_ctl) and no COMPOSER_TEST_POSTGRES_DSN")
        yield server


@pytest.fixture
def postgres_dsn(postgres_server: PostgresServer) -> str:
    """A fresh, empty database on the session's PostgreSQL server."""
    return postgres_server.new_database()
