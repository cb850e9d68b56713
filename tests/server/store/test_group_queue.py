"""Which writes run together: one per thread per group, in order, and who gets what outcome."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from composer_app.server.store.group_queue import GroupQueue, Member, RolledBack


class _Runner:
    def __init__(self, *, roll_back: bool = False) -> None:
        self.groups: list[list[str]] = []
        self.alone: list[str] = []
        self.roll_back = roll_back

    async def run_alone(self, fn: Any) -> Any:
        await asyncio.sleep(0.02 if fn(None) == "w1" else 0)  # the older write is the slower
        self.alone.append(fn(None))
        return fn(None)

    async def run_together(self, members: list[Member]) -> list[tuple[bool, Any]]:
        await asyncio.sleep(0.01)  # in flight while more writes arrive
        self.groups.append([m.fn(None) for m in members])
        if self.roll_back:
            raise RolledBack
        return [(False, ValueError(m.fn(None))) if m.fn(None).endswith("!") else (True, m.fn(None))
                for m in members]


def _queue(runner: _Runner, limit: int = 32) -> GroupQueue:
    return GroupQueue(runner.run_alone, runner.run_together, lambda: True, limit=limit,
                      writers=1)


def _write(queue: GroupQueue, thread: str, name: str) -> Any:
    return queue.write(lambda _tx: name, ("user", thread))


def test_writes_of_different_threads_share_a_group_and_a_threads_writes_keep_their_order(
        ) -> None:
    runner = _Runner()

    async def main() -> list[Any]:
        queue = _queue(runner)
        first = asyncio.ensure_future(_write(queue, "t0", "first"))  # alone: nothing in flight
        await asyncio.sleep(0)
        rest = [asyncio.ensure_future(_write(queue, t, n)) for t, n in
                [("t1", "a1"), ("t2", "b1"), ("t1", "a2"), ("t3", "c1!")]]
        return await asyncio.gather(first, *rest, return_exceptions=True)

    results = asyncio.run(main())
    assert results[:4] == ["first", "a1", "b1", "a2"]
    assert isinstance(results[4], ValueError)  # one member's failure is its own
    assert runner.alone[0] == "first"
    assert runner.groups[0] == ["a1", "b1", "c1!"]  # a2 waits: t1 already has a1 in this group
    assert "a2" in runner.alone  # the next group holds a2 alone


def test_a_rolled_back_group_runs_every_write_again_alone_oldest_first() -> None:
    """Of two members that conflicted, the older one runs (and so wins) first, however long it
    takes."""
    runner = _Runner(roll_back=True)

    async def main() -> list[Any]:
        queue = _queue(runner)
        blocker = asyncio.ensure_future(_write(queue, "t0", "x"))
        await asyncio.sleep(0)
        rest = [asyncio.ensure_future(_write(queue, f"t{n}", f"w{n}")) for n in (1, 2)]
        return await asyncio.gather(blocker, *rest)

    assert asyncio.run(main()) == ["x", "w1", "w2"]
    assert runner.groups == [["w1", "w2"]] and runner.alone[-2:] == ["w1", "w2"]


@pytest.mark.parametrize("limit", [1, 2])
def test_the_limit_bounds_a_group(limit: int) -> None:
    runner = _Runner()

    async def main() -> None:
        queue = _queue(runner, limit)
        first = asyncio.ensure_future(_write(queue, "t0", "x"))
        await asyncio.sleep(0)
        await asyncio.gather(first, *(_write(queue, f"t{n}", f"w{n}") for n in range(1, 5)))

    asyncio.run(main())
    assert all(len(group) <= limit for group in runner.groups)
    if limit == 1:
        assert runner.groups == [] and sorted(runner.alone) == ["w1", "w2", "w3", "w4", "x"]


def test_with_two_writers_in_flight_a_thread_never_has_two_writes_in_flight() -> None:
    running: set[str] = set()  # threads with a write in flight
    overlaps: list[str] = []
    finished: list[str] = []
    groups_at_once: list[int] = []
    in_flight = [0]

    async def run(names: list[str]) -> None:
        in_flight[0] += 1
        groups_at_once.append(in_flight[0])
        for name in names:
            thread = name.split(":")[0]
            if thread in running:
                overlaps.append(name)
            running.add(thread)
        await asyncio.sleep(0.01)
        for name in names:
            running.discard(name.split(":")[0])
            finished.append(name)
        in_flight[0] -= 1

    async def alone(fn: Any) -> Any:
        await run([fn(None)])
        return fn(None)

    async def together(members: list[Member]) -> list[tuple[bool, Any]]:
        await run([m.fn(None) for m in members])
        return [(True, m.fn(None)) for m in members]

    async def main() -> list[Any]:
        queue = GroupQueue(alone, together, lambda: True, limit=32, writers=2)
        writes = [asyncio.ensure_future(_write(queue, "t0", "t0:0"))]
        await asyncio.sleep(0)  # in flight, one writer left
        for n in range(3):
            for thread in ("t0", "t1", "t2")[1 if n == 0 else 0:]:
                writes.append(asyncio.ensure_future(_write(queue, thread, f"{thread}:{n}")))
            await asyncio.sleep(0.004)  # the next round arrives while groups are in flight
        return await asyncio.gather(*writes)

    results = asyncio.run(main())
    assert sorted(results) == sorted(f"{t}:{n}" for n in range(3) for t in ("t0", "t1", "t2"))
    assert overlaps == []  # a later write of a thread waited for its earlier one's group
    assert max(groups_at_once) == 2
    for thread in ("t0", "t1", "t2"):
        assert [n for n in finished if n.startswith(thread)] == [f"{thread}:{i}" for i in range(3)]
