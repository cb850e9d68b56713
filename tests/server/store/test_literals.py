"""Client-side SQL literals: every value reads back unchanged from a real PostgreSQL server, with
``standard_conforming_strings`` on and off, and values that cannot be literals are refused."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from composer_app.server.store.literals import bind, literal

TEXT = st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]))
BIGINT = st.integers(-(2**63), 2**63 - 1)
# One connection for every example; no wall-clock judgement (a loaded machine is slow).
SHARED = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@pytest.fixture(scope="module", params=["on", "off"])
def conn(request: pytest.FixtureRequest, postgres_server: object) -> Iterator[psycopg.Connection]:
    dsn = postgres_server.new_database()  # type: ignore[attr-defined]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"SET standard_conforming_strings = {request.param}")
        conn.execute("SET escape_string_warning = off")
        yield conn


def _read_back(conn: psycopg.Connection, sql: str, params: tuple[object, ...]) -> object:
    row = conn.execute(bind(sql, params).decode("utf-8")).fetchone()
    assert row is not None
    return row[0]


@pytest.mark.postgres
@settings(max_examples=150, deadline=None, suppress_health_check=SHARED)
@given(value=TEXT)
def test_any_text_reads_back_unchanged(conn: psycopg.Connection, value: str) -> None:
    assert _read_back(conn, "SELECT ?::text", (value,)) == value


@pytest.mark.postgres
@settings(max_examples=100, deadline=None, suppress_health_check=SHARED)
@given(value=BIGINT, other=BIGINT.filter(lambda n: abs(n) < 2**62))
def test_integers_read_back_unchanged_even_after_a_minus(conn: psycopg.Connection, value: int,
                                                          other: int) -> None:
    assert _read_back(conn, "SELECT ?::bigint", (value,)) == value
    assert _read_back(conn, "SELECT 0 - ?::bigint", (other,)) == -other  # "- -1", not a comment


@pytest.mark.postgres
def test_quotes_backslashes_and_statement_breakers_stay_inside_the_literal(
        conn: psycopg.Connection) -> None:
    hostile = ["'", "\\", "\\'", "'; DROP TABLE x; --", "E'\\\\'", "$$", "?", "%s", "\\\\'--"]
    for value in hostile:
        assert _read_back(conn, "SELECT ?", (value,)) == value
    assert _read_back(conn, "SELECT ? IS NULL", (None,)) is True
    assert _read_back(conn, "SELECT ?", (True,)) is True
    row = conn.execute(bind("SELECT ?, ?, ?", ("a?b", 7, None)).decode()).fetchone()
    assert row == ("a?b", 7, None)  # a "?" inside a value is not a placeholder


def test_values_that_cannot_be_literals_are_refused() -> None:
    with pytest.raises(psycopg.DataError):
        literal("a\x00b")  # would cut the statement short
    with pytest.raises(psycopg.DataError):
        bind("SELECT ?", ("\udc80",))
    with pytest.raises(TypeError):
        literal(1.5)
    with pytest.raises(psycopg.ProgrammingError):
        bind("SELECT ?, ?", (1,))
    assert bind("SELECT 1", ()) == b"SELECT 1"
