"""The turn runner: provider output becomes delta events, then one completed/failed event.

Invariants: deltas are coalesced to at most one event per ``delta_interval`` seconds or
``delta_chars`` characters, and output that arrives together is written together (the last buffered
delta and the completion share one transaction); the turn ends with exactly one of
``thread.assistant.completed`` (full final text, normalized sources and grounding metadata),
``thread.turn-failed`` (with a readable reason) or ``thread.turn-interrupted`` (written by the
interrupt command); provider exceptions never escape the runner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from functools import lru_cache, partial
from typing import Any

from composer_app.core.codecs.projection import (
    ATTACHMENT_ONLY_BOOTSTRAP_PROMPT,
    project_for_provider,
)
from composer_app.core.codecs.sources_normalization import normalize_sources
from composer_app.core.contracts.messages import decode_message_context
from composer_app.core.contracts.sources import decode_grounding, encode_grounding
from composer_app.core.errors import ComposerError
from composer_app.core.text import is_blank
from composer_app.server.earlier_material import EARLIER_MESSAGES, EarlierMaterial, gather_material
from composer_app.server.json_text import canonical
from composer_app.server.ledger import TurnPlan, append_delta, fail_turn, finish_turn
from composer_app.server.providers.base import (
    SOURCES_INSTRUCTION,
    Done,
    Failed,
    Provider,
    ProviderAttachment,
    ProviderEvent,
    Sources,
    TextDelta,
    TurnRequest,
)
from composer_app.server.providers.reference_material import ReferenceMaterial
from composer_app.server.snapshots import choice_key, provider_of
from composer_app.server.store.base import AttachmentRow, JsonObject, Reader, ThreadStore

_log = logging.getLogger(__name__)
MIN_WAIT = 0.005  # a due delta still waits this long for more output before it is written


def provider_prompt(plan: TurnPlan) -> str:
    """``project_for_provider`` of the stored message, or the attachment-only prompt."""
    if is_blank(plan.text) and plan.attachments:
        return ATTACHMENT_ONLY_BOOTSTRAP_PROMPT
    records = decode_message_context(plan.context).records if plan.context else []
    return project_for_provider(plan.text, records)


def normalized_output(sources: Any, metadata: Any) -> tuple[JsonObject | None, JsonObject | None]:
    """Sources through the server pipeline, grounding metadata with invalid items dropped.

    The pipeline is pure, so identical raw output (a deterministic provider) is normalized once.
    """
    try:
        key = canonical([sources, metadata])
    except (TypeError, ValueError, RecursionError):
        return _normalize(sources, metadata)
    sources_json, metadata_json = _normalized_json(key)
    return json.loads(sources_json), json.loads(metadata_json)


@lru_cache(maxsize=256)
def _normalized_json(key: str) -> tuple[str, str]:
    sources, metadata = json.loads(key)
    clean = _normalize(sources, metadata)
    return json.dumps(clean[0]), json.dumps(clean[1])


def _normalize(sources: Any, metadata: Any) -> tuple[JsonObject | None, JsonObject | None]:
    clean_sources = normalize_sources(sources, public=False) if sources is not None else None
    clean_metadata = None
    if metadata is not None:
        grounding = encode_grounding(decode_grounding(metadata))
        clean_metadata = grounding or None
    return clean_sources, clean_metadata


async def _next_event(stream: AsyncIterator[ProviderEvent]) -> ProviderEvent:
    """The provider's next event (a coroutine, so a task can start it eagerly)."""
    return await anext(stream)


def _group(plan: TurnPlan) -> tuple[str, str]:
    """The ``(user, thread)`` a turn's writes are about (``ThreadStore.write``'s ``group``)."""
    return (plan.user_id, plan.thread_id)


def earlier_material(reader: Reader, plan: TurnPlan) -> EarlierMaterial:
    """The plan's earlier material read on its own, for a plan whose command did not gather it
    (``TurnPlan.earlier`` is None)."""
    messages, _ = reader.messages_of(plan.user_id, plan.thread_id,
                                     limit=2 * EARLIER_MESSAGES + 2)
    users = [m for m in messages if m.role == "user" and m.message_id != plan.user_message_id]
    return gather_material(users[-EARLIER_MESSAGES:], plan.user_id, reader.attachment)


