"""``GroupQueue``: which writes run together in one group transaction, and who gets what.

Invariants: a write names its thread (``key``) and waits while ``writers`` groups are in flight;
a group takes the waiting writes oldest first, at most one per thread and none of a thread whose
write is in a group still in flight (a later write of a thread waits for a group that starts after
its earlier one ended, so a thread's writes keep their order and never wait for each other's row
locks) and ``limit`` in all; a write
whose caller gave up before its group started is dropped; a group of one runs alone. ``together``
returns each member's outcome, a value or its own exception; raising ``RolledBack`` (a statement
failed and the whole transaction was rolled back) sends every member to run alone, one after the
other, oldest first, so of two writes that conflict the older one wins, as it would have without
the group; any other
failure is every member's. No new group starts once ``is_open`` says the store closed.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from composer_app.core.errors import StorageError
from composer_app.server.store.base import Transaction

__all__ = ["GroupQueue", "Member", "RolledBack"]

Write = Callable[[Transaction], Any]


class RolledBack(Exception):
    """A group transaction failed on a statement and was rolled back (its members run again)."""


@dataclass(eq=False)
class Member:
    """A write waiting for (or running in) a group transaction."""

    fn: Write
    key: tuple[str, str]
    future: asyncio.Future[Any]


class GroupQueue:
    """The waiting writes and the group transactions in flight (see the module invariants)."""

    def __init__(self, alone: Callable[[Write], Awaitable[Any]],
                 together: Callable[[list[Member]], Awaitable[list[tuple[bool, Any]]]],
                 is_open: Callable[[], bool], *, limit: int, writers: int) -> None:
        self._alone = alone
        self._together = together
        self._is_open = is_open
        self.limit = limit
        self.writers = writers
        self._waiting: deque[Member] = deque()
        self._in_flight = 0
        self._busy: set[tuple[str, str]] = set()  # threads with a write in a group in flight
        self._tasks: set[asyncio.Task[None]] = set()

    async def write(self, fn: Write, key: tuple[str, str]) -> Any:
        """``fn``'s result once its group (or, with ``limit`` 1, its own transaction) ran."""
        if self.limit <= 1:
            return await self._alone(fn)
        member = Member(fn, key, asyncio.get_running_loop().create_future())
        self._waiting.append(member)
        self._next()
        return await member.future

    def _next(self) -> None:
        while self._in_flight < self.writers and self._waiting:
            members = self._take()
            if not members:
                return
            self._in_flight += 1
            keys = {m.key for m in members}
            self._busy |= keys
            task = asyncio.get_running_loop().create_task(self._run(members))
            self._tasks.add(task)
            task.add_done_callback(functools.partial(self._done, keys=keys))

    def _done(self, task: asyncio.Task[None], keys: set[tuple[str, str]]) -> None:
        self._tasks.discard(task)
        self._in_flight -= 1
        self._busy -= keys
        if self._is_open():
            self._next()

    def _take(self) -> list[Member]:
        taken: dict[tuple[str, str], Member] = {}
        later: deque[Member] = deque()
        for member in self._waiting:
            if member.future.done():
                continue  # its caller gave up before it started
            if member.key in taken or member.key in self._busy or len(taken) >= self.limit:
                later.append(member)
            else:
                taken[member.key] = member
        self._waiting = later
        return list(taken.values())

    async def _run(self, members: list[Member]) -> None:
        try:
            if len(members) == 1:
                await _settle(members[0], self._alone(members[0].fn))
                return
            try:
                outcomes = await self._together(members)
            except RolledBack:  # a statement failed: each write again on its own, oldest first
                for member in members:
                    await _settle(member, self._alone(member.fn))
                return
            for member, (ok, value) in zip(members, outcomes, strict=True):
                if member.future.done():
                    continue
                if ok:
                    member.future.set_result(value)
                else:
                    member.future.set_exception(value)
        except BaseException as exc:
            for member in members:
                if not member.future.done():
                    member.future.set_exception(
                        exc if isinstance(exc, Exception) else StorageError("store is closed"))
            if not isinstance(exc, Exception):
                raise


async def _settle(member: Member, write: Awaitable[Any]) -> None:
    """Resolve ``member``'s future with the outcome of ``write``."""
    try:
        result = await write
    except Exception as exc:
        if not member.future.done():
            member.future.set_exception(exc)
    else:
        if not member.future.done():
            member.future.set_result(result)


