"""The PostgreSQL store's round trips per command and per read, counted on a real server (so they
cannot grow back unnoticed), and the notifications that tell other processes which numbers stay
unused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest

from composer_app.core.contracts.wire import decode_command
from composer_app.server.earlier_material import EarlierMaterial
from composer_app.server.ledger import TurnPlan, execute_command, finish_turn, prefetch_command
from composer_app.server.providers.echo import EchoProvider
from composer_app.server.store.base import Device, StoredEvent, Transaction
from composer_app.server.store.postgres import (
    PARK_IDLE,
    PostgresStore,
    announced_range,
    announced_unused,
)
from composer_app.server.turns import TurnRunner
from tests.server.harness import create_thread, skill, turn_start

DEVICE = Device("dev_a", "u1", "laptop")


def test_a_notification_names_its_range_and_the_numbers_it_left_unused() -> None:
    assert announced_range("7-9") == 9 and announced_unused("7-9") == []
    assert announced_range("7-9;8") == 9 and announced_unused("7-9;8") == [8]
    assert announced_range("12") == 12 and announced_unused("12;x") == []
    assert announced_range("nonsense") is None


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
