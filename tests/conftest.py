"""Shared fixtures (keep small)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.support.postgres import PostgresServer, throwaway_cluster

settings.register_profile(
    "composer", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("composer")
"""Property tests judge behaviour, never wall-clock time: a machine under load (CI, parallel
suites on two cores) makes any example slow, so no per-example deadline and no "too slow" data
generation check. Speed is measured in benchmarks/. Loaded here, before any test module builds
its own ``@settings`` on top of it."""


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
