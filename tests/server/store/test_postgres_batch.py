"""Queued statements sent as prepared statements in one pipeline, on a real PostgreSQL server:
each is parsed once per connection, the first failing statement's error is raised and the
connection stays usable, and statements are prepared again where the server no longer knows
them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
import pytest

from composer_app.server.store.bridge import run_bridged
from composer_app.server.store.postgres_batch import PREPARED_LIMIT, Batch, Prepared


def _on_connection[T](dsn: str, body: Callable[[psycopg.AsyncConnection[Any], Prepared],
                                            Awaitable[T]]) -> T:
    async def run() -> T:
        conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
        try:
            await conn.execute("CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)")
            return await body(conn, Prepared())
        finally:
            await conn.close()

    return asyncio.run(run())


async def _server_statements(conn: psycopg.AsyncConnection[Any]) -> list[str]:
    cursor = await conn.execute("SELECT name FROM pg_prepared_statements "
                                "WHERE name LIKE 'composer%' ORDER BY name")
    return [str(r[0]) for r in await cursor.fetchall()]


async def _names(conn: psycopg.AsyncConnection[Any]) -> list[str]:
    cursor = await conn.execute("SELECT name FROM items ORDER BY id")
    return [str(r[0]) for r in await cursor.fetchall()]


@pytest.mark.postgres
def test_statements_are_prepared_once_per_connection_and_sent_in_one_round_trip(
        postgres_dsn: str) -> None:
    async def body(conn: psycopg.AsyncConnection[Any], prepared: Prepared) -> None:
        def transaction(n: int) -> list[Any]:
            batch = Batch(conn, prepared)
            batch("BEGIN", ())
            for i in range(3):
                batch("INSERT INTO items (id, name) VALUES (?, ?)", (n + i, f"it's {n + i}"))
            rows = batch("SELECT id, name FROM items WHERE id >= ? ORDER BY id", (n,)).fetchall()
            batch("COMMIT", ())
            batch.flush()
            assert batch.round_trips == 2
            return rows

        assert await run_bridged(transaction, 1) == [(1, "it's 1"), (2, "it's 2"),
                                                     (3, "it's 3")]
        first = await _server_statements(conn)
        assert len(first) == 4 == len(prepared.names)  # BEGIN, INSERT, SELECT, COMMIT
        assert await run_bridged(transaction, 10) == [(10, "it's 10"), (11, "it's 11"),
                                                      (12, "it's 12")]
        assert await _server_statements(conn) == first  # nothing parsed again

    _on_connection(postgres_dsn, body)


@pytest.mark.postgres
def test_the_first_failing_statement_raises_its_error_and_the_connection_stays_usable(
        postgres_dsn: str) -> None:
    async def body(conn: psycopg.AsyncConnection[Any], prepared: Prepared) -> None:
        await conn.execute("INSERT INTO items VALUES (1, 'one')")

        def failing() -> None:
            batch = Batch(conn, prepared)
            batch("BEGIN", ())
            batch("INSERT INTO items (id, name) VALUES (?, ?)", (2, "two"))
            batch("INSERT INTO items (id, name) VALUES (?, ?)", (1, "again"))  # duplicate key
            batch("SELECT 1 / ?", (0,))  # would fail too, but is never run
            batch("INSERT INTO items (id, name) VALUES (?, ?)", (3, "three"))
            batch.flush()

        with pytest.raises(psycopg.errors.UniqueViolation):
            await run_bridged(failing)
        assert conn.pgconn.pipeline_status == 0  # out of pipeline mode
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR
        await conn.execute("ROLLBACK")
        assert await _names(conn) == ["one"]  # the statement before it was rolled back

        def succeeding() -> object:
            batch = Batch(conn, prepared)
            batch("BEGIN", ())
            batch("INSERT INTO items (id, name) VALUES (?, ?)", (2, "two"))
            row = batch("SELECT count(*) FROM items WHERE id > ?", (0,)).fetchone()
            batch("COMMIT", ())
            batch.flush()
            return row

        assert await run_bridged(succeeding) == (2,)
        assert await _names(conn) == ["one", "two"]

        def bad_parse() -> object:  # a statement the server cannot parse fails with its own error
            batch = Batch(conn, prepared)
            batch("SELECT name FROM no_such_table WHERE id = ?", (1,))
            return batch("SELECT 1", ()).fetchone()

        known = dict(prepared.names)
        with pytest.raises(psycopg.errors.UndefinedTable):
            await run_bridged(bad_parse)
        assert prepared.names == known  # neither it nor the skipped statement counts prepared
        await conn.execute("CREATE TABLE no_such_table (id int, name text)")
        assert await run_bridged(bad_parse) == (1,)  # prepared now that it can be

    _on_connection(postgres_dsn, body)


@pytest.mark.postgres
def test_statements_are_prepared_again_once_the_session_forgot_them(postgres_dsn: str) -> None:
    async def body(conn: psycopg.AsyncConnection[Any], prepared: Prepared) -> None:
        def count() -> object:
            batch = Batch(conn, prepared)
            return batch("SELECT count(*) FROM items WHERE id > ?", (0,)).fetchone()

        assert await run_bridged(count) == (0,)
        await conn.execute("DEALLOCATE ALL")  # a session reset
        with pytest.raises(psycopg.errors.InvalidSqlStatementName):
            await run_bridged(count)
        assert prepared.names == {}
        assert await run_bridged(count) == (0,)
        assert len(await _server_statements(conn)) == 1

    _on_connection(postgres_dsn, body)


@pytest.mark.postgres
def test_parameters_and_a_finished_read_s_rollback_travel_in_the_pipeline(
        postgres_dsn: str) -> None:
    """Values of every kind read back unchanged, a parameter the client cannot encode goes to the
    driver, and a connection parked in a read's transaction is rolled back first."""
    async def body(conn: psycopg.AsyncConnection[Any], prepared: Prepared) -> None:
        await conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

        def read() -> object:
            batch = Batch(conn, prepared, end_read=True)
            batch("BEGIN", ())
            batch("INSERT INTO items (id, name) VALUES (?, ?)", (7, "a?b $1 'q' \\ é"))
            row = batch("SELECT ?::bigint, ?::bool, ?::text, ?::float8, ?::numeric",
                        (-(2**63), True, None, 1.5, 2**70)).fetchone()
            batch("COMMIT", ())
            batch.flush()
            return row

        assert await run_bridged(read) == (-(2**63), True, None, 1.5, 2**70)
        assert await _names(conn) == ["a?b $1 'q' \\ é"]  # committed: not the read-only one
        with pytest.raises(psycopg.DataError):
            Batch(conn, prepared)("SELECT ?", ("a\x00b",))
        with pytest.raises(psycopg.ProgrammingError):
            Batch(conn, prepared)("SELECT ?, ?", (1,))

    _on_connection(postgres_dsn, body)


