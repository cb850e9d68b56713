"""``EchoProvider``: a deterministic assistant for development and tests.

For a prompt ``P`` (the provider input after projection) it answers ``"Echo: " + P``, streamed in
chunks of ``chunk_chars`` characters, then one ``Sources`` event with a single ``external-link``
entry and ``general-knowledge`` grounding, then ``Done``. Same input, same output, every time.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from composer_app.server.providers.base import Done, ProviderEvent, Sources, TextDelta, TurnRequest

ECHO_PREFIX = "Echo: "
ECHO_SOURCE = {
    "id": "echo_1",
    "type": "external-link",
    "sourceLabel": "Web",
    "sourceUsage": "used",
    "availableActions": ["open"],
    "title": "Composer echo provider",
    "provider": "web",
    "webViewLink": "https://example.com/composer/echo",
}


def echo_text(prompt: str) -> str:
    """The full answer of the echo provider to ``prompt``."""
    return ECHO_PREFIX + prompt


class EchoProvider:
    """Echoes the prompt back in chunks; ``pause`` yields to the loop between chunks."""

    def __init__(self, chunk_chars: int = 64, pause: float = 0.0) -> None:
        self.chunk_chars = max(1, chunk_chars)
        self.pause = pause

    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        text = echo_text(request.prompt)
        for start in range(0, len(text), self.chunk_chars):
            yield TextDelta(text[start:start + self.chunk_chars])
            await asyncio.sleep(self.pause)
        yield Sources(
            sources={"version": 1, "entries": [dict(ECHO_SOURCE)]},
            metadata={"groundingMode": "general-knowledge",
                      "groundingContributors": ["general-knowledge"]},
        )
        yield Done(text)
