"""The ThreadStore contract, run against SQLite and a real PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from composer_app.core.contracts.wire import decode_command
from composer_app.core.errors import StorageError
from composer_app.server.earlier_material import EARLIER_MESSAGES
from composer_app.server.ledger import TurnPlan, execute_command
from composer_app.server.snapshots import event_wire
from composer_app.server.store.base import (
    AttachmentRow,
    Device,
    MessageRow,
    StoredEvent,
    Transaction,
)
from composer_app.server.store.executor import ExecutorStore, token_hash
from composer_app.server.store.postgres import PostgresStore, conninfo_of
from composer_app.server.store.sqlite import CHECKPOINT_PAGES, WRITER_CACHE_KIB, SqliteStore
from tests.server.harness import create_thread, skill, turn_start


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[type]:
    made: list[ExecutorStore] = []
    if request.param == "sqlite":
        def factory() -> ExecutorStore:
            store = SqliteStore.in_dir(tmp_path)
            made.append(store)
            return store
    else:
        dsn = request.getfixturevalue("postgres_dsn")

        def factory() -> ExecutorStore:
            store = PostgresStore(dsn)
            made.append(store)
            return store
    yield factory  # type: ignore[misc]
    for store in made:
        if store.is_open:
            store.close()


def new_thread(tx: Transaction, thread_id: str, user_id: str) -> StoredEvent:
    tx.insert_thread(thread_id, user_id, "T", "2026-11-30T00:00:00.000Z")
    return tx.append_event(user_id, thread_id, "thread.created",
                           {"thread": {"threadId": thread_id}})


def test_migrations_are_idempotent_and_environment_is_stable(make_store) -> None:  # type: ignore[no-untyped-def]
    first = make_store()
    first.open()
    env, secret = first.environment_id, first.secret
    assert env.startswith("env_") and len(secret) == 32
    first.close()
    second = make_store()
    second.open()
    assert (second.environment_id, second.secret) == (env, secret)


def test_tokens_are_stored_hashed(make_store) -> None:  # type: ignore[no-untyped-def]
    store = make_store()
    store.open()
    token, device = store.create_token("alice", "laptop")
    _, other = store.create_token("alice", "phone")
    assert other.user_id == device.user_id and other.device_id != device.device_id
    assert store.read_sync(lambda r: r.device_by_token_hash(token_hash(token))) == device
    assert store.read_sync(lambda r: r.device_by_token_hash(token)) is None


def test_sequences_increase_and_events_are_filtered_by_user_thread_type(make_store) -> None:  # type: ignore[no-untyped-def]
    store = make_store()
    store.open()

    def fill(tx: Transaction) -> list[int]:
        seqs = [new_thread(tx, "thr_a", "u1").sequence, new_thread(tx, "thr_b", "u2").sequence]
        seqs.append(tx.append_event("u1", "thr_a", "thread.meta-updated", {"title": "x"}).sequence)
        return seqs

    seqs = store.write_sync(fill)
    assert seqs == sorted(seqs) and len(set(seqs)) == 3
    events = store.read_sync(lambda r: r.events_after(0, "u1"))
    assert [e.event_type for e in events] == ["thread.created", "thread.meta-updated"]
    assert {e.user_id for e in events} == {"u1"}
    assert store.read_sync(lambda r: r.events_after(seqs[0], "u1", thread_id="thr_a")) == \
        events[1:]
    shell = store.read_sync(lambda r: r.events_after(0, "u1", types=("thread.created",)))
    assert [e.sequence for e in shell] == [seqs[0]]
    assert store.read_sync(lambda r: r.max_sequence()) == seqs[-1]


def test_a_failed_write_leaves_nothing(make_store) -> None:  # type: ignore[no-untyped-def]
    store = make_store()
    store.open()

    def boom(tx: Transaction) -> None:
        new_thread(tx, "thr_x", "u1")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        store.write_sync(boom)
    assert store.read_sync(lambda r: (r.thread("u1", "thr_x"), r.max_sequence())) == (None, 0)
    store.write_sync(lambda tx: new_thread(tx, "thr_y", "u1"))
    assert [e.thread_id for e in store.read_sync(lambda r: r.events_after(0, "u1"))] == ["thr_y"]


def test_receipts_messages_and_attachments_round_trip(make_store) -> None:  # type: ignore[no-untyped-def]
    store = make_store()
    store.open()
    _, device = store.create_token("alice", "laptop")

    def fill(tx: Transaction) -> None:
        new_thread(tx, "thr_a", device.user_id)
        tx.put_receipt(device.device_id, "cmd_1", "thread.create", "thr_a", "h1", "accepted", 1,
                       None)
        for n in range(5):
            tx.insert_message(MessageRow(f"msg_{n}", "thr_a", None, "user", f"m{n}", False,
                                         context={"version": 1, "records": []},
                                         created_at="t", created_sequence=10 + n,
                                         user_id=device.user_id))
        tx.insert_attachment(AttachmentRow("att_p", device.device_id, device.user_id, "uploaded",
                                           "a.png", "image/png", 4, "00", "att_p", None, "t",
                                           None))
        tx.set_attachment("att_p", state="attached", new_id="att_q", message_id="msg_1")

    store.write_sync(fill)
    receipt = store.write_sync(lambda tx: tx.receipt(device.device_id, "cmd_1"))
    assert (receipt.request_hash, receipt.status, receipt.result_sequence) == ("h1", "accepted", 1)
    rows, more = store.read_sync(lambda r: r.messages_of(device.user_id, "thr_a", limit=2))
    assert ([m.message_id for m in rows], more) == (["msg_3", "msg_4"], True)
    rows, more = store.read_sync(lambda r: r.messages_of(device.user_id, "thr_a", limit=2,
                                                         before_sequence=13))
    assert ([m.message_id for m in rows], more) == (["msg_1", "msg_2"], True)
    assert rows[0].context == {"version": 1, "records": []}
    assert store.read_sync(lambda r: r.attachment("att_p")) is None
    moved = store.read_sync(lambda r: r.attachment("att_q"))
    assert (moved.state, moved.message_id, moved.storage_path, moved.user_id) == (
        "attached", "msg_1", "att_p", device.user_id)


def test_concurrent_writes_commit_in_sequence_order_to_the_listener(make_store) -> None:  # type: ignore[no-untyped-def]
    store = make_store()
    store.open()
    store.write_sync(lambda tx: new_thread(tx, "thr_a", "u1"))

    async def run() -> list[int]:
        seen: list[int] = []
        done = asyncio.Event()

        def listener(events: list[StoredEvent]) -> None:
            seen.extend(e.sequence for e in events)
            if len(seen) >= 41:
                done.set()

        store.set_commit_listener(listener)
        store.bind_loop(asyncio.get_running_loop())
        await asyncio.gather(*(store.write(lambda tx, n=n: tx.append_event(
            "u1", "thr_a", "thread.meta-updated", {"title": str(n)})) for n in range(40)))
        await store.write(lambda tx: tx.append_event("u1", "thr_a", "thread.deleted", {}))
        await asyncio.wait_for(done.wait(), 20)
        return seen

    seen = asyncio.run(run())
    assert seen == sorted(seen) and len(seen) == len(set(seen)) == 41
    store.set_commit_listener(None)


def test_closed_store_refuses_work(make_store) -> None:  # type: ignore[no-untyped-def]
    store = make_store()
    store.open()
    store.close()
    with pytest.raises(StorageError):
        asyncio.run(store.read(lambda r: r.max_sequence()))


def test_database_url_forms() -> None:
    assert conninfo_of("postgresql+psycopg://u@h:5/db") == "postgresql://u@h:5/db"
    assert conninfo_of("host=x dbname=y") == "host=x dbname=y"


def test_sqlite_pragmas(tmp_path: Path) -> None:
    store = SqliteStore.in_dir(tmp_path)
    store.open()
    try:
        conn = store._connect(writer=False).raw
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA temp_store").fetchone()[0] == 2  # MEMORY
        conn.close()
        writer = store._writer_conn.raw
        assert writer.execute("PRAGMA temp_store").fetchone()[0] == 2
        assert writer.execute("PRAGMA cache_size").fetchone()[0] == -WRITER_CACHE_KIB
        assert writer.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == CHECKPOINT_PAGES
        assert threading.current_thread() is threading.main_thread()
    finally:
        store.close()


@pytest.mark.postgres
def test_two_postgres_stores_publish_every_event_in_commit_order(postgres_dsn: str) -> None:
    """Two stores stand for two server processes: sequence order is commit order for both."""
    a, b = PostgresStore(postgres_dsn), PostgresStore(postgres_dsn)
    a.open()
    b.open()
    try:
        a.write_sync(lambda tx: new_thread(tx, "thr_a", "u1"))

        async def run() -> list[int]:
            seen: list[int] = []
            done = asyncio.Event()

            def listener(events: list[StoredEvent]) -> None:
                seen.extend(e.sequence for e in events)
                if len(seen) >= 60:
                    done.set()

            a.set_commit_listener(listener)
            a.bind_loop(asyncio.get_running_loop())

            def writes(store: PostgresStore) -> None:
                for n in range(30):
                    store.write_sync(lambda tx, n=n: tx.append_event(
                        "u1", "thr_a", "thread.meta-updated", {"title": str(n)}))

            await asyncio.gather(asyncio.to_thread(writes, a), asyncio.to_thread(writes, b))
            await asyncio.wait_for(done.wait(), 30)
            return seen

        seen = asyncio.run(run())
        stored = [e.sequence for e in a.read_sync(lambda r: r.events_after(1, "u1"))]
        assert seen == stored  # every event, each once, in sequence order
        versions = [e.payload for e in a.read_sync(lambda r: r.events_after(1, "u1"))]
        assert len(versions) == 60
    finally:
        a.set_commit_listener(None)
        a.close()
        b.close()


def test_a_savepoint_undoes_only_its_own_block(make_store) -> None:  # type: ignore[no-untyped-def]
    store = make_store()
    store.open()

    def write(tx: Transaction) -> list[str]:
        new_thread(tx, "thr_a", "u1")
        with pytest.raises(LookupError), tx.savepoint():
            tx.append_event("u1", "thr_a", "thread.meta-updated", {"title": "undone"})
            tx.insert_thread("thr_b", "u1", "B", "2026-11-30T00:00:00.000Z")
            raise LookupError("rejected")
        with tx.savepoint():
            kept = tx.append_event("u1", "thr_a", "thread.meta-updated", {"title": "kept"})
        assert kept.sequence > tx.events[0].sequence
        return [e.event_type for e in tx.events]

    assert store.write_sync(write) == ["thread.created", "thread.meta-updated"]
    events = store.read_sync(lambda r: r.events_after(0, "u1"))
    assert [e.payload.get("title") for e in events] == [None, "kept"]
    assert store.read_sync(lambda r: r.thread("u1", "thr_b")) is None
    thread = store.read_sync(lambda r: r.thread("u1", "thr_a"))
    assert thread is not None and thread.last_sequence == events[-1].sequence
@pytest.mark.postgres
def test_postgres_publication_settles_numbers_of_transactions_that_never_commit(
    postgres_dsn: str,
) -> None:
    """A number taken by a transaction that rolls back (here in another process) leaves a hole
    that never fills: publication waits until that transaction has ended, then moves past it."""
    a, b = PostgresStore(postgres_dsn), PostgresStore(postgres_dsn)
    a.open()
    b.open()
    try:
        a.write_sync(lambda tx: new_thread(tx, "thr_a", "u1"))

        async def run() -> tuple[list[int], int]:
            seen: list[int] = []
            done = asyncio.Event()

            def listener(events: list[StoredEvent]) -> None:
                seen.extend(e.sequence for e in events)
                if len(seen) >= 2:
                    done.set()

            a.set_commit_listener(listener)
            a.bind_loop(asyncio.get_running_loop())

            def doomed(tx: Transaction) -> None:
                tx.append_event("u1", "thr_a", "thread.meta-updated", {"title": "never"})
                raise RuntimeError("rolled back")

            with pytest.raises(RuntimeError):
                await asyncio.to_thread(b.write_sync, doomed)
            await a.write(lambda tx: tx.append_event("u1", "thr_a", "thread.meta-updated",
                                                     {"title": "one"}))
            await asyncio.to_thread(b.write_sync, lambda tx: tx.append_event(
                "u1", "thr_a", "thread.meta-updated", {"title": "two"}))
            await asyncio.wait_for(done.wait(), 30)
            watermark = await a.read(lambda r: r.max_sequence())
            return seen, watermark

        seen, watermark = asyncio.run(run())
        stored = [e.sequence for e in a.read_sync(lambda r: r.events_after(1, "u1"))]
        assert seen == stored and len(stored) == 2
        assert stored[0] > 2  # the rolled-back number 2 was never used
        assert watermark == stored[-1]
    finally:
        a.set_commit_listener(None)
        a.close()
        b.close()


def test_a_sent_message_is_stored_once_and_replays_as_it_was_published(make_store) -> None:  # type: ignore[no-untyped-def]
    """The event of a sent message references its row; a replay rebuilds the very payload the
    commit published (text, context and attachments included)."""
    store = make_store()
    store.open()
    device = Device("dev_a", "u1", "laptop")
    text = "see [review](t3-context://v1/skill/s1) once"
    bodies = [create_thread("thr_a", title="Named"),
              turn_start("thr_a", text, message_id="msg_1",
                         context={"version": 1, "records": [skill("s1")]}),
              turn_start("thr_a", "legacy @src/app.py text", message_id="msg_2")]

    async def run() -> list[StoredEvent]:
        seen: list[StoredEvent] = []
        store.set_commit_listener(seen.extend)
        store.bind_loop(asyncio.get_running_loop())
        for n, body in enumerate(bodies):
            await store.write(lambda tx, body=body, n=n: execute_command(
                tx, device, decode_command(body), f"hash{n}"))
        for _ in range(500):
            if len(seen) >= 5:
                break
            await asyncio.sleep(0.01)
        return seen

    try:
        seen = asyncio.run(run())
        stored = store.read_sync(lambda r: r.events_after(0, "u1"))
        assert [e.event_type for e in stored] == [
            "thread.created", "thread.message-sent", "thread.turn-started",
            "thread.message-sent", "thread.turn-started"]
        assert [event_wire(e) for e in stored] == [event_wire(e) for e in seen]
        assert stored[1].payload["message"]["text"] == text
        rows = store.read_sync(lambda r: r.all(  # type: ignore[attr-defined]
            "SELECT message_id, payload_json FROM events "
            "WHERE event_type = 'thread.message-sent' ORDER BY sequence"))
        assert [tuple(row) for row in rows] == [("msg_1", "{}"), ("msg_2", "{}")]
        copies = store.read_sync(lambda r: r.all(  # type: ignore[attr-defined]
            "SELECT COUNT(*) FROM events WHERE payload_json LIKE ?", ("%review%",)))
        assert int(copies[0][0]) == 0  # the text lives in the message row alone
    finally:
        store.set_commit_listener(None)


def test_a_turns_earlier_material_counts_the_newest_user_messages_with_or_without_material(
        make_store) -> None:  # type: ignore[no-untyped-def]
    """Only messages that carry material are read back, but the window is still the thread's
    newest ``EARLIER_MESSAGES`` user messages: plain ones in it push older material out."""
    store = make_store()
    store.open()
    _, device = store.create_token("alice", "laptop")

    def send(body: dict[str, object]) -> TurnPlan | None:
        command = decode_command(body)
        return store.write_sync(lambda tx: execute_command(tx, device, command, "h")).turn

    send(create_thread("thr_m"))
    for n in range(3):
        send(turn_start("thr_m", f"use [s{n}](t3-context://v1/skill/ctx_{n})",
                        context={"version": 1, "records": [skill(f"ctx_{n}", f"skill{n}")]}))
    for n in range(EARLIER_MESSAGES - 2):
        send(turn_start("thr_m", f"plain {n}"))
    plan = send(turn_start("thr_m", "now"))
    assert plan is not None and plan.earlier is not None
    assert len(plan.earlier.prompts) == 2
    assert "skill1" in plan.earlier.prompts[0] and "skill2" in plan.earlier.prompts[1]
    plan = send(turn_start("thr_m", "and now"))  # "now" is in the window: skill1 left it
    assert plan is not None and plan.earlier is not None
    assert len(plan.earlier.prompts) == 1 and "skill2" in plan.earlier.prompts[0]
