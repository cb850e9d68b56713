"""``OpenAIProvider``: any OpenAI-compatible chat completions endpoint, streamed over SSE.

Invariants: the API key is read per turn (keyring, then environment), sent only as the
``Authorization`` header of requests to the configured base URL, and never logged, stored or put
into an event (every failure text has it redacted); the system message always carries the
no-Sources-section instruction (docs/sources.md §9); a turn ends with exactly one ``Done`` (after
``data: [DONE]`` or a ``finish_reason``) or one ``Failed`` with a readable reason: HTTP errors,
connection failures, a stream silent for ``idle_timeout`` seconds, a turn longer than
``total_timeout`` seconds and a stream cut before its end all fail; URL citations and a
numbered ``citations`` list (its ``[n]`` markers removed from the final text by
``numbered_citations``) become ``external-link`` sources (``web_citations``); attachments
travel as content parts, and a file that was cut or could not be sent gets a ``checked`` source
with a Coverage hint (``chat_attachments``); ``web_search`` asks endpoints that support it to
search the web (``web_search_options``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from composer_app.server.providers.base import (
    SOURCES_INSTRUCTION,
    Done,
    Failed,
    ProviderEvent,
    Sources,
    TextDelta,
    TurnRequest,
)
from composer_app.server.providers.chat_attachments import ChatAttachments, chat_attachments
from composer_app.server.providers.numbered_citations import (
    citation_urls,
    resolve_numbered,
    titles_by_url,
)
from composer_app.server.providers.reference_prompt import (
    reference_texts,
    with_reference_entries,
    with_skill_instructions,
)
from composer_app.server.providers.sse import SseDecoder
from composer_app.server.providers.web_citations import web_sources

logger = logging.getLogger(__name__)

ERROR_BODY_MAX_BYTES = 4_096
REDACTED = "[redacted]"


@dataclass(frozen=True)
class OpenAISettings:
    """Where and how to reach the endpoint (no secret lives here)."""

    base_url: str
    model: str
    web_search: bool = False
    connect_timeout: float = 10.0
    idle_timeout: float = 60.0
    total_timeout: float = 600.0


class _TurnFailed(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _redact(text: str, key: str | None) -> str:
    return text.replace(key, REDACTED) if key else text


def _error_message(status: int, body: bytes) -> str:
    detail = ""
    try:
        data = json.loads(body)
        error = data.get("error") if isinstance(data, dict) else None
        message = error.get("message") if isinstance(error, dict) else error
        detail = message if isinstance(message, str) else ""
    except ValueError:
        detail = body.decode("utf-8", errors="replace").strip()
    detail = " ".join(detail.split())[:300]
    return f"The assistant endpoint answered HTTP {status}" + (f": {detail}" if detail else ".")


def build_messages(request: TurnRequest,
                   attachments: ChatAttachments | None = None) -> list[dict[str, Any]]:
    """The chat messages of one turn: instructions (with docs/sources.md §9), history, then the user
    input."""
    instructions = request.instructions.strip()
    if SOURCES_INSTRUCTION not in instructions:
        instructions = f"{instructions}\n\n{SOURCES_INSTRUCTION}".strip()
    instructions = with_skill_instructions(instructions, request.references)
    messages: list[dict[str, Any]] = [{"role": "system", "content": instructions}]
    messages += [{"role": role, "content": text} for role, text in request.history]
    parts = [{"type": "text", "text": text} for text in reference_texts(request.references)[0]]
    parts += (attachments or chat_attachments(request.attachments)).parts
    content: Any = request.prompt
    if parts:
        content = [{"type": "text", "text": request.prompt}, *parts]
    messages.append({"role": "user", "content": content})
    return messages


class OpenAIProvider:
    """Streams answers from ``settings.base_url``; ``api_key`` is called once per turn."""

    def __init__(
        self,
        settings: OpenAISettings,
        api_key: Callable[[], str | None],
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.settings = settings
        self._api_key = api_key
        self._transport = transport

    def __repr__(self) -> str:
        return f"OpenAIProvider(base_url={self.settings.base_url!r}, model={self.settings.model!r})"

    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        key = self._api_key()
        text: list[str] = []
        annotations: list[object] = []
        extras: dict[str, object] = {}
        attached = chat_attachments(request.attachments)
        try:
            async for delta in self._stream(request, key, annotations, attached, extras):
                text.append(delta)
                yield TextDelta(delta)
        except _TurnFailed as failure:
            yield Failed(failure.code, _redact(failure.message, key))
            return
        final, numbered = resolve_numbered("".join(text), citation_urls(extras.get("citations")),
                                           titles_by_url(extras.get("search_results")))
        sources, metadata = web_sources(final, [*annotations, *numbered])
        if attached.sources:
            entries = [*(sources or {}).get("entries", []), *attached.sources]
            sources = {"version": 1, "entries": entries}
        sources = with_reference_entries(sources, request.references)
        yield Sources(sources=sources, metadata=metadata)
        yield Done(final)

    async def _stream(
        self, request: TurnRequest, key: str | None, annotations: list[object],
        attached: ChatAttachments, extras: dict[str, object],
    ) -> AsyncIterator[str]:
        settings = self.settings
        url = settings.base_url.rstrip("/") + "/chat/completions"
        headers = {"Accept": "text/event-stream"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        body: dict[str, Any] = {"model": settings.model,
                                "messages": build_messages(request, attached), "stream": True}
        if settings.web_search:
            body["web_search_options"] = {}
        timeout = httpx.Timeout(settings.idle_timeout, connect=settings.connect_timeout)
        deadline = time.monotonic() + settings.total_timeout
        try:
            async with (
                httpx.AsyncClient(timeout=timeout, transport=self._transport) as client,
                client.stream("POST", url, json=body, headers=headers) as response,
            ):
                if response.status_code >= 400:
                    raw = await _read_limited(response)
                    code = "rate_limited" if response.status_code == 429 else "provider_failed"
                    raise _TurnFailed(code, _error_message(response.status_code, raw))
                async for delta in self._deltas(response, annotations, extras, deadline):
                    yield delta
        except httpx.TimeoutException as exc:
            raise _TurnFailed(
                "provider_timeout",
                f"The assistant endpoint did not answer within {settings.idle_timeout:g} seconds.",
            ) from exc
        except httpx.HTTPError as exc:
            logger.info("assistant endpoint error: %s", type(exc).__name__)
            raise _TurnFailed(
                "provider_unavailable",
                "The connection to the assistant endpoint failed before the answer was complete "
                f"({type(exc).__name__}).",
            ) from exc

    async def _deltas(
        self, response: httpx.Response, annotations: list[object], extras: dict[str, object],
        deadline: float,
    ) -> AsyncIterator[str]:
        lines = response.aiter_lines()
        try:
            async for delta in self._read(lines, annotations, extras, deadline):
                yield delta
        finally:
            close = getattr(lines, "aclose", None)
            if close is not None:
                await close()

    async def _read(
        self, lines: AsyncIterator[str], annotations: list[object], extras: dict[str, object],
        deadline: float,
    ) -> AsyncIterator[str]:
        decoder = SseDecoder()
        finished = False
        while True:
            remaining = deadline - time.monotonic()
            wait = min(self.settings.idle_timeout, remaining)
            try:
                line = await asyncio.wait_for(anext(lines), timeout=max(wait, 0.0))
            except StopAsyncIteration:
                line = None
            except TimeoutError as exc:
                limit = "total" if remaining <= self.settings.idle_timeout else "idle"
                seconds = self.settings.total_timeout if limit == "total" else wait
                raise _TurnFailed(
                    "provider_timeout",
                    f"The assistant stopped answering: no data for {seconds:g} seconds."
                    if limit == "idle"
                    else f"The assistant took longer than {seconds:g} seconds to answer.",
                ) from exc
            for data in decoder.feed(line) if line is not None else decoder.close():
                if data == "[DONE]":
                    return
                for delta, done in _chunk_deltas(data, annotations, extras):
                    finished = finished or done
                    if delta:
                        yield delta
            if line is None:
                if finished:
                    return
                raise _TurnFailed(
                    "provider_unavailable",
                    "The assistant endpoint closed the connection before the answer was complete.",
                )


def _chunk_deltas(data: str, annotations: list[object],
                  extras: dict[str, object] | None = None) -> list[tuple[str, bool]]:
    try:
        chunk = json.loads(data)
    except ValueError as exc:
        raise _TurnFailed("provider_failed", "The assistant endpoint sent malformed data.") from exc
    if not isinstance(chunk, dict):
        return []
    if "error" in chunk:
        error = chunk["error"]
        message = error.get("message") if isinstance(error, dict) else error
        detail = " ".join(str(message).split())[:300] if message else ""
        raise _TurnFailed(
            "provider_failed",
            "The assistant endpoint reported an error" + (f": {detail}" if detail else "."),
        )
    for name in ("citations", "search_results"):  # numbered citations (the latest list wins)
        if extras is not None and isinstance(chunk.get(name), list):
            extras[name] = chunk[name]
    out: list[tuple[str, bool]] = []
    choices = chunk.get("choices")
    for choice in choices if isinstance(choices, list) else []:
        if not isinstance(choice, dict) or choice.get("index", 0) != 0:
            continue
        delta = choice.get("delta") or choice.get("message") or {}
        content = delta.get("content") if isinstance(delta, dict) else None
        found = delta.get("annotations") if isinstance(delta, dict) else None
        if isinstance(found, list):
            annotations.extend(found)
        out.append((content if isinstance(content, str) else "", bool(choice.get("finish_reason"))))
    return out


async def _read_limited(response: httpx.Response) -> bytes:
    data = b""
    async for chunk in response.aiter_bytes():
        data += chunk
        if len(data) >= ERROR_BODY_MAX_BYTES:
            break
    return data[:ERROR_BODY_MAX_BYTES]
