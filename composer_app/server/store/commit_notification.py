"""The payload of a PostgreSQL write transaction's one ``NOTIFY`` (cross-process fan-out).

Invariants: ``announce`` sends ``payload`` on ``CHANNEL``, once per transaction;
``payload(allocated, events)`` is ``'<first>-<last>'``, the range of the numbers the
transaction took, then ``';<n>,<n>…'`` when it left some of them unused, then — when at least one
fits — a newline and a JSON array of committed events in sequence order (each
``[sequence, event_id, thread_id, event_type, occurred_at, command_id, payload, user_id]``, the
event exactly as the writing process publishes it), as many as keep the whole payload within
``LIMIT`` bytes (PostgreSQL refuses 8000 and more); it is None when the transaction took no number.
PostgreSQL delivers it only after the transaction committed, so once it arrives the carried events
are committed and the unused numbers never appear; a number of the range that is neither is this
transaction's committed event too large to carry, or another transaction's (numbers of concurrent
transactions interleave), and is read from the log. ``announced_range``, ``announced_unused`` and
``announced_events`` read a payload back (a malformed part reads as nothing: a range of None, no
numbers, no events; ``announced_first`` reads the range's first number), and read older payloads
without events unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from composer_app.server.json_text import compact
from composer_app.server.store.base import StoredEvent

LIMIT = 7999
CHANNEL = "composer_events"


def payload(allocated: list[int], events: Iterable[StoredEvent]) -> str | None:
    """The notification of a transaction that took ``allocated`` and committed ``events``."""
    if not allocated:
        return None
    committed = sorted(events, key=lambda e: e.sequence)
    used = {e.sequence for e in committed}
    head = f"{min(allocated)}-{max(allocated)}"
    unused = [n for n in allocated if n not in used]
    if unused:
        head += ";" + ",".join(str(n) for n in unused)
    room = LIMIT - len(head) - 3  # the newline and the brackets
    carried: list[str] = []
    for event in committed:
        text = compact([event.sequence, event.event_id, event.thread_id, event.event_type,
                        event.occurred_at, event.command_id, event.payload, event.user_id])
        try:
            size = (len(text) if text.isascii() else len(text.encode("utf-8"))) + 1  # a comma
        except UnicodeEncodeError:  # not valid text: receivers read it from the log
            break
        if size > room:
            break
        room -= size
        carried.append(text)
    if not carried:
        return head
    return head + "\n[" + ",".join(carried) + "]"


def announce(execute: Callable[[str, Sequence[Any]], Any], allocated: list[int],
           events: Iterable[StoredEvent]) -> None:
    """Queues on ``execute`` the transaction's one ``NOTIFY`` on ``CHANNEL`` (none when it took
    no number)."""
    note = payload(allocated, events)
    if note is not None:
        execute("SELECT pg_notify(?, ?)", (CHANNEL, note))


def announced_range(text: str) -> int | None:
    """The last number of a payload's range (or of a bare ``'<last>'``), else None."""
    try:
        return int(text.split("\n", 1)[0].split(";", 1)[0].rsplit("-", 1)[-1])
    except ValueError:
        return None


def announced_first(text: str) -> int | None:
    """The first number of a payload's range (or of a bare ``'<last>'``), else None."""
    try:
        return int(text.split("\n", 1)[0].split(";", 1)[0].split("-", 1)[0])
    except ValueError:
        return None


def announced_unused(text: str) -> list[int]:
    """The numbers a payload's committed transaction took and left unused (may be none)."""
    _, _, tail = text.split("\n", 1)[0].partition(";")
    try:
        return [int(n) for n in tail.split(",") if n]
    except ValueError:
        return []


def announced_events(text: str) -> list[StoredEvent]:
    """The committed events a payload carries (may be none)."""
    _, newline, carried = text.partition("\n")
    if not newline:
        return []
    try:
        return [StoredEvent(int(e[0]), e[1], e[2], e[3], e[4], e[5], e[6], e[7])
                for e in json.loads(carried)]
    except (ValueError, TypeError, IndexError, KeyError):
        return []
