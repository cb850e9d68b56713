"""The PostgreSQL store's round trips per command and per read, counted on a real server (so they
cannot grow back unnoticed), and the notifications that hand other processes a commit's events and
the numbers it left unused."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from composer_app.core.contracts.wire import decode_command
from composer_app.core.errors import StorageError
from composer_app.server.earlier_material import EarlierMaterial
from composer_app.server.ledger import TurnPlan, execute_command, finish_turn, prefetch_command
from composer_app.server.providers.echo import EchoProvider
from composer_app.server.store.base import Device, StoredEvent, Transaction
from composer_app.server.store.commit_notification import announced_events
from composer_app.server.store.postgres import PARK_IDLE, PostgresStore
from composer_app.server.store.postgres_batch import Batch, Statement
from composer_app.server.store.postgres_queries import EVENTS_SEQUENCE
from composer_app.server.turns import TurnRunner
from tests.server.harness import create_thread, skill, turn_start

DEVICE = Device("dev_a", "u1", "laptop")


@pytest.mark.postgres
def test_a_message_and_its_reply_take_two_round_trips_each(postgres_dsn: str,
                                                           tmp_path: Path) -> None:
    """Four per message in all: the turn's earlier messages come with the command's reads."""
    store = PostgresStore(postgres_dsn)
    store.open()
    seen: list[StoredEvent] = []
    try:
        async def run() -> tuple[int, int, int, int]:
            store.set_commit_listener(seen.extend)
            store.bind_loop(asyncio.get_running_loop())

            def command(body: dict[str, object]) -> object:
                def apply(tx: Transaction) -> object:  # the way POST /api/commands runs it
                    decoded = decode_command(body)
                    prefetch_command(tx, DEVICE, decoded)
                    assert tx.device_active(DEVICE.device_id) is False  # no such device row
                    return execute_command(tx, DEVICE, decoded, "hash")
                return apply

            await store.write(command(create_thread("thr_a", title="Named")))  # type: ignore[arg-type]
            before = store.round_trips
            outcome = await store.write(command(turn_start("thr_a", "hi")))  # type: ignore[arg-type]
            start = store.round_trips - before
            plan = outcome.turn  # type: ignore[attr-defined]
            assert isinstance(plan, TurnPlan)
            assert plan.earlier == EarlierMaterial()  # the thread's first message
            before = store.round_trips
            assert await store.write(lambda tx: finish_turn(tx, plan, "last", "hello last",
                                                            None, None))
            reply = store.round_trips - before
            before = store.round_trips
            stale = await store.write(lambda tx: finish_turn(tx, plan, "", "again", None, None))
            assert stale is False  # a finished turn takes no more output; its number is unused
            await store.write(lambda tx: tx.append_event("u1", "thr_a", "thread.meta-updated",
                                                         {"title": "after"}))
            for _ in range(200):
                if len(seen) >= 6:
                    break
                await asyncio.sleep(0.01)
            stale_trips = store.round_trips - before
            # a whole message as the server runs it: the command, then its turn's reply
            runner = TurnRunner(store, EchoProvider(chunk_chars=1000), tmp_path)
            before = store.round_trips
            context = {"version": 1, "records": [skill("ctx_1", "deploy")]}
            second = await store.write(command(turn_start(  # type: ignore[arg-type]
                "thr_a", "use [deploy](t3-context://v1/skill/ctx_1)", context=context)))
            runner.start(second.turn)  # type: ignore[attr-defined]
            await runner.wait_idle()
            message = store.round_trips - before
            third = await store.write(command(turn_start("thr_a", "again")))  # type: ignore[arg-type]
            earlier = third.turn.earlier  # type: ignore[attr-defined]
            assert earlier is not None and len(earlier.prompts) == 1
            assert "deploy" in earlier.prompts[0]
            return start, reply, stale_trips, message

        start, reply, _, message = asyncio.run(run())
        assert (start, reply, message) == (2, 2, 4)
        types = [e.event_type for e in seen][:6]
        assert types == ["thread.created", "thread.message-sent", "thread.turn-started",
                         "thread.assistant.delta", "thread.assistant.completed",
                         "thread.meta-updated"]
        stored = store.read_sync(lambda r: r.events_after(0, "u1"))
        assert [e.sequence for e in stored][:6] == [e.sequence for e in seen][:6]
        versions = store.read_sync(lambda r: r.all(
            "SELECT stream_version FROM events ORDER BY sequence"))
        assert [int(v[0]) for v in versions][:6] == [1, 2, 3, 4, 5, 6]
        thread = store.read_sync(lambda r: r.thread("u1", "thr_a"))
        assert thread is not None and thread.last_sequence == stored[-1].sequence
        assert all(e.user_id == "u1" for e in seen)
    finally:
        store.set_commit_listener(None)
        store.close()


@pytest.mark.postgres
def test_appends_number_their_events_from_the_events_identity_sequence(postgres_dsn: str) -> None:
    """The sequence the appends name is the one behind ``events.sequence``: an event appended
    without a number of its own gets the next one of the same sequence."""
    store = PostgresStore(postgres_dsn)
    store.open()
    try:
        named = store.read_sync(lambda r: r.one(  # type: ignore[attr-defined]
            "SELECT pg_get_serial_sequence('events', 'sequence')"))[0]
        assert named == f"public.{EVENTS_SEQUENCE}"
        store.write_sync(lambda tx: tx.insert_thread("thr_a", "u1", None, "t"))
        appended = store.write_sync(lambda tx: [tx.append_event(
            "u1", "thr_a", "thread.meta-updated", {"title": str(n)}) for n in range(3)])
        taken = store.write_sync(lambda tx: tx.one(  # type: ignore[attr-defined]
            f"SELECT nextval('{EVENTS_SEQUENCE}')"))[0]
        assert [e.sequence for e in appended] == [taken - 3, taken - 2, taken - 1]
    finally:
        store.close()


@pytest.mark.postgres
def test_a_read_takes_one_round_trip_and_its_transaction_ends_with_the_next_use(
        postgres_dsn: str) -> None:
    store = PostgresStore(postgres_dsn)
    store.open()

    def idle_in_transaction() -> int:
        with psycopg.connect(store.conninfo, autocommit=True) as conn:
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                               "current_database() AND state = 'idle in transaction'").fetchone()
        return int(row[0]) if row else -1

    try:
        async def run() -> None:
            store.bind_loop(asyncio.get_running_loop())
            store.park_idle = 60.0  # nothing ends a parked read but the next transaction
            await store.write(lambda tx: tx.insert_thread("thr_a", "u1", "T", "2026-12-01"))
            before = store.round_trips
            row = await store.read(lambda r: r.thread("u1", "thr_a"))
            assert row is not None and row.title == "T"
            assert store.round_trips - before == 1  # its ROLLBACK is not waited for
            assert await asyncio.to_thread(idle_in_transaction) == 1
            before = store.round_trips
            await store.write(
                lambda tx: tx.update_thread("u1", "thr_a", title="U", at="2026-12-02"))
            assert store.round_trips - before == 1  # the ROLLBACK went with the write's BEGIN
            assert await asyncio.to_thread(idle_in_transaction) == 0
            store.park_idle = PARK_IDLE
            row = await store.read(lambda r: r.thread("u1", "thr_a"))
            assert row is not None and row.title == "U"  # a fresh snapshot, not the parked one
            for _ in range(500):  # nobody takes the connection over: it ends on its own
                if await asyncio.to_thread(idle_in_transaction) == 0:
                    break
                await asyncio.sleep(0.01)
            assert await asyncio.to_thread(idle_in_transaction) == 0

        asyncio.run(run())
    finally:
        store.close()


def _command(body: dict[str, object]) -> Callable[[Transaction], object]:
    def apply(tx: Transaction) -> object:  # the way POST /api/commands runs it
        decoded = decode_command(body)
        prefetch_command(tx, DEVICE, decoded)
        tx.device_active(DEVICE.device_id)
        return execute_command(tx, DEVICE, decoded, "hash")
    return apply


def _raising(thread: str) -> Callable[[Transaction], object]:
    """A write that starts a turn in ``thread`` and then raises (its caller refuses it)."""
    def apply(tx: Transaction) -> object:
        _command(turn_start(thread, "half"))(tx)
        raise ValueError("refused after writing")
    return apply


async def _listen(dsn: str, payloads: list[str], ready: asyncio.Event) -> None:
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute("LISTEN composer_events")
        ready.set()
        async for notify in conn.notifies():
            payloads.append(notify.payload)


async def _published(seen: list[StoredEvent], count: int) -> None:
    for _ in range(500):
        if len(seen) >= count:
            return
        await asyncio.sleep(0.01)


@pytest.mark.postgres
def test_writes_of_different_threads_arriving_together_commit_as_one_group(
        postgres_dsn: str) -> None:
    """While one transaction is in flight the others queue; the queued ones then run in one
    transaction of two round trips with one notification, each with its own receipt and answer,
    and a repeated command still answers from its receipt."""
    store = PostgresStore(postgres_dsn)
    store.open()
    store.group_queue.writers = 1  # one group in flight: the rest queue behind it
    seen: list[StoredEvent] = []
    payloads: list[str] = []
    try:
        async def run() -> list[object]:
            store.set_commit_listener(seen.extend)
            store.bind_loop(asyncio.get_running_loop())
            ready = asyncio.Event()
            listener = asyncio.create_task(_listen(postgres_dsn, payloads, ready))
            await ready.wait()
            threads = [f"thr_{n}" for n in range(6)]
            for thread in threads:
                await store.write(_command(create_thread(thread)), group=("u1", thread))
            await _published(seen, 6)
            before, groups = store.round_trips, store.groups
            again = turn_start("thr_5", "twice")
            bodies = [turn_start(t, f"hello {t}") for t in threads[:5]] + [again, again]
            outcomes = await asyncio.gather(*(
                store.write(_command(b), group=("u1", str(b["threadId"]))) for b in bodies))
            # the first alone, the next five together, the repeat after its thread's first
            assert store.groups - groups == 1
            assert store.round_trips - before == 2 + 2 + 2
            await _published(seen, 6 + 7 * 2)
            await asyncio.sleep(0.1)
            listener.cancel()
            return list(outcomes)

        outcomes = asyncio.run(run())
        created = seen[5].sequence
        mine = [p for p in payloads if int(p.split("-")[0]) > created]
        assert len(mine) == 3  # one notification per transaction: the group's covers five
        assert mine[1].split("\n")[0] == f"{created + 3}-{created + 12}"
        carried = announced_events(mine[1])  # the group's events, as many as fit
        assert carried and carried == [e for e in seen if e.sequence in range(
            created + 3, created + 3 + len(carried))]
        stored = store.read_sync(lambda r: r.events_after(0, "u1"))
        assert [e.sequence for e in seen] == [e.sequence for e in stored]  # in order, no gaps
        assert [e.sequence for e in seen] == sorted(e.sequence for e in seen)
        sent = [e for e in stored if e.event_type == "thread.message-sent"]
        assert len(sent) == 6  # the repeated command wrote nothing
        for outcome in outcomes:
            assert outcome.status == 200  # type: ignore[attr-defined]
        assert outcomes[5].body == outcomes[6].body  # type: ignore[attr-defined]
        for outcome, body in zip(outcomes[:6], [*[None] * 6], strict=True):
            del body
            turn = outcome.turn  # type: ignore[attr-defined]
            started = [e for e in stored if e.event_type == "thread.turn-started"
                       and e.payload["turnId"] == turn.turn_id]
            assert outcome.body["sequence"] == started[0].sequence  # type: ignore[attr-defined]
        versions = store.read_sync(lambda r: r.all(
            "SELECT thread_id, stream_version FROM events ORDER BY sequence"))
        per_thread: dict[str, list[int]] = {}
        for thread_id, version in versions:
            per_thread.setdefault(thread_id, []).append(int(version))
        assert all(v == list(range(1, len(v) + 1)) for v in per_thread.values())
        rows = store.read_sync(lambda r: r.all(
            "SELECT thread_id, stream_version, last_sequence, title FROM threads"))
        for thread_id, version, last, title in rows:  # each group member's row written
            mine = [e for e in stored if e.thread_id == thread_id]
            assert (int(version), int(last)) == (len(mine), mine[-1].sequence)
            assert title == "Hello"
    finally:
        store.set_commit_listener(None)
        store.close()


@pytest.mark.postgres
def test_a_failing_write_in_a_group_fails_alone(postgres_dsn: str) -> None:
    """A write that raises is rolled back to its own savepoint (its numbers announced unused) and
    gets its own exception; one whose statement fails sends the group back to one transaction per
    write, so it alone gets the database's error. The others commit either way."""
    store = PostgresStore(postgres_dsn)
    store.open()
    seen: list[StoredEvent] = []
    try:
        def bad_sql(tx: Transaction) -> object:
            tx.prefetch(user_id="u1", thread_id="thr_3", reserve=1)
            tx.append_event("u1", "thr_3", "thread.meta-updated", {"title": "x"})
            return tx._x("SELECT * FROM no_such_table", ()).fetchall()  # type: ignore[attr-defined]

        async def run() -> tuple[list[object], list[object], int]:
            store.set_commit_listener(seen.extend)
            store.bind_loop(asyncio.get_running_loop())
            for n in range(6):
                await store.write(_command(create_thread(f"thr_{n}")), group=("u1", f"thr_{n}"))
            groups = store.groups
            first = await asyncio.gather(
                store.write(_command(turn_start("thr_0", "alone")), group=("u1", "thr_0")),
                store.write(_command(turn_start("thr_1", "kept")), group=("u1", "thr_1")),
                store.write(_raising("thr_2"), group=("u1", "thr_2")),
                store.write(_command(turn_start("thr_4", "kept too")), group=("u1", "thr_4")),
                return_exceptions=True)
            grouped = store.groups - groups
            second = await asyncio.gather(
                store.write(_command(turn_start("thr_0", "alone")), group=("u1", "thr_0")),
                store.write(_command(turn_start("thr_1", "kept")), group=("u1", "thr_1")),
                store.write(bad_sql, group=("u1", "thr_3")),
                store.write(_command(turn_start("thr_5", "kept")), group=("u1", "thr_5")),
                return_exceptions=True)
            # a later write is published: no number of the failed ones is left open
            await store.write(_command(turn_start("thr_4", "after")), group=("u1", "thr_4"))
            await _published(seen, 6 + 3 * 2 + 3 * 2 + 2)
            return list(first), list(second), grouped

        first, second, grouped = asyncio.run(run())
        assert grouped == 1
        assert isinstance(first[2], ValueError)
        assert all(o.status == 200 for o in (first[0], first[1], first[3]))  # type: ignore[attr-defined]
        assert isinstance(second[2], StorageError) and "no_such_table" in str(second[2])
        assert all(o.status == 200 for o in (second[0], second[1], second[3]))  # type: ignore[attr-defined]
        stored = store.read_sync(lambda r: r.events_after(0, "u1"))
        assert [e.sequence for e in seen] == [e.sequence for e in stored]
        assert not [e for e in stored if e.thread_id in ("thr_2", "thr_3")
                    and e.event_type != "thread.created"]
        receipts = store.read_sync(lambda r: r.all("SELECT count(*) FROM command_receipts"))
        assert int(receipts[0][0]) == 6 + 3 + 3 + 1
    finally:
        store.set_commit_listener(None)
        store.close()