@pytest.mark.postgres
def test_past_the_limit_statements_run_unnamed(postgres_dsn: str) -> None:
    async def body(conn: psycopg.AsyncConnection[Any], prepared: Prepared) -> None:
        for i in range(PREPARED_LIMIT):  # as if the connection had prepared that many already
            prepared.names[(b"-- %d" % i, ())] = b"unused"

        def read() -> object:
            return Batch(conn, prepared)("SELECT ? + 1", (41,)).fetchone()

        assert await run_bridged(read) == (42,)
        assert await _server_statements(conn) == []
        assert len(prepared.names) == PREPARED_LIMIT

    _on_connection(postgres_dsn, body)


def _sent_savepoint_statements(prepared: Prepared) -> list[str]:
    return sorted(sql.decode() for sql, _ in prepared.names
                  if b"SAVEPOINT" in sql)


@pytest.mark.postgres
def test_a_savepoint_goes_out_only_when_its_block_s_statements_are_sent_inside_it(
        postgres_dsn: str) -> None:
    """A block whose statements are still queued when it ends is released by sending them as
    they are and rolled back by dropping them: no ``SAVEPOINT`` (no subtransaction) at all. A
    block whose statements are sent while it is open gets its ``SAVEPOINT`` in front of them, in
    the same round trip, and its ``ROLLBACK TO`` undoes them on the server."""
    insert = "INSERT INTO items (id, name) VALUES (?, ?)"

    async def body(conn: psycopg.AsyncConnection[Any], prepared: Prepared) -> None:
        def queued_only() -> int:
            batch = Batch(conn, prepared)
            batch("BEGIN", ())
            batch(insert, (1, "kept"))
            dropped = batch.savepoint()
            batch(insert, (2, "dropped"))
            inner = batch.savepoint()
            batch(insert, (3, "dropped with its block"))
            batch.release(inner)
            batch.rollback(dropped)
            kept = batch.savepoint()
            batch(insert, (4, "kept"))
            batch.release(kept)
            batch("COMMIT", ())
            batch.flush()
            return batch.round_trips

        assert await run_bridged(queued_only) == 1
        assert await _names(conn) == ["kept", "kept"]
        assert _sent_savepoint_statements(prepared) == []

        def sent_inside() -> tuple[object, int]:
            batch = Batch(conn, prepared)
            batch("BEGIN", ())
            outer = batch.savepoint()
            batch(insert, (5, "undone on the server"))
            inner = batch.savepoint()
            batch(insert, (6, "undone on the server"))
            seen = batch("SELECT count(*) FROM items", ()).fetchone()  # both placed, sent
            late = batch.savepoint()  # opened after the send: never sent
            batch(insert, (7, "dropped"))
            batch.rollback(late)
            batch.rollback(inner)
            batch(insert, (8, "undone with the outer block"))
            batch.rollback(outer)
            batch(insert, (9, "kept"))
            with pytest.raises(RuntimeError):
                batch.release(outer)  # already ended
            batch("COMMIT", ())
            batch.flush()
            return seen, batch.round_trips

        assert await run_bridged(sent_inside) == ((4,), 2)
        assert await _names(conn) == ["kept", "kept", "kept"]
        assert _sent_savepoint_statements(prepared) == [
            "RELEASE SAVEPOINT lazy_0", "RELEASE SAVEPOINT lazy_1",
            "ROLLBACK TO SAVEPOINT lazy_0", "ROLLBACK TO SAVEPOINT lazy_1",
            "SAVEPOINT lazy_0", "SAVEPOINT lazy_1"]

        def not_innermost() -> None:
            batch = Batch(conn, prepared)
            outer = batch.savepoint()
            batch.savepoint()
            batch.release(outer)

        with pytest.raises(RuntimeError):
            await run_bridged(not_innermost)

    _on_connection(postgres_dsn, body)
