"""The paging reads' query plans on both stores: a page of a long thread and a user's thread list
come straight from an index in their order (no sort of the whole thread or list), and so do a
turn's newest user messages, so their cost does not grow with the thread or the list."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest

from composer_app.core.contracts.wire import decode_command
from composer_app.server.ledger import execute_command, finish_turn
from composer_app.server.store.base import Device, MessageRow, Transaction
from composer_app.server.store.executor import ExecutorStore
from composer_app.server.store.postgres import PostgresStore
from composer_app.server.store.sql import RECENT_MATERIAL_MESSAGES, SqlReader, SqlTransaction
from composer_app.server.store.sqlite import SqliteStore
from tests.server.harness import cid, create_thread, turn_start

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


def test_a_turns_newest_user_messages_come_from_their_own_index(explain: tuple[Explain, Any]
                                                                 ) -> None:
    plan, run = explain
    params = ("u1", "thr_0", 5)
    rows = run(RECENT_MATERIAL_MESSAGES, params)
    assert rows == []  # none of them carries attachments or a context
    newest = run(RECENT_MATERIAL_MESSAGES.replace(
        "WHERE attachments_json <> '[]' OR context_json IS NOT NULL", ""), params)
    assert [r[13] for r in newest] == [39, 37, 35, 33, 31]  # the user messages only
    assert "messages_user_by_thread" in plan(RECENT_MATERIAL_MESSAGES, params)
    # the newest user messages themselves come in index order (only the few taken are sorted)
    newest_sql = RECENT_MATERIAL_MESSAGES[RECENT_MATERIAL_MESSAGES.index("(") + 1:
                                          RECENT_MATERIAL_MESSAGES.index(") recent")]
    shown = plan(newest_sql, params)
    assert "messages_user_by_thread" in shown and not _sorts(shown), shown


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_message_writes_its_thread_row_once_per_transaction(
        kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """The command and its reply each leave one new version of the thread row (their appends'
    ``last_sequence`` and stream version, ``updated_at`` and a first message's title go in one
    ``UPDATE``), and the row then holds what the separate writes would have left."""
    device = Device("dev_a", "u1", "laptop")
    store: ExecutorStore
    if kind == "sqlite":
        lite = SqliteStore.in_dir(tmp_path)
        store = lite
        store.open()
        with closing(sqlite3.connect(lite.path)) as conn:  # a counter of the row's updates
            conn.executescript("CREATE TABLE updates (n INTEGER); "
                               "CREATE TRIGGER count_updates AFTER UPDATE ON threads "
                               "BEGIN INSERT INTO updates VALUES (1); END;")
    else:
        store = PostgresStore(request.getfixturevalue("postgres_dsn"))
        store.open()
        with psycopg.connect(store.conninfo, autocommit=True) as pg:
            pg.execute("CREATE TABLE updates (n INTEGER)")
            pg.execute("CREATE FUNCTION count_update() RETURNS trigger LANGUAGE plpgsql AS "
                       "$$ BEGIN INSERT INTO updates VALUES (1); RETURN NULL; END $$")
            pg.execute("CREATE TRIGGER count_updates AFTER UPDATE ON threads FOR EACH ROW "
                       "EXECUTE FUNCTION count_update()")

    def updates_by(fn: Callable[[Transaction], Any]) -> tuple[Any, int]:
        """What ``fn``'s transaction returned, and how many thread row updates it made."""
        def count() -> int:
            return int(store.read_sync(lambda r: r.one("SELECT COUNT(*) FROM updates"))[0])
        before = count()
        result = store.write_sync(fn)
        return result, count() - before

    def command(body: dict[str, Any]) -> Callable[[Transaction], Any]:
        return lambda tx: execute_command(tx, device, decode_command(body), cid())

    try:
        store.write_sync(command(create_thread("thr_a", title=None)))
        first, n = updates_by(command(turn_start("thr_a", "hello there")))
        assert n == 1  # three appends, the title and updated_at
        done, n = updates_by(lambda tx: finish_turn(tx, first.turn, "last", "hello last",
                                                     None, None))
        assert done is True and n == 1  # two appends
        _, n = updates_by(command(turn_start("thr_a", "again")))
        assert n == 1
        events = store.read_sync(lambda r: r.events_after(0, "u1"))
        assert [e.event_type for e in events] == [
            "thread.created", "thread.message-sent", "thread.turn-started", "thread.meta-updated",
            "thread.assistant.delta", "thread.assistant.completed", "thread.message-sent",
            "thread.turn-started"]
        thread = store.read_sync(lambda r: r.thread("u1", "thr_a"))
        assert thread is not None
        assert thread.title == "hello there"  # titled from its first message
        assert thread.last_sequence == events[-1].sequence
        # the last message's command time: after the reply before it, by its own events' end
        assert events[-3].occurred_at <= thread.updated_at <= events[-1].occurred_at
    finally:
        store.close()


def _numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered for ``PREPARE`` (``$1``, ``$2``, …)."""
    parts = sql.split("?")
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], 1)) + parts[-1]


@pytest.mark.postgres
def test_a_new_databases_cached_plans_look_a_message_up_by_its_own_index(
        postgres_dsn: str) -> None:
    """A prepared statement's generic plan is chosen without its parameters' values and kept for
    the connection's life; built on a new, small table it must still find one message by its id
    (and a turn's reply by the turn) through the index led by that id, not step over every
    message of the user."""
    store = PostgresStore(postgres_dsn)
    store.open()
    try:
        _fill(store)  # a few rows, never analyzed: the table of a new database
        recorded: list[tuple[str, Sequence[Any]]] = []

        class NoRows:
            def fetchone(self) -> None:
                return None

        def record(sql: str, params: Sequence[Any]) -> NoRows:
            recorded.append((sql, params))
            return NoRows()

        row = MessageRow(message_id="msg_1", thread_id="thr_0", user_id="u1", turn_id=None,
                         role="user", text="m1", is_streaming=False, created_at=AT,
                         updated_at=AT, completed_at=AT, created_sequence=1)
        tx = SqlTransaction(record)
        tx.update_message(row)
        tx.assistant_message_for_turn("u1", "turn_1")
        SqlReader(record).message("u1", "msg_1")
        (update, update_params), (turn, turn_params), (lookup, lookup_params) = recorded
        with psycopg.connect(store.conninfo, autocommit=True) as pg:
            pg.execute("SET plan_cache_mode = force_generic_plan")

            def generic_plan(name: str, sql: str, params: Sequence[Any]) -> str:
                pg.execute(f"PREPARE {name} AS {_numbered(sql)}")
                values = ", ".join(pg.execute("SELECT quote_nullable(%s::text)", (p,))
                                   .fetchone()[0] for p in params)  # type: ignore[index]
                rows = pg.execute(f"EXPLAIN EXECUTE {name} ({values})").fetchall()
                return "\n".join(str(r[0]) for r in rows)

            for name, sql, params, index, columns in (
                    ("by_id", lookup, lookup_params, "messages_pkey", ("message_id", "user_id")),
                    ("update_by_id", update, update_params, "messages_pkey",
                     ("message_id", "user_id")),
                    ("by_turn", turn, turn_params, "messages_by_turn", ("turn_id", "user_id"))):
                shown = generic_plan(name, sql, params)
                assert f"Index Scan using {index} " in shown, shown
                cond = next(line for line in shown.splitlines() if "Index Cond" in line)
                assert all(f"{column} = $" in cond for column in columns), shown
    finally:
        store.close()
