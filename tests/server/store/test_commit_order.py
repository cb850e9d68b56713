"""CommitOrder: events leave in sequence order, and only once every lower number is final."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from composer_app.server.store.base import StoredEvent
from composer_app.server.store.commit_order import CommitOrder


def event(sequence: int) -> StoredEvent:
    return StoredEvent(sequence, f"evt_{sequence}", "thr_a", "thread.meta-updated",
                       "2026-12-01T00:00:00.000Z", None, {}, "u1")


def recorder(start: int = 0) -> tuple[CommitOrder, list[int], list[bool]]:
    published: list[int] = []
    wakes: list[bool] = []
    order = CommitOrder(start, lambda events: published.extend(e.sequence for e in events),
                        lambda: wakes.append(True))
    return order, published, wakes


def test_a_commit_waits_for_a_lower_number_still_in_flight_here() -> None:
    order, published, wakes = recorder()
    order.allocated(1)
    order.allocated(2)
    order.committed([event(2)])
    assert published == [] and order.missing(10) == [] and not wakes  # 1 is ours: no read
    order.committed([event(1)])
    assert published == [1, 2] and order.published == 2


def test_a_rolled_back_number_is_skipped_and_never_read() -> None:
    order, published, _ = recorder()
    order.allocated(1)
    order.allocated(2)
    order.committed([event(2)])
    order.abandoned([1])
    assert published == [2]


def test_numbers_announced_by_another_process_are_read_only_where_missing() -> None:
    order, published, wakes = recorder(10)
    order.allocated(12)
    order.committed([event(12)])
    order.announced(14)
    assert wakes and order.missing(10) == [11, 13, 14]
    order.found([event(11), event(14)])
    assert published == [11, 12] and order.missing(10) == [13]
    order.resolved([13])
    assert published == [11, 12, 14]


def test_an_unknown_outcome_is_left_to_the_log() -> None:
    order, published, _ = recorder()
    order.allocated(1)
    order.released([1])
    assert order.missing(10) == [1] and published == []
    order.found([event(1)])
    assert published == [1]


def test_waiters_wake_when_the_mark_reaches_them() -> None:
    async def run() -> bool:
        order, _, _ = recorder()
        waiter = asyncio.ensure_future(order.reached(2))
        await asyncio.sleep(0)
        order.found([event(2)])
        await asyncio.sleep(0)
        early = waiter.done()
        order.found([event(1)])
        await asyncio.wait_for(waiter, 1)
        return early

    assert asyncio.run(run()) is False


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(1, 31)), st.sets(st.integers(1, 30)))
def test_any_arrival_order_publishes_each_committed_event_once_in_order(
    arrival: list[int], unused: set[int]
) -> None:
    order, published, _ = recorder()
    for n in arrival:
        if n in unused:
            order.resolved([n])
        else:
            order.found([event(n)])
        assert published == sorted(published)
        assert all(m <= order.published for m in published)
    assert published == [n for n in range(1, 31) if n not in unused]
