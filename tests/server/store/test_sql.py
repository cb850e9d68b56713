"""The paging reads' query plans on both stores: a page of a long thread and a user's thread list
come straight from an index in their order (no sort of the whole thread or list), so their cost
does not grow with the thread or the list."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import psycopg
import pytest

from composer_app.server.store.base import MessageRow, Transaction
from composer_app.server.store.executor import ExecutorStore
from composer_app.server.store.postgres import PostgresStore
from composer_app.server.store.sql import SqlReader
from composer_app.server.store.sqlite import SqliteStore

AT = "2026-12-01T00:00:00.000Z"
Explain = Callable[[str, Sequence[Any]], str]


def _fill(store: ExecutorStore) -> None:
    def write(tx: Transaction) -> None:
        for n in range(3):
            tx.insert_thread(f"thr_{n}", "u1", f"T{n}", AT)
        for n in range(1, 41):
            tx.insert_message(MessageRow(
                message_id=f"msg_{n}", thread_id="thr_0", user_id="u1", turn_id=None,
                role="user" if n % 2 else "assistant", text=f"m{n}", is_streaming=False,
                created_at=AT, updated_at=AT, completed_at=AT, created_sequence=n))
        tx.update_thread("u1", "thr_2", deleted_at=AT, at=AT)

    store.write_sync(write)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def explain(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Explain, Callable[
        [str, Sequence[Any]], list[Any]]]]:
    """(plan of a statement, run a statement) on a filled store of each kind."""
    if request.param == "sqlite":
        lite = SqliteStore.in_dir(tmp_path)
        store: ExecutorStore = lite
        store.open()
        _fill(store)
        conn = sqlite3.connect(lite.path)

        def plan(sql: str, params: Sequence[Any]) -> str:
            rows = conn.execute("EXPLAIN QUERY PLAN " + sql, tuple(params)).fetchall()
            return "\n".join(str(r[-1]) for r in rows)

        def run(sql: str, params: Sequence[Any]) -> list[Any]:
            return conn.execute(sql, tuple(params)).fetchall()

        yield plan, run
        conn.close()
    else:
        store = PostgresStore(request.getfixturevalue("postgres_dsn"))
        store.open()
        _fill(store)
        pg = psycopg.connect(store.conninfo, autocommit=True)
        pg.execute("ANALYZE")
        pg.execute("SET enable_seqscan = off")  # a table this small would be scanned whole

        def plan(sql: str, params: Sequence[Any]) -> str:
            rows = pg.execute("EXPLAIN " + sql.replace("?", "%s"), tuple(params)).fetchall()
            return "\n".join(str(r[0]) for r in rows)

        def run(sql: str, params: Sequence[Any]) -> list[Any]:
            return pg.execute(sql.replace("?", "%s"), tuple(params)).fetchall()

        yield plan, run
        pg.close()
    store.close()


def _statements(read: Callable[[SqlReader], Any], run: Callable[[str, Sequence[Any]], list[Any]]
                ) -> tuple[Any, list[tuple[str, Sequence[Any]]]]:
    seen: list[tuple[str, Sequence[Any]]] = []

    class Rows:
        def __init__(self, rows: list[Any]) -> None:
            self.rows = rows

        def fetchone(self) -> Any:
            return self.rows[0] if self.rows else None

        def fetchall(self) -> list[Any]:
            return self.rows

    def execute(sql: str, params: Sequence[Any]) -> Rows:
        seen.append((sql, params))
        return Rows(run(sql, params))

    return read(SqlReader(execute)), seen


def _sorts(plan: str) -> bool:
    return "TEMP B-TREE" in plan or " Sort" in plan or plan.startswith("Sort")


def test_a_page_of_a_long_thread_is_read_in_index_order(explain: tuple[Explain, Any]) -> None:
    plan, run = explain
    for before in (None, 30):
        def page(r: SqlReader, b: int | None = before) -> tuple[list[MessageRow], bool]:
            return r.messages_of("u1", "thr_0", limit=6, before_sequence=b)

        (messages, more), seen = _statements(page, run)
        top = 40 if before is None else 29
        assert [m.created_sequence for m in messages] == list(range(top - 5, top + 1))
        assert more is True
        (sql, params), = seen
        shown = plan(sql, params)
        assert "messages_by_thread_page" in shown and not _sorts(shown), shown


def test_the_thread_list_is_read_in_index_order(explain: tuple[Explain, Any]) -> None:
    plan, run = explain
    threads, seen = _statements(lambda r: r.threads_of("u1"), run)
    assert [t.thread_id for t in threads] == ["thr_0", "thr_1"]  # the deleted one is not listed
    (sql, params), = seen
    shown = plan(sql, params)
    assert "threads_live_by_user" in shown and not _sorts(shown), shown
