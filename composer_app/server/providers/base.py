"""The provider interface: one turn in, an async stream of text deltas and a final outcome out.

Invariants: a provider yields zero or more ``TextDelta`` and ``Sources`` events and then exactly one
``Done`` or ``Failed`` (an exception or an exhausted stream without either counts as a failure); it
never touches the store; cancellation (interrupt) may arrive at any ``await``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from composer_app.server.providers.reference_material import ReferenceMaterial

SOURCES_INSTRUCTION = (
    "Sources for your answer are shown to the user separately. Do not write a Sources or "
    "References section, footnotes, or citation markers in your answer. If you could not "
    "check all of the private evidence the question needs, say so plainly in your answer."
)


@dataclass(frozen=True)
class ProviderAttachment:
    """Attachment bytes on the provider's attachment channel (a server-side path)."""

    attachment_id: str
    name: str
    mime_type: str
    size_bytes: int
    path: Path


@dataclass(frozen=True)
class TurnRequest:
    thread_id: str
    turn_id: str
    message_id: str
    prompt: str
    instructions: str
    attachments: tuple[ProviderAttachment, ...] = ()
    history: tuple[tuple[str, str], ...] = ()
    references: tuple[ReferenceMaterial, ...] = ()
    """Workspace files, skills and threads the message's records point at (resolved by the
    server before the turn)."""
    # Material of the thread's earlier user messages (oldest first): their attached files and
    # their provider prompts (which carry their context records), so later questions can use them.
    earlier_attachments: tuple[ProviderAttachment, ...] = ()
    earlier_prompts: tuple[str, ...] = ()
    provider: str | None = None
    """The provider name chosen for the turn's thread by the server (thread ids are per user, so
    a router's own choice by ``thread_id`` alone is for standalone use); None: the router's."""


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class Sources:
    """Raw provider sources and grounding metadata (normalized by the server)."""

    sources: Any = None
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class Done:
    """The turn finished; ``text`` overrides the concatenated deltas when given."""

    text: str | None = None


@dataclass(frozen=True)
class Failed:
    code: str = "provider_failed"
    message: str = "The assistant could not answer."


ProviderEvent = TextDelta | Sources | Done | Failed


class Provider(Protocol):
    """An assistant backend."""

    def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]: ...


@dataclass
class ScriptedProvider:
    """Plays back a fixed list of events for every turn (tests and demos)."""

    events: list[ProviderEvent] = field(default_factory=list)

    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        for event in self.events:
            yield event