@pytest.mark.postgres
def test_commands_and_replies_open_no_subtransaction(postgres_dsn: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A command's block (undone when it is rejected) and each group member's block send their
    ``SAVEPOINT`` only if their writes go out while they are open, which a message's command and
    reply never do: alone or in a group, no ``SAVEPOINT`` is sent. A rejected command still keeps
    none of its writes, and a group member that raises none of its."""
    sent: list[bytes] = []
    send = Batch._send

    async def recording(self: Batch, queued: list[Statement]) -> None:
        sent.extend(s.sql for s in queued)
        await send(self, queued)

    monkeypatch.setattr(Batch, "_send", recording)
    store = PostgresStore(postgres_dsn)
    store.open()
    store.group_queue.writers = 1  # one group in flight: the rest queue behind it
    seen: list[StoredEvent] = []
    try:
        async def run() -> tuple[list[object], object, int]:
            store.set_commit_listener(seen.extend)
            store.bind_loop(asyncio.get_running_loop())
            for n in range(4):
                await store.write(_command(create_thread(f"thr_{n}")), group=("u1", f"thr_{n}"))
            started = await store.write(_command(turn_start("thr_0", "alone", message_id="m_0")))
            plan = started.turn  # type: ignore[attr-defined]
            assert await store.write(lambda tx: finish_turn(tx, plan, "", "done", None, None))
            groups = store.groups
            grouped = await asyncio.gather(
                store.write(_command(turn_start("thr_0", "first")), group=("u1", "thr_0")),
                store.write(_command(turn_start("thr_1", "kept")), group=("u1", "thr_1")),
                store.write(_raising("thr_2"), group=("u1", "thr_2")),
                store.write(_command(turn_start("thr_3", "kept too")), group=("u1", "thr_3")),
                return_exceptions=True)
            accepted = len(sent)
            rejected = await store.write(_command(turn_start(  # its message id is taken
                "thr_new", "bootstrap", message_id="m_0", bootstrap=True)))
            await _published(seen, 4 + 2 + 2 + 2 * 3)
            return list(grouped), rejected, store.groups - groups, accepted

        grouped, rejected, groups, accepted = asyncio.run(run())
        assert groups == 1
        assert isinstance(grouped[2], ValueError)
        assert all(o.status == 200 for o in (grouped[0], grouped[1], grouped[3]))  # type: ignore[attr-defined]
        assert rejected.status == 400  # type: ignore[attr-defined]
        # (the rejected command's first try, which leaves the taken id to the key, is no message's)
        assert sent and not [sql for sql in sent[:accepted] if b"SAVEPOINT" in sql]
        stored = store.read_sync(lambda r: r.events_after(0, "u1"))
        assert [e.sequence for e in seen] == [e.sequence for e in stored]
        assert not [e for e in stored if e.thread_id == "thr_new"
                    or (e.thread_id == "thr_2" and e.event_type != "thread.created")]
        assert store.read_sync(lambda r: r.thread("u1", "thr_new")) is None
        receipts = store.read_sync(lambda r: r.all(
            "SELECT status, count(*) FROM command_receipts GROUP BY status ORDER BY status"))
        assert [(str(s), int(n)) for s, n in receipts] == [("accepted", 4 + 1 + 3),
                                                           ("rejected", 1)]
    finally:
        store.set_commit_listener(None)
        store.close()


@pytest.mark.postgres
def test_a_new_messages_id_is_checked_by_the_primary_key_without_a_read(
        postgres_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Serving, a message's command sends no read of its message id; a command whose id the user
    already has is still rejected as before (400, a rejected receipt, none of its writes), alone
    or when a group member of the same transaction took the id, and the other users' ids are
    their own."""
    sent: list[bytes] = []
    trips: list[list[bytes]] = []
    send = Batch._send

    async def recording(self: Batch, queued: list[Statement]) -> None:
        sent.extend(s.sql for s in queued)
        trips.append([s.sql for s in queued])
        await send(self, queued)

    monkeypatch.setattr(Batch, "_send", recording)
    store = PostgresStore(postgres_dsn)
    store.open()
    other = Device("dev_b", "u2", "phone")
    seen: list[StoredEvent] = []
    try:
        async def run() -> tuple[list[bytes], list[object]]:
            store.set_commit_listener(seen.extend)
            store.bind_loop(asyncio.get_running_loop())
            for n in range(2):
                await store.write(_command(create_thread(f"thr_{n}")), group=("u1", f"thr_{n}"))
            before = len(sent)
            first = await store.write(_command(turn_start("thr_0", "one", message_id="m_1")))
            command = sent[before:]

            def as_other(tx: Transaction) -> object:
                decoded = decode_command(create_thread("thr_0"))
                prefetch_command(tx, other, decoded)
                execute_command(tx, other, decoded, "hash")
                decoded = decode_command(turn_start("thr_0", "mine", message_id="m_1"))
                prefetch_command(tx, other, decoded)
                return execute_command(tx, other, decoded, "hash")

            outcomes = [first,
                        await store.write(_command(turn_start("thr_1", "again", message_id="m_1",
                                                              command_id="cmd_again"))),
                        await store.write(as_other)]
            store.group_queue.writers = 1  # the first write in flight, the other two its group
            trips.clear()
            outcomes.extend((await asyncio.gather(
                store.write(_command(create_thread("thr_2")), group=("u1", "thr_2")),
                store.write(_command(turn_start("thr_0", "two", message_id="m_2")),
                            group=("u1", "thr_0")),
                store.write(_command(turn_start("thr_1", "two too", message_id="m_2")),
                            group=("u1", "thr_1"))))[1:])
            # the group sent both members' messages in one transaction, which the key refused
            assert [trip for trip in trips
                    if sum(sql.startswith(b"INSERT INTO messages") for sql in trip) == 4]
            outcomes.append(await store.write(_command(turn_start(  # answered by its receipt
                "thr_1", "again", message_id="m_1", command_id="cmd_again"))))
            return command, outcomes

        command, outcomes = asyncio.run(run())
        reads = [sql for sql in command if sql.startswith(b"SELECT") and b"FROM messages" in sql]
        assert len(reads) == 1 and b") recent WHERE" in reads[0], reads  # the earlier material
        assert [o.status for o in outcomes] == [200, 400, 200, 200, 400, 400]  # type: ignore[attr-defined]
        assert outcomes[1].body == outcomes[5].body  # type: ignore[attr-defined]
        assert "messageId is already used" in str(outcomes[1].body)  # type: ignore[attr-defined]
        rows = store.read_sync(lambda r: r.all(  # type: ignore[attr-defined]
            "SELECT user_id, message_id, thread_id, text FROM messages WHERE role = 'user' "
            "ORDER BY user_id, message_id"))
        assert [tuple(r) for r in rows] == [("u1", "m_1", "thr_0", "one"),
                                            ("u1", "m_2", "thr_0", "two"),
                                            ("u2", "m_1", "thr_0", "mine")]
        receipts = store.read_sync(lambda r: r.all(  # type: ignore[attr-defined]
            "SELECT status, count(*) FROM command_receipts GROUP BY status ORDER BY status"))
        assert [(str(st), int(n)) for st, n in receipts] == [("accepted", 2 + 1 + 2 + 2),
                                                             ("rejected", 2)]
        sent_types = [e.event_type for e in store.read_sync(lambda r: r.events_after(0, "u1"))]
        assert sent_types.count("thread.message-sent") == 2
    finally:
        store.set_commit_listener(None)
        store.close()


@pytest.mark.postgres
def test_another_process_publishes_the_events_a_notification_carries_without_reading_them(
        postgres_dsn: str) -> None:
    """Two stores on one database stand for two processes: the small commit reaches the other one
    in its notification, the one too large for it is read from the log; both publish the same."""
    writer, other = PostgresStore(postgres_dsn), PostgresStore(postgres_dsn)
    writer.open()
    other.open()
    mine: list[StoredEvent] = []
    theirs: list[StoredEvent] = []
    try:
        async def until(count: int) -> None:
            for _ in range(500):
                if len(theirs) >= count:
                    return
                await asyncio.sleep(0.01)

        async def run() -> None:
            loop = asyncio.get_running_loop()
            writer.set_commit_listener(mine.extend)
            other.set_commit_listener(theirs.extend)
            for store in (writer, other):
                store.bind_loop(loop)
                await store.read(lambda r: r.max_sequence())  # listening from here on
            await writer.write(lambda tx: tx.insert_thread("thr_a", "u1", "T", "2026-12-01"))
            await writer.write(lambda tx: [
                tx.append_event("u1", "thr_a", "thread.meta-updated", {"title": "small"}),
                tx.append_event("u1", "thr_a", "thread.meta-updated", {"title": "é \x00"})])
            await until(2)
            assert other.fill_reads == 0
            await writer.write(lambda tx: tx.append_event("u1", "thr_a", "thread.meta-updated",
                                                          {"title": "x" * 9000}))
            await until(3)
            assert other.fill_reads >= 1

        asyncio.run(run())
        assert [e.payload["title"] for e in theirs] == ["small", "é \x00", "x" * 9000]
        assert theirs == mine
    finally:
        for store in (writer, other):
            store.set_commit_listener(None)
            store.close()
