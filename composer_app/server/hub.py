"""In-process fan-out of committed events to WebSocket subscriptions.

Invariants: ``publish`` is called on the event loop with committed events in sequence order; each
subscription receives only its own user's events that match its stream, in that order; a
subscription registered before a replay buffers live events, so none is lost between replay and
live (the subscriber skips sequences it already sent).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field

from composer_app.core.contracts.wire import SHELL_EVENT_TYPES
from composer_app.server.store.base import StoredEvent


@dataclass(eq=False)
class Subscription:
    """One stream of one socket: ``thread_id`` None means the shell stream."""

    subscription_id: str
    user_id: str
    thread_id: str | None
    queue: asyncio.Queue[StoredEvent] = field(default_factory=asyncio.Queue)

    def matches(self, event: StoredEvent) -> bool:
        if event.user_id != self.user_id:
            return False
        if self.thread_id is None:
            return event.event_type in SHELL_EVENT_TYPES
        return event.thread_id == self.thread_id


class Hub:
    """Subscriptions indexed by user."""

    def __init__(self) -> None:
        self._by_user: dict[str, set[Subscription]] = defaultdict(set)

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
            for subscription in self._by_user.get(event.user_id, ()):
                if subscription.matches(event):
                    subscription.queue.put_nowait(event)

    @property
    def subscription_count(self) -> int:
        return sum(len(s) for s in self._by_user.values())
