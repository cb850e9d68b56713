"""What the server found behind a message's ``mention``, ``skill`` and ``thread`` records.

Invariants: one ``ReferenceMaterial`` per resolved record, in record order; ``text`` is the
searchable content (a workspace file, a folder listing, a thread's recent messages) or None when
nothing could be read, and then ``notice`` says why in one user-safe sentence and
``readiness_hint`` is the Sources panel's Coverage copy (at most 280 characters);
``instructions`` is a skill's ``SKILL.md`` body (only for skills that exist); the source fields
describe the entry the Sources panel shows for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ReferenceMaterial:
    context_id: str
    kind: str  # mention | skill | thread
    title: str
    source_id: str
    source_type: str  # connector-file | item
    source_label: str
    text: str | None = None
    notice: str | None = None
    readiness_hint: str | None = None
    instructions: str | None = None
    file_id: str | None = None
    metadata: dict[str, Any] | None = None
    tool_name: str | None = None
