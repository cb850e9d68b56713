"""The draft of one thread: canonical prompt, ordered record map, record states, shelf, stash.

Invariants: ``records`` iterates in attachment order (the order records entered the draft; a record
brought back from the tombstone cache regains its old place); every id in ``states``, ``shelf`` and
``order`` names a held record; ``shelf`` lists image ids only; records that leave the sendable draft
wait in ``tombstones`` so an undo can bring their chips back resolved; a stash holds at most
``STASH_MAX_ENTRIES`` entries, oldest first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

STASH_MAX_ENTRIES = 20
"""How many stashed prompts one thread keeps; stashing one more evicts the oldest."""


class RecordState(StrEnum):
    """Whether a record's payload is usable: held, still arriving, or not available."""

    RESOLVED = "resolved"
    PENDING = "pending"
    UNRESOLVED = "unresolved"


@dataclass(frozen=True)
class StashEntry:
    """One stashed prompt with the records it carries (never binaries)."""

    prompt: str
    records: tuple[Any, ...] = ()


@dataclass(frozen=True)
class ReconcileResult:
    """What one reconcile changed: records that left the draft and records that came back."""

    removed: tuple[Any, ...] = ()
    restored: tuple[Any, ...] = ()

    @property
    def changed(self) -> bool:
        """True when any record left or came back."""
        return bool(self.removed or self.restored)


@dataclass
class Draft:
    """A thread's draft. ``keep_shelf_images`` keeps unreferenced images (the shelf owns them)."""

    prompt: str = ""
    records: dict[str, Any] = field(default_factory=dict)
    states: dict[str, RecordState] = field(default_factory=dict)
    shelf: list[str] = field(default_factory=list)
    keep_shelf_images: bool = False
    stash: list[StashEntry] = field(default_factory=list)
    last_sent: str = ""
    tombstones: dict[str, Any] = field(default_factory=dict)
    order: dict[str, int] = field(default_factory=dict)
    next_order: int = 0

    def state_of(self, context_id: str) -> RecordState:
        """The state of a held record (``RESOLVED`` unless marked otherwise)."""
        return self.states.get(context_id, RecordState.RESOLVED)

    def record(self, context_id: str) -> Any | None:
        """The held record with this id, else ``None`` (tombstones are not held)."""
        return self.records.get(context_id)
