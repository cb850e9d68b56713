"""Run blocking-style store code on the event loop: each database call is awaited in place.

Invariants: ``run_bridged(fn)`` runs ``fn`` in a greenlet on the calling (event loop) thread; inside
it, ``await_only(awaitable)`` suspends ``fn`` and awaits the awaitable in the surrounding
coroutine, so synchronous ``Transaction`` code drives an async driver with no thread hand-off.
Exceptions of the awaited call are raised inside ``fn`` at the ``await_only`` call; ``fn``'s result
or exception is ``run_bridged``'s. ``await_only`` outside a bridged call raises ``RuntimeError``.

``SteppedCall`` runs such code in steps: ``await_only(pause)`` with a ``Pause`` suspends the call
and returns control to whoever stepped it (``step`` returns True), and the next ``step`` resumes it
with ``None`` as ``await_only``'s value. Several stepped calls may be interleaved this way (a group
of transactions' code sharing one connection: each runs up to its first read, the reads go out
together, then each runs on in turn).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from greenlet import GreenletExit, getcurrent, greenlet  # type: ignore[import-untyped]


class _Bridged(greenlet):  # type: ignore[misc]
    """A greenlet that knows the coroutine-side greenlet it yields awaitables to."""

    def __init__(self, fn: Callable[..., Any], driver: greenlet) -> None:
        super().__init__(fn, driver)
        self.driver = driver


class Pause:
    """What bridged code passes to ``await_only`` to hand control back to its stepper."""

    def __await__(self) -> Any:  # never awaited: a stepper stops at it
        raise RuntimeError("a Pause outside a SteppedCall")


def await_only[T](awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` from bridged synchronous code (see the module invariants)."""
    current = getcurrent()
    if not isinstance(current, _Bridged):
        raise RuntimeError("await_only() outside run_bridged()")
    return current.driver.switch(awaitable)  # type: ignore[no-any-return]


async def _drive(child: _Bridged, pending: Any, *, pauses: bool) -> Any:
    while not child.dead:
        if pauses and isinstance(pending, Pause):
            return pending
        try:
            value = await pending
        except BaseException:
            pending = child.throw(*sys.exc_info())
        else:
            pending = child.switch(value)
    return pending


async def run_bridged[T](fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)``; every ``await_only`` inside it is awaited here, in order."""
    child = _Bridged(fn, getcurrent())
    return await _drive(child, child.switch(*args), pauses=False)  # type: ignore[no-any-return]


class SteppedCall:
    """``fn(*args)`` run like ``run_bridged``, but stopping at each ``await_only(Pause())``."""

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self._child = _Bridged(fn, getcurrent())
        self._args: tuple[Any, ...] | None = args
        self.result: Any = None
        """``fn``'s return value once ``step`` has returned False."""

    @property
    def done(self) -> bool:
        return bool(self._child.dead)

    async def step(self) -> bool:
        """Run until the call pauses (True) or returns (False, ``result`` set); its exception is
        raised here."""
        if self._args is not None:
            args, self._args = self._args, None
            pending = self._child.switch(*args)
        else:
            pending = self._child.switch(None)
        outcome = await _drive(self._child, pending, pauses=True)
        if self._child.dead:
            self.result = outcome
            return False
        return True

    def close(self) -> None:
        """End a call left paused (its ``finally`` blocks run; it can no longer await)."""
        if self._args is None and not self._child.dead:
            with contextlib.suppress(BaseException):
                self._child.throw(GreenletExit)


def on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether the caller runs on ``loop``'s thread, inside it (where ``run_bridged`` may run)."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
