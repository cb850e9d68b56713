"""Publish committed events in sequence order when sequences are taken before commit.

PostgreSQL sequence numbers are handed out when an event is appended, not when its transaction
commits, so with concurrent writers ``11`` can commit while ``10`` is still in flight (or is rolled
back and never appears). ``CommitOrder`` keeps one process's high-water mark ``published``:

* every number ``<= published`` is final: its event was published, or its number will never be used
  (its transaction rolled back or died);
* events reach ``publish`` exactly once, in strictly increasing sequence order, and only once every
  lower number is final, so no subscriber ever sees a gap that later fills.

Numbers become known to it from four sources: this process's own transactions (``allocated`` while
in flight, then ``committed`` or ``abandoned``), announcements of other processes' commits
(``announced``: the high end of a committed range), events read from the log (``found``), and
numbers proven unused (``resolved``). ``missing`` lists the numbers it needs read from the log:
below the highest known committed number, neither held nor in flight here. Own commits are never
listed, so the process never re-reads what it committed itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from composer_app.server.store.base import StoredEvent


class CommitOrder:
    """The high-water mark and the out-of-order buffer of one process (event loop only)."""

    def __init__(self, published: int, publish: Callable[[list[StoredEvent]], None],
                 on_missing: Callable[[], None] = lambda: None) -> None:
        self.published = published
        self._publish = publish
        self._on_missing = on_missing
        self._known = published  # highest number known to be committed (or final)
        self._held: dict[int, StoredEvent] = {}  # committed events above the mark
        self._in_flight: set[int] = set()  # numbers taken by this process's open transactions
        self._unused: set[int] = set()  # numbers above the mark proven never to be used
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []

    # Own transactions ----------------------------------------------------------------------------

    def allocated(self, sequence: int) -> None:
        """``sequence`` was taken by one of this process's open transactions."""
        if sequence > self.published:
            self._in_flight.add(sequence)

    def committed(self, events: list[StoredEvent], unused: Iterable[int] = ()) -> None:
        """A local transaction committed ``events``; its other numbers (``unused``) are dead."""
        self._in_flight.difference_update(e.sequence for e in events)
        self.found(events)
        self.abandoned(unused)

    def abandoned(self, sequences: Iterable[int]) -> None:
        """A local transaction rolled back: its numbers will never be used."""
        numbers = [n for n in sequences if n > self.published]
        self._in_flight.difference_update(numbers)
        self.resolved(numbers)

    def released(self, sequences: Iterable[int]) -> None:
        """A local transaction ended with an unknown outcome: the log decides."""
        numbers = [n for n in sequences if n > self.published]
        self._in_flight.difference_update(numbers)
        if numbers:
            self.announced(max(numbers))

    # Other processes -----------------------------------------------------------------------------

    def announced(self, last: int) -> None:
        """Some transaction committed numbers up to ``last`` (a notification's range end)."""
        if last > self._known:
            self._known = last
        self._advance()

    def found(self, events: Iterable[StoredEvent]) -> None:
        """Committed events (read from the log or just committed here)."""
        top = self._known
        for event in events:
            n = event.sequence
            if n > self.published and n not in self._held:
                self._held[n] = event
                self._in_flight.discard(n)
            top = max(top, n)
        self._known = top
        self._advance()

    def resolved(self, sequences: Iterable[int]) -> None:
        """``sequences`` are proven unused (their transactions ended without them)."""
        for n in sequences:
            if n > self.published and n not in self._held:
                self._unused.add(n)
                self._known = max(self._known, n)
        self._advance()

    def missing(self, limit: int) -> list[int]:
        """Up to ``limit`` numbers above the mark to look up in the log (see the module doc)."""
        out: list[int] = []
        n = self.published + 1
        while n <= self._known and len(out) < limit:
            if n not in self._held and n not in self._in_flight and n not in self._unused:
                out.append(n)
            n += 1
        return out

    # Waiting -------------------------------------------------------------------------------------

    async def reached(self, sequence: int) -> None:
        """Return once ``published >= sequence``."""
        if self.published >= sequence:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((sequence, future))
        await future

    # Internals -----------------------------------------------------------------------------------

    def _advance(self) -> None:
        batch: list[StoredEvent] = []
        n = self.published + 1
        while True:
            event = self._held.pop(n, None)
            if event is not None:
                batch.append(event)
            elif n in self._unused:
                self._unused.discard(n)
            else:
                break
            n += 1
        self.published = n - 1
        self._known = max(self._known, self.published)
        if batch:
            self._publish(batch)
        if self._waiters:
            keep = []
            for sequence, future in self._waiters:
                if sequence <= self.published:
                    if not future.done():
                        future.set_result(None)
                else:
                    keep.append((sequence, future))
            self._waiters = keep
        if self._known > self.published and self.published + 1 not in self._in_flight:
            self._on_missing()
