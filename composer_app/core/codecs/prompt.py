"""Prompt editing over canonical prompt Markdown (docs/contract.md §5).

A record's link is ``format_reference(record.kind, record.context_id, record.label)``. Cursors are
Python ``str`` indices. Records are duck-typed: anything with ``kind``, ``context_id`` and
``label``.

Invariants: every helper is pure; text outside the references it inserts or removes is kept as is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple, Protocol

from composer_app.core.codecs.references import (
    collect_references,
    format_reference,
    replace_references,
)
from composer_app.core.text import WS

__all__ = [
    "PromptEdit",
    "ReferenceableRecord",
    "append_inline_context_reference",
    "collect_inline_context_ids",
    "ensure_inline_context_references",
    "insert_inline_context_reference",
    "remove_inline_context_references",
    "strip_inline_context_references",
]


class ReferenceableRecord(Protocol):
    """The record attributes a link is made of."""

    @property
    def kind(self) -> str: ...
    @property
    def context_id(self) -> str: ...
    @property
    def label(self) -> str: ...


class PromptEdit(NamedTuple):
    """An edited prompt and the cursor (a Python ``str`` index) after the edit."""

    prompt: str
    cursor: int


def _link(record: ReferenceableRecord) -> str:
    return format_reference(record.kind, record.context_id, record.label)


def collect_inline_context_ids(text: str) -> list[str]:
    """Context ids of all references, unique, in first-appearance order."""
    return list(dict.fromkeys(ref.context_id for ref in collect_references(text)))


def strip_inline_context_references(text: str) -> str:
    """``text`` without the source text of any reference; nothing else changes."""
    return replace_references(text, lambda _ref: "")


def insert_inline_context_reference(
    prompt: str, cursor: int, record: ReferenceableRecord
) -> PromptEdit:
    """Insert the record's link at ``cursor``, padded with a space on each side where needed."""
    cursor = min(max(cursor, 0), len(prompt))
    before, after = prompt[:cursor], prompt[cursor:]
    lead = " " if before and before[-1] not in WS else ""
    trail = " " if not after or after[0] not in WS else ""
    inserted = lead + _link(record) + trail
    return PromptEdit(before + inserted + after, cursor + len(inserted))


def append_inline_context_reference(prompt: str, record: ReferenceableRecord) -> str:
    """``prompt`` + a separating space if needed + the link + ``" "``."""
    lead = " " if prompt and prompt[-1] not in WS else ""
    return prompt + lead + _link(record) + " "


def remove_inline_context_references(prompt: str, context_id: str) -> PromptEdit:
    """Remove every reference to ``context_id`` with one following U+0020 if present; the cursor
    is where the first removed occurrence started (``len(prompt)`` when nothing matched)."""
    matches = [ref for ref in collect_references(prompt) if ref.context_id == context_id]
    if not matches:
        return PromptEdit(prompt, len(prompt))
    parts: list[str] = []
    last = 0
    for ref in matches:
        parts.append(prompt[last : ref.start])
        last = ref.end + 1 if prompt.startswith(" ", ref.end) else ref.end
    parts.append(prompt[last:])
    return PromptEdit("".join(parts), matches[0].start)


def ensure_inline_context_references(prompt: str, records: Iterable[ReferenceableRecord]) -> str:
    """Append a link for each record (in order) whose id is not referenced yet."""
    present = set(collect_inline_context_ids(prompt))
    for record in records:
        if record.context_id not in present:
            prompt = append_inline_context_reference(prompt, record)
            present.add(record.context_id)
    return prompt
