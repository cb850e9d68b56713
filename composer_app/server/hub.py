"""In-process fan-out of committed events to WebSocket subscriptions.

Invariants: ``publish`` is called on the event loop with committed events in sequence order; each
subscription receives only its own user's events that match its stream, in that order; a
subscription registered before a replay buffers live events, so none is lost between replay and
live (the subscriber skips sequences it already sent). A subscription's buffer is bounded: one that
falls more than ``backlog`` events behind has its buffer dropped and is marked ``overflowed``, and
its server task resynchronizes it from a snapshot, so a client that does not read costs bounded
memory. Each published event reaches its subscriptions as one ``Delivery`` that they share, so its
frame text is encoded once however many subscriptions send it. The hub also counts open sockets
per user (for the per-user cap).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field

from composer_app.core.contracts.wire import SHELL_EVENT_TYPES
from composer_app.server.store.base import StoredEvent

DEFAULT_BACKLOG = 1_000


class Delivery:
    """One committed event on its way to the subscriptions it matches, with the JSON text of its
    wire form once the first of them has encoded it (``text``; the others reuse it)."""

    __slots__ = ("event", "text")

    def __init__(self, event: StoredEvent) -> None:
        self.event = event
        self.text: str | None = None


@dataclass(eq=False)
class Subscription:
    """One stream of one socket: ``thread_id`` None means the shell stream."""

    subscription_id: str
    user_id: str
    thread_id: str | None
    backlog: int = DEFAULT_BACKLOG
    queue: asyncio.Queue[Delivery | None] = field(default_factory=asyncio.Queue)
    overflowed: bool = False

    def matches(self, event: StoredEvent) -> bool:
        if event.user_id != self.user_id:
            return False
        if self.thread_id is None:
            return event.event_type in SHELL_EVENT_TYPES
        return event.thread_id == self.thread_id

    def offer(self, event: Delivery) -> None:
        """Buffer ``event``; past the backlog, drop the buffer and ask for a resync."""
        if self.overflowed:
            return  # the resync snapshot will cover it
        if self.queue.qsize() >= self.backlog:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.overflowed = True
            self.queue.put_nowait(None)  # wakes the sender
            return
        self.queue.put_nowait(event)


class Hub:
    """Subscriptions indexed by user, and open sockets per user."""

    def __init__(self) -> None:
        self._by_user: dict[str, set[Subscription]] = defaultdict(set)
        self._sockets: dict[str, int] = defaultdict(int)

    def add(self, subscription: Subscription) -> None:
        self._by_user[subscription.user_id].add(subscription)

    def remove(self, subscription: Subscription) -> None:
        subs = self._by_user.get(subscription.user_id)
        if subs is not None:
            subs.discard(subscription)
            if not subs:
                del self._by_user[subscription.user_id]

    def publish(self, events: list[StoredEvent]) -> None:
        for event in events:
            delivery = None
            for subscription in self._by_user.get(event.user_id, ()):
                if subscription.matches(event):
                    if delivery is None:
                        delivery = Delivery(event)
                    subscription.offer(delivery)

    def open_socket(self, user_id: str, limit: int) -> bool:
        """Count one more socket of ``user_id``; False (nothing counted) past ``limit``."""
        if self._sockets[user_id] >= limit:
            return False
        self._sockets[user_id] += 1
        return True

    def close_socket(self, user_id: str) -> None:
        self._sockets[user_id] -= 1
        if self._sockets[user_id] <= 0:
            del self._sockets[user_id]

    def sockets_of(self, user_id: str) -> int:
        return self._sockets.get(user_id, 0)

    @property
    def subscription_count(self) -> int:
        return sum(len(s) for s in self._by_user.values())
