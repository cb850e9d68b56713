"""Run blocking-style store code on the event loop: each database call is awaited in place.

Invariants: ``run_bridged(fn)`` runs ``fn`` in a greenlet on the calling (event loop) thread; inside
it, ``await_only(awaitable)`` suspends ``fn`` and awaits the awaitable in the surrounding
coroutine, so synchronous ``Transaction`` code drives an async driver with no thread hand-off.
Exceptions of the awaited call are raised inside ``fn`` at the ``await_only`` call; ``fn``'s result
or exception is ``run_bridged``'s. ``await_only`` outside a bridged call raises ``RuntimeError``.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import Any

from greenlet import getcurrent, greenlet  # type: ignore[import-untyped]


class _Bridged(greenlet):  # type: ignore[misc]
    """A greenlet that knows the coroutine-side greenlet it yields awaitables to."""

    def __init__(self, fn: Callable[..., Any], driver: greenlet) -> None:
        super().__init__(fn, driver)
        self.driver = driver


def await_only[T](awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` from bridged synchronous code (see the module invariants)."""
    current = getcurrent()
    if not isinstance(current, _Bridged):
        raise RuntimeError("await_only() outside run_bridged()")
    return current.driver.switch(awaitable)  # type: ignore[no-any-return]


async def run_bridged[T](fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)``; every ``await_only`` inside it is awaited here, in order."""
    child = _Bridged(fn, getcurrent())
    pending = child.switch(*args)
    while not child.dead:
        try:
            value = await pending
        except BaseException:
            pending = child.throw(*sys.exc_info())
        else:
            pending = child.switch(value)
    return pending  # type: ignore[no-any-return]