class TurnRunner:
    """Runs provider turns as tasks on the server loop; interrupt cancels the local task."""

    def __init__(self, store: ThreadStore, provider: Provider, attachments_dir: Any, *,
                 delta_interval: float = 0.05, delta_chars: int = 256,
                 references: Callable[[TurnPlan], Awaitable[tuple[ReferenceMaterial, ...]]]
                 | None = None) -> None:
        self.store = store
        self.references = references
        """Resolves a turn's mention, skill and thread records (None: left to the provider)."""
        self.provider = provider
        self.attachments_dir = attachments_dir
        self.delta_interval = delta_interval
        self.delta_chars = delta_chars
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def start(self, plan: TurnPlan) -> None:
        task = asyncio.get_running_loop().create_task(self._run(plan))
        self._tasks[plan.turn_id] = task
        task.add_done_callback(lambda _: self._tasks.pop(plan.turn_id, None))

    def running_turns(self) -> frozenset[str]:
        """The turn ids this process is streaming now."""
        return frozenset(turn for turn, task in self._tasks.items() if not task.done())

    def interrupt(self, turn_id: str) -> None:
        task = self._tasks.get(turn_id)
        if task is not None:
            task.cancel()

    async def wait_idle(self) -> None:
        """Wait until every running turn has finished (tests, shutdown)."""
        while pending := [task for task in self._tasks.values() if not task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        await self.wait_idle()

    def _attachment(self, row: AttachmentRow) -> ProviderAttachment:
        return ProviderAttachment(row.attachment_id, row.name, row.mime_type, row.size_bytes,
                                  self.attachments_dir / row.storage_path)

    def _request(self, plan: TurnPlan, earlier: EarlierMaterial | None = None) -> TurnRequest:
        attachments = tuple(self._attachment(a) for a in plan.attachments)
        earlier = earlier or EarlierMaterial()
        names = provider_of(self.provider)
        return TurnRequest(plan.thread_id, plan.turn_id, plan.user_message_id,
                           provider_prompt(plan), SOURCES_INSTRUCTION, attachments,
                           earlier_attachments=tuple(self._attachment(a)
                                                     for a in earlier.attachments),
                           earlier_prompts=earlier.prompts,
                           provider=None if names is None else names(
                               choice_key(plan.user_id, plan.thread_id)))

    async def _run(self, plan: TurnPlan) -> None:
        try:
            await self._stream(plan)
        except asyncio.CancelledError:
            raise
        except ComposerError as exc:
            _log.warning("turn %s: %s", plan.turn_id, exc)
            with contextlib.suppress(ComposerError):
                await self.store.write(lambda tx: fail_turn(
                    tx, plan, "unavailable", "The server could not finish this reply."),
                    group=_group(plan))
        except Exception as exc:
            # The exception text may quote a provider's request (headers, keys): log its type
            # only, and give the user a fixed reason.
            _log.warning("turn %s: provider failed with %s", plan.turn_id, type(exc).__name__)
            reason = "The assistant failed unexpectedly. Try again, or choose another provider."
            with contextlib.suppress(ComposerError):
                await self.store.write(lambda tx: fail_turn(tx, plan, "provider_failed", reason),
                                       group=_group(plan))

    async def _stream(self, plan: TurnPlan) -> None:
        text_parts: list[str] = []
        pending: list[str] = []
        last_flush = time.monotonic()
        sources: Any = None
        metadata: Any = None
        earlier = plan.earlier  # gathered by the command's own transaction
        if earlier is None:
            earlier = await self.store.read(lambda r: earlier_material(r, plan))
        request = self._request(plan, earlier)
        if self.references is not None:
            request = replace(request, references=await self.references(plan))
        stream: AsyncIterator[ProviderEvent] = aiter(self.provider.run_turn(request))

        async def flush() -> bool:
            nonlocal last_flush
            chunk = "".join(pending)
            pending.clear()
            last_flush = time.monotonic()
            if not chunk:
                return True
            return await self.store.write(lambda tx: append_delta(tx, plan, chunk),
                                          group=_group(plan))

        next_event: asyncio.Task[ProviderEvent] | None = None
        try:
            while True:
                try:
                    if not pending and next_event is None:  # nothing due: just wait for output
                        event = await anext(stream)
                    else:  # flush when the interval has passed and the provider is idle
                        if next_event is None:  # started at once: often it is ready at once
                            next_event = asyncio.Task(_next_event(stream), eager_start=True,
                                                      loop=asyncio.get_running_loop())
                        if not next_event.done():
                            timeout = None if not pending else max(
                                MIN_WAIT, self.delta_interval - (time.monotonic() - last_flush))
                            done, _ = await asyncio.wait({next_event}, timeout=timeout)
                            if not done:  # the provider is slow: flush what we have, keep waiting
                                if not await flush():
                                    return
                                continue
                        ready, next_event = next_event, None
                        event = ready.result()
                except StopAsyncIteration:
                    event = Failed("provider_failed", "The assistant stopped without an answer.")
                if isinstance(event, TextDelta):
                    text_parts.append(event.text)
                    pending.append(event.text)
                    if sum(map(len, pending)) >= self.delta_chars and not await flush():
                        return
                elif isinstance(event, Sources):
                    sources, metadata = event.sources, event.metadata
                elif isinstance(event, Done):
                    final = event.text if event.text is not None else "".join(text_parts)
                    clean_sources, clean_metadata = normalized_output(sources, metadata)
                    await self.store.write(partial(
                        finish_turn, plan=plan, last_delta="".join(pending), text=final,
                        sources=clean_sources, metadata=clean_metadata), group=_group(plan))
                    return
                else:
                    await self.store.write(partial(fail_turn, plan=plan, code=event.code,
                                                   message=event.message), group=_group(plan))
                    return
        finally:
            if next_event is not None and not next_event.done():
                next_event.cancel()
                with contextlib.suppress(BaseException):
                    await next_event
            closer = getattr(stream, "aclose", None)
            if closer is not None:
                with contextlib.suppress(Exception):
                    await closer()
