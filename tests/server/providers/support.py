"""Shared helpers for provider tests: run a turn to completion and inspect its outcome; rank a
document's sentences against a question."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from composer_app.core.codecs.sources_blocks import enumerate_blocks
from composer_app.core.codecs.sources_normalization import normalize_sources
from composer_app.core.contracts.sources import decode_grounding, decode_sources
from composer_app.server.providers.answer_ranking import (
    Scored,
    Sentence,
    idf,
    passage_sentences,
    score,
)
from composer_app.server.providers.base import (
    Done,
    Failed,
    Provider,
    ProviderEvent,
    Sources,
    TextDelta,
    TurnRequest,
)
from composer_app.server.providers.question_parts import Part, read_question


@dataclass
class Outcome:
    events: list[ProviderEvent]

    @property
    def text(self) -> str:
        done = [e for e in self.events if isinstance(e, Done)]
        assert len(done) == 1, self.events
        assert done[0].text == "".join(e.text for e in self.events if isinstance(e, TextDelta))
        return done[0].text or ""

    @property
    def failure(self) -> Failed:
        failed = [e for e in self.events if isinstance(e, Failed)]
        assert len(failed) == 1 and self.events[-1] is failed[0], self.events
        return failed[0]

    @property
    def sources(self) -> Sources:
        found = [e for e in self.events if isinstance(e, Sources)]
        assert len(found) == 1
        return found[0]

    def entries(self) -> list[Any]:
        """Entries as the server would persist them (normalized, then decoded)."""
        raw = self.sources.sources
        normalized = normalize_sources(raw, public=False)
        entries = decode_sources(normalized)
        assert len(entries) == len((raw or {}).get("entries", [])), "provider emitted bad entries"
        return entries

    def by_usage(self, usage: str) -> list[Any]:
        return [e for e in self.entries() if e.source_usage == usage]

    def grounding(self) -> Any:
        return decode_grounding(self.sources.metadata, len(enumerate_blocks(self.text)))


def run_turn(provider: Provider, request: TurnRequest) -> Outcome:
    async def collect() -> list[ProviderEvent]:
        return [event async for event in provider.run_turn(request)]

    return Outcome(asyncio.run(collect()))


def request(prompt: str, **extra: Any) -> TurnRequest:
    return TurnRequest(thread_id="thr_1", turn_id="turn_1", message_id="msg_1", prompt=prompt,
                       instructions="", **extra)


def run_turn_in_tasks(provider: Provider, request: TurnRequest) -> Outcome:
    """Like ``run_turn``, but each event is awaited in a task of its own, as the server does."""

    async def collect() -> list[ProviderEvent]:
        stream = aiter(provider.run_turn(request))
        events: list[ProviderEvent] = []
        while True:
            try:
                events.append(await asyncio.ensure_future(anext(stream)))
            except StopAsyncIteration:
                return events

    return Outcome(asyncio.run(collect()))


def ranked_sentences(question: str, title: str, text: str
                     ) -> tuple[Part, list[Sentence], list[Scored]]:
    """The first part of ``question`` (every word equally rare), the sentences of ``text`` (a
    passage of the document ``title``) and their scores against it, best first."""
    part = read_question(question, lambda _: idf(40, 3))[0]
    units = passage_sentences("doc", 0, 0, title, text)
    return part, units, sorted((score(u, part) for u in units), key=lambda s: -s.score)
