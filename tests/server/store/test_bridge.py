"""Blocking-style code on the event loop: awaited in place, or in steps that stop at a pause."""

from __future__ import annotations

import asyncio

import pytest

from composer_app.server.store.bridge import Pause, SteppedCall, await_only, run_bridged


async def _value(value: int) -> int:
    await asyncio.sleep(0)
    return value


async def _boom() -> int:
    raise KeyError("from the awaited call")


def test_a_bridged_call_awaits_in_place_and_raises_where_it_awaited() -> None:
    def body(start: int) -> int:
        total = start + await_only(_value(2))
        try:
            await_only(_boom())
        except KeyError:
            total += 10
        return total

    assert asyncio.run(run_bridged(body, 1)) == 13
    with pytest.raises(RuntimeError):
        await_only(Pause())  # outside a bridged call


def test_stepped_calls_interleave_at_their_pauses_and_end_in_turn() -> None:
    log: list[str] = []
    pause = Pause()

    def member(name: str) -> str:
        log.append(f"{name} reads")
        await_only(pause)
        log.append(f"{name} goes on with {await_only(_value(len(name)))}")
        return name.upper()

    async def run() -> list[str]:
        calls = [SteppedCall(member, "a"), SteppedCall(member, "bb")]
        assert [await call.step() for call in calls] == [True, True]  # both at their pause
        log.append("reads sent")
        results = []
        for call in calls:
            assert await call.step() is False and call.done
            results.append(call.result)
        return results

    assert asyncio.run(run()) == ["A", "BB"]
    assert log == ["a reads", "bb reads", "reads sent", "a goes on with 1", "bb goes on with 2"]


def test_a_stepped_call_raises_its_exception_and_a_paused_one_can_be_closed() -> None:
    cleaned: list[bool] = []

    def failing() -> None:
        raise ValueError("refused")

    def paused() -> None:
        try:
            await_only(Pause())
        finally:
            cleaned.append(True)

    async def run() -> None:
        with pytest.raises(ValueError):
            await SteppedCall(failing).step()
        call = SteppedCall(paused)
        assert await call.step() is True
        call.close()
        assert call.done

    asyncio.run(run())
    assert cleaned == [True]
