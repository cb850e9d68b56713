"""The server's source normalization pipeline (docs/sources.md §11).

Invariants: the output is a valid wire ``sources`` value (or ``None``) whose entries pass every
rule of docs/sources.md §2-§5 and §8; duplicates (same id, or same identity key) are merged into the
first one's position with the strongest usage (``used`` > ``checked`` > ``listed``); at most 100
entries remain, ``listed`` dropped first, then ``checked``, from the end; in public mode only
``external-link`` entries remain, with no private fields and at most ``open``.
``normalize_sources`` is idempotent.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from composer_app.core.codecs.sources_actions import visible_actions
from composer_app.core.codecs.sources_links import canonical_link
from composer_app.core.contracts.sources import (
    MAX_SOURCE_ENTRIES,
    SourceEntry,
    decode_entries,
    decode_entry,
    encode_entry,
    encode_sources,
)

USAGE_STRENGTH = {"used": 3, "checked": 2, "listed": 1}
_PUBLIC_PRIVATE_FIELDS = ("connectorId", "fileId", "itemId")


def identity_key(entry: SourceEntry) -> Hashable | None:
    """The docs/sources.md §11 merge identity besides ``id``: ``fileId``, canonical URL, or provider
    + itemId."""
    if entry.type == "connector-file":
        return ("connector-file", entry.file_id) if entry.file_id else None
    if entry.type == "external-link":
        link = entry.web_view_link or entry.item_link
        canonical = canonical_link(link) if link else None
        return ("external-link", canonical) if canonical else None
    if entry.provider and entry.item_id:
        return ("item", entry.provider, entry.item_id)
    return None


def merge_pair(first: SourceEntry, later: SourceEntry) -> SourceEntry:
    """``first`` with its missing optional fields filled from ``later`` and the stronger usage."""
    merged = encode_entry(first)
    for key, value in encode_entry(later).items():
        merged.setdefault(key, value)
    if USAGE_STRENGTH[later.source_usage] > USAGE_STRENGTH[first.source_usage]:
        merged["sourceUsage"] = later.source_usage
    # Re-decode: a filled private id can make a display value unsafe, which must then go.
    result = decode_entry(merged)
    return result if result is not None else first


def _merge_once(entries: Sequence[SourceEntry]) -> list[SourceEntry]:
    merged: list[SourceEntry] = []
    by_id: dict[str, int] = {}
    by_key: dict[Hashable, int] = {}
    for entry in entries:
        key = identity_key(entry)
        slot = by_id.get(entry.id)
        if slot is None and key is not None:
            slot = by_key.get(key)
        if slot is None:
            slot = len(merged)
            merged.append(entry)
        else:
            merged[slot] = merge_pair(merged[slot], entry)
        for known in (merged[slot], entry):
            by_id.setdefault(known.id, slot)
            known_key = identity_key(known)
            if known_key is not None:
                by_key.setdefault(known_key, slot)
    return merged


def merge_duplicates(entries: Sequence[SourceEntry]) -> list[SourceEntry]:
    """Merge until no two entries share an id or identity key (a fill can reveal a new match)."""
    current = list(entries)
    while True:
        merged = _merge_once(current)
        if len(merged) == len(current):
            return merged
        current = merged


def cap_entries(
    entries: Sequence[SourceEntry], limit: int = MAX_SOURCE_ENTRIES
) -> list[SourceEntry]:
    """At most ``limit`` entries: drop ``listed`` from the end, then ``checked``, then any."""
    kept = list(entries)
    for usage in ("listed", "checked", "used"):
        position = len(kept) - 1
        while len(kept) > limit and position >= 0:
            if kept[position].source_usage == usage:
                del kept[position]
            position -= 1
    return kept


def _gate(entry: SourceEntry, *, public: bool) -> SourceEntry | None:
    if public and entry.type != "external-link":
        return None
    data: dict[str, Any] = encode_entry(entry)
    data["availableActions"] = visible_actions(entry, public=public)
    if public:
        for key in _PUBLIC_PRIVATE_FIELDS:
            data.pop(key, None)
    return decode_entry(data)


def normalize_entries(raw: object, *, public: bool) -> list[SourceEntry]:
    """Steps 1-3 of docs/sources.md §11 on a raw ``sources`` value."""
    decoded = decode_entries(raw, limit=None, keep_repeats=True)
    gated = [g for e in merge_duplicates(decoded) if (g := _gate(e, public=public)) is not None]
    return cap_entries(merge_duplicates(gated))


def normalize_sources(raw: object, *, public: bool) -> dict[str, Any] | None:
    """The wire ``sources`` value to persist, or ``None`` when no entry remains
    (docs/sources.md §11)."""
    return encode_sources(normalize_entries(raw, public=public))
