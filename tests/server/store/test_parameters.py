"""Text parameters of prepared statements: every value reads back unchanged from a real PostgreSQL
server, and values that cannot be text parameters are refused or left to the driver."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from composer_app.server.store.parameters import count, encode, numbered

TEXT = st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]))
BIGINT = st.integers(-(2**63), 2**63 - 1)
# One connection for every example; no wall-clock judgement (a loaded machine is slow).
SHARED = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
_NAMES = itertools.count()


@pytest.fixture(scope="module")
def conn(postgres_server: object) -> Iterator[psycopg.Connection]:
    dsn = postgres_server.new_database()  # type: ignore[attr-defined]
    with psycopg.connect(dsn, autocommit=True) as conn:
        yield conn


def _read_back(conn: psycopg.Connection, sql: str, params: Sequence[object]) -> tuple[object, ...]:
    """``sql`` prepared with the parameters' types, then run with their values."""
    types, values = encode(params)
    name = b"t%d" % next(_NAMES)
    pgconn = conn.pgconn
    prepared = pgconn.prepare(name, numbered(sql), types)
    assert prepared.status == psycopg.pq.ExecStatus.COMMAND_OK, prepared.error_message
    result = pgconn.exec_prepared(name, values)
    assert result.status == psycopg.pq.ExecStatus.TUPLES_OK, result.error_message
    rows = psycopg.adapt.Transformer(conn)
    rows.set_pgresult(result)
    row = rows.load_row(0, tuple)
    assert row is not None
    return row


@pytest.mark.postgres
@settings(max_examples=150, deadline=None, suppress_health_check=SHARED)
@given(value=TEXT)
def test_any_text_reads_back_unchanged(conn: psycopg.Connection, value: str) -> None:
    assert _read_back(conn, "SELECT ?::text", (value,)) == (value,)


@pytest.mark.postgres
@settings(max_examples=100, deadline=None, suppress_health_check=SHARED)
@given(value=BIGINT, other=BIGINT.filter(lambda n: abs(n) < 2**62))
def test_integers_read_back_unchanged(conn: psycopg.Connection, value: int, other: int) -> None:
    assert _read_back(conn, "SELECT ?, 0 - ?", (value, other)) == (value, -other)


@pytest.mark.postgres
def test_quotes_backslashes_and_placeholders_stay_inside_the_value(
        conn: psycopg.Connection) -> None:
    hostile = ["'", "\\", "\\'", "'; DROP TABLE x; --", "E'\\\\'", "$$", "?", "$1", "%s"]
    for value in hostile:
        assert _read_back(conn, "SELECT ?::text", (value,)) == (value,)
    assert _read_back(conn, "SELECT ?::text IS NULL, ?, ?", (None, True, False)) == (
        True, True, False)
    assert _read_back(conn, "SELECT ?::text, ?::int, ?::text", ("a?b", 7, None)) == (
        "a?b", 7, None)  # a "?" inside a value is not a placeholder
    assert _read_back(conn, "SELECT length(?)", ("typed by the function",)) == (21,)


def test_placeholders_are_numbered_left_to_right() -> None:
    assert numbered("SELECT ? + ?, ?") == b"SELECT $1 + $2, $3"
    assert count("SELECT ? + ?, ?") == 3
    assert numbered("SELECT 1") == b"SELECT 1" and count("SELECT 1") == 0


def test_values_that_cannot_be_text_parameters_are_refused() -> None:
    with pytest.raises(psycopg.DataError):
        encode(["a\x00b"])  # libpq would cut it short
    with pytest.raises(psycopg.DataError):
        encode(["\udc80"])
    with pytest.raises(TypeError):
        encode([1.5])
    with pytest.raises(TypeError):
        encode([2**63])  # beyond bigint: the driver sends it as numeric
    assert encode([]) == ((), [])
