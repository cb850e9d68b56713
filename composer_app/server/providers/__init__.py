"""Assistant providers behind one interface (``Provider.run_turn``)."""

from __future__ import annotations

from composer_app.server.providers.base import (
    Done,
    Failed,
    Provider,
    ProviderAttachment,
    ProviderEvent,
    Sources,
    TextDelta,
    TurnRequest,
)

__all__ = [
    "Done",
    "Failed",
    "Provider",
    "ProviderAttachment",
    "ProviderEvent",
    "Sources",
    "TextDelta",
    "TurnRequest",
]
