"""``GET /api/threads`` (shell snapshot) and ``GET /api/threads/{id}`` (thread snapshot).

Invariants: each snapshot is read in one consistent read transaction and carries the log
``sequence`` it reflects; another user's (or a deleted) thread is ``404``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from composer_app.core.storable_text import text_problem
from composer_app.server.errors import invalid, not_found
from composer_app.server.services import device_of, services_of
from composer_app.server.snapshots import (
    ProviderOf,
    choice_key,
    message_wire,
    provider_of,
    thread_wire,
)
from composer_app.server.store.base import Reader, ThreadRow

router = APIRouter()


def _summary(row: ThreadRow, provider: ProviderOf | None) -> dict[str, Any]:
    name = provider(choice_key(row.user_id, row.thread_id)) if provider is not None else None
    return thread_wire(row, name)


def shell_snapshot(reader: Reader, user_id: str,
                   provider: ProviderOf | None = None) -> dict[str, Any]:
    """The user's thread list; each summary names its provider when ``provider`` is given."""
    sequence = reader.max_sequence()
    threads = [_summary(t, provider) for t in reader.threads_of(user_id)]
    return {"kind": "shell", "sequence": sequence, "threads": threads}


def thread_snapshot(reader: Reader, user_id: str, thread_id: str, *, limit: int | None = None,
                    before_sequence: int | None = None,
                    provider: ProviderOf | None = None) -> dict[str, Any] | None:
    """One thread with (a page of) its messages, or None when the user may not see it."""
    sequence = reader.max_sequence()
    row = reader.thread(user_id, thread_id)
    if row is None or row.user_id != user_id or row.deleted_at is not None:
        return None
    messages, has_more = reader.messages_of(user_id, thread_id, limit=limit,
                                            before_sequence=before_sequence)
    return {"kind": "thread", "sequence": sequence, "thread": _summary(row, provider),
            "messages": [message_wire(m) for m in messages], "hasMore": has_more}


MAX_QUERY_INT = 2**63 - 1
MAX_TURN_LIMIT = 10_000


def _int_param(value: str | None, name: str) -> int | None:
    """A non-negative decimal integer query parameter (ASCII digits, fits 64 bits) or ``400``."""
    if value is None:
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 19 or int(value) > MAX_QUERY_INT:
        raise invalid(f"{name} must be a non-negative integer below 2^63.")
    return int(value)


@router.get("/api/threads")
async def get_threads(request: Request) -> dict[str, Any]:
    device = await device_of(request)
    svc = services_of(request)
    provider = provider_of(svc.settings.provider)
    return await svc.store.read(lambda r: shell_snapshot(r, device.user_id, provider))


@router.get("/api/threads/{thread_id}")
async def get_thread(request: Request, thread_id: str) -> dict[str, Any]:
    device = await device_of(request)
    turns = _int_param(request.query_params.get("turnLimit"), "turnLimit")
    before = _int_param(request.query_params.get("beforeSequence"), "beforeSequence")
    limit = None if turns is None else min(max(1, turns), MAX_TURN_LIMIT) * 2
    if text_problem(thread_id) is not None:
        raise not_found()
    svc = services_of(request)
    provider = provider_of(svc.settings.provider)
    snapshot = await svc.store.read(
        lambda r: thread_snapshot(r, device.user_id, thread_id, limit=limit,
                                  before_sequence=before, provider=provider))
    if snapshot is None:
        raise not_found()
    return snapshot
