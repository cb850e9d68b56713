"""Read models as wire JSON: thread summaries and messages (with the legacy upgrade on read).

Invariants: a user message stored without ``context`` is upgraded in memory each time it is read
(``upgrade_legacy_message``) and never rewritten; a stored ``context`` is projected as stored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from composer_app.core.codecs.legacy import upgrade_legacy_message
from composer_app.core.contracts.messages import encode_message_context, message_context_of
from composer_app.core.contracts.wire_model import wire_object
from composer_app.core.errors import ContractError
from composer_app.server.store.base import JsonObject, MessageRow, StoredEvent, ThreadRow

_log = logging.getLogger(__name__)


ProviderOf = Callable[[str], str]
"""The assistant provider name a thread's turns use, by ``choice_key``."""


def choice_key(user_id: str, thread_id: str) -> str:
    """The key of a user's thread among the provider choices (thread ids are per user; a user
    id never holds a ``/``, so the key names one thread)."""
    return f"{user_id}/{thread_id}"


def provider_of(provider: object) -> ProviderOf | None:
    """``name_for`` of a provider router (per-thread choices), None for a single provider."""
    name_for = getattr(provider, "name_for", None)
    return name_for if callable(name_for) else None


def thread_wire(row: ThreadRow, provider: str | None = None) -> JsonObject:
    """``ThreadSummary`` JSON (``provider`` only when the server routes providers per thread;
    ``workspace`` always, ``null`` for a thread without a project folder)."""
    data = wire_object(thread_id=row.thread_id, title=row.title, created_at=row.created_at,
                       updated_at=row.updated_at, last_sequence=row.last_sequence,
                       provider=provider)
    data["workspace"] = row.workspace
    return data


def upgraded(text: str) -> tuple[str, JsonObject | None]:
    """Canonical text and context of a legacy user message (``context`` None when no records)."""
    try:
        new_text, records = upgrade_legacy_message(text)
        ctx = message_context_of(list(records))
    except ContractError:
        _log.warning("legacy upgrade produced an invalid context; message kept as text")
        return text, None
    if ctx is None:
        return text, None
    return new_text, encode_message_context(ctx)


def message_wire(row: MessageRow, *, upgrade: bool = True) -> JsonObject:
    """``Message`` JSON of a stored row (``upgrade=False``: exactly as stored, for the log)."""
    if upgrade and row.role == "user" and row.context is None:
        text, context = upgraded(row.text)
        row = replace(row, text=text, context=context)
    return row.to_wire()


def event_wire(event: StoredEvent) -> JsonObject:
    """The event envelope; a legacy ``thread.message-sent`` message is upgraded in memory."""
    data = event.to_wire()
    if event.event_type == "thread.message-sent":
        message = event.payload.get("message")
        if isinstance(message, dict) and message.get("role") == "user" and (
            message.get("context") is None
        ):
            text, context = upgraded(str(message.get("text", "")))
            if context is not None:
                data["payload"] = {**event.payload,
                                   "message": {**message, "text": text, "context": context}}
    return data
