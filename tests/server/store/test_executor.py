"""Migrations, on SQLite and a real PostgreSQL: a database written by a server at schema 0005 (the
rows in data/store_0005.json, and the replay and snapshots that server gave) upgrades to ids scoped
per user and messages stored once, and then answers exactly as that server did."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from composer_app.server.snapshots import event_wire, message_wire
from composer_app.server.store.base import MessageRow, Transaction
from composer_app.server.store.executor import ExecutorStore, migration_scripts
from composer_app.server.store.postgres import PostgresStore
from composer_app.server.store.sqlite import SqliteStore

FIXTURE = Path(__file__).parent / "data" / "store_0005.json"
AT = "2026-12-02T00:00:00.000Z"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ExecutorStore]:
    made: ExecutorStore
    if request.param == "sqlite":
        made = SqliteStore.in_dir(tmp_path)
    else:
        made = PostgresStore(request.getfixturevalue("postgres_dsn"))
    yield made
    if made.is_open:
        made.close()


def old_database(store: ExecutorStore, fixture: dict[str, Any]) -> None:
    """The schema of migration 0005 holding the rows a 0005 server wrote."""
    postgres = isinstance(store, PostgresStore)
    conn = store._connect(writer=True)
    try:
        store._migrate(conn, upto=5)

        def fill(tx: Transaction) -> None:
            x = tx._x  # type: ignore[attr-defined]
            for table, data in fixture["tables"].items():
                columns = data["columns"]
                identity = " OVERRIDING SYSTEM VALUE" if postgres and table == "events" else ""
                insert = (f"INSERT INTO {table} ({', '.join(columns)}){identity} "
                          f"VALUES ({', '.join('?' for _ in columns)})")
                for row in data["rows"]:
                    x(insert, row)
            if postgres:  # what 0005 and the identity column keep by themselves
                x("SELECT setval(pg_get_serial_sequence('events', 'sequence'), "
                  "(SELECT MAX(sequence) FROM events))", ())
                x("UPDATE threads t SET stream_version = (SELECT MAX(stream_version) "
                  "FROM events e WHERE e.thread_id = t.thread_id)", ())

        store._guard(lambda: store._run_tx(conn, fill))
    finally:
        conn.close()


def test_the_migrations_are_numbered_alike_on_both_dialects() -> None:
    for dialect in ("sqlite", "postgres"):
        assert [v for v, _ in migration_scripts(dialect)] == [1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_a_0005_database_upgrades_and_answers_exactly_as_before(store: ExecutorStore) -> None:
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    old_database(store, fixture)
    store.open()
    users: dict[str, str] = fixture["users"]
    for name, user_id in users.items():  # the replay a client catching up from 0 receives
        events = store.read_sync(lambda r, u=user_id: r.events_after(0, u))
        assert [event_wire(e) for e in events] == fixture["expected"]["events"][name]
    owners = {row[0]: row[1] for row in fixture["tables"]["threads"]["rows"]}
    for thread_id, expected in fixture["expected"]["messages"].items():
        rows, _ = store.read_sync(lambda r, t=thread_id: r.messages_of(owners[t], t))
        assert [message_wire(m) for m in rows] == expected
    # Each sent message is now stored once: its event holds only a reference to the row.
    sent = store.read_sync(lambda r: r.all(  # type: ignore[attr-defined]
        "SELECT message_id, payload_json FROM events "
        "WHERE event_type = 'thread.message-sent' ORDER BY sequence"))
    assert [(m, json.loads(p)) for m, p in sent] == [
        (m, {}) for m in ("msg_shared", "msg_legacy", "msg_bob", "msg_gone")]
    assert store.environment_id == dict(fixture["tables"]["server_state"]["rows"])[
        "environment_id"]


def test_after_the_upgrade_ids_are_per_user_and_numbers_continue(store: ExecutorStore) -> None:
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    old_database(store, fixture)
    store.open()
    alice, bob = fixture["users"]["alice"], fixture["users"]["bob"]
    top = max(row[0] for row in fixture["tables"]["events"]["rows"])

    def bobs_copy(tx: Transaction) -> int:  # alice's thread and message ids, now bob's too
        tx.insert_thread("thr_shared", bob, "Bob's own", AT)
        event = tx.append_event(bob, "thr_shared", "thread.created", {})
        tx.insert_message(MessageRow("msg_shared", "thr_shared", None, "user", "mine", False,
                                     created_at=AT, created_sequence=event.sequence,
                                     user_id=bob))
        return event.sequence

    assert store.write_sync(bobs_copy) == top + 1
    mine = store.read_sync(lambda r: r.thread(bob, "thr_shared"))
    theirs = store.read_sync(lambda r: r.thread(alice, "thr_shared"))
    assert mine is not None and theirs is not None
    assert (mine.title, theirs.title) == ("Bob's own", "Renamed")
    assert store.read_sync(lambda r: r.message(bob, "msg_shared")).text == "mine"  # type: ignore[union-attr]
    assert store.read_sync(lambda r: r.message(alice, "msg_shared")).text.startswith("Look")  # type: ignore[union-attr]
    alice_events = store.read_sync(lambda r: r.events_after(0, alice))
    assert [event_wire(e) for e in alice_events] == fixture["expected"]["events"]["alice"]


def test_sqlite_writes_of_one_loop_step_commit_together_and_fail_alone(tmp_path: Path) -> None:
    """Grouped writes arriving together share one ``COMMIT``; each sees the earlier ones' rows,
    one that raises is rolled back alone (its number is reused: no gap), and events are published
    in sequence order."""
    store = SqliteStore.in_dir(tmp_path)
    store.open()
    published: list[int] = []
    statements: list[str] = []

    def thread_with_event(thread_id: str) -> Callable[[Transaction], int]:
        def write(tx: Transaction) -> int:
            if tx.thread("u1", thread_id) is None:
                tx.insert_thread(thread_id, "u1", "T", AT)
            return tx.append_event("u1", thread_id, "thread.created", {}).sequence
        return write

    def refused(tx: Transaction) -> int:
        thread_with_event("thr_bad")(tx)
        raise ValueError("refused after writing")

    try:
        async def run() -> list[object]:
            store.set_commit_listener(lambda events: published.extend(e.sequence for e in events))
            store.bind_loop(asyncio.get_running_loop())
            store._writer_conn.raw.set_trace_callback(statements.append)
            return await asyncio.gather(
                store.write(thread_with_event("thr_a"), group=("u1", "thr_a")),
                store.write(refused, group=("u1", "thr_bad")),
                store.write(thread_with_event("thr_a"), group=("u1", "thr_a")),  # sees the 1st
                store.write(thread_with_event("thr_b"), group=("u1", "thr_b")),
                return_exceptions=True)

        outcomes = asyncio.run(run())
        assert outcomes[0] == 1 and outcomes[2] == 2 and outcomes[3] == 3
        assert isinstance(outcomes[1], ValueError)
        assert [s for s in statements if s in ("BEGIN IMMEDIATE", "COMMIT")] == [
            "BEGIN IMMEDIATE", "COMMIT"]
        assert published == [1, 2, 3]
        assert store.read_sync(lambda r: r.thread("u1", "thr_bad")) is None
        stored = store.read_sync(lambda r: r.events_after(0, "u1"))
        assert [(e.sequence, e.thread_id) for e in stored] == [
            (1, "thr_a"), (2, "thr_a"), (3, "thr_b")]
    finally:
        store.close()
