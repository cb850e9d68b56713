"""Paste import planning: how a clipboard fragment's records join a draft (docs/contract.md §10).

Invariants: planning is pure (fresh ids come only from ``new_id``); the draft is never mutated and
a record the draft already holds (same payload) is mapped to, never imported twice; a new record
never reuses an id the draft or an earlier new record holds; image and file records always get a
fresh local attachment id and are fetched from the source environment (``pending``), or left
``unresolved`` without a fetch when that environment is not connected; a preview annotation's
``screenshotContextId`` follows its image's new id.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from composer_app.core.codecs.ids import producer_id_from_context_id, to_kind_scoped_context_id
from composer_app.core.contracts.clipboard import ClipboardFragment
from composer_app.core.contracts.records import (
    ContextRecord,
    FileRecord,
    ImageRecord,
    PreviewAnnotationRecord,
    decode_record,
    encode_record,
)
from composer_app.core.errors import ComposerError

RecordState = Literal["resolved", "pending", "unresolved"]
"""A draft record's state: bound to its payload, waiting for its bytes, or unavailable."""

_MAX_ID_ATTEMPTS = 64
_IDENTITY_KEYS = ("contextId", "label")


@dataclass(frozen=True)
class BinaryFetch:
    """Bytes to bring from the source environment and attach to the draft as a new upload."""

    new_context_id: str
    source_environment_id: str
    source_attachment_id: str
    name: str
    mime_type: str
    size_bytes: int


@dataclass(frozen=True)
class ImportPlan:
    """The outcome of planning: rewrite the pasted text through ``id_map``, then add the records.

    ``id_map`` maps every fragment context id to the draft id it now stands for;
    ``records_to_add`` are new draft records in fragment order; every binary record is either in
    ``binary_fetches`` (pending) or in ``unresolved_ids``; every other new record is resolved.
    """

    id_map: Mapping[str, str]
    records_to_add: tuple[ContextRecord, ...] = ()
    binary_fetches: tuple[BinaryFetch, ...] = ()
    unresolved_ids: tuple[str, ...] = ()
    _pending: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pending = frozenset(fetch.new_context_id for fetch in self.binary_fetches)
        object.__setattr__(self, "_pending", pending)

    @property
    def pending_ids(self) -> tuple[str, ...]:
        """Context ids of the added records whose bytes are still to be fetched."""
        return tuple(fetch.new_context_id for fetch in self.binary_fetches)

    def state_of(self, context_id: str) -> RecordState:
        """The initial state of an added record (``resolved`` for every id that is not binary)."""
        if context_id in self._pending:
            return "pending"
        if context_id in self.unresolved_ids:
            return "unresolved"
        return "resolved"


def import_lookup_ids(record: ContextRecord) -> list[str]:
    """Ids under which a draft may already hold ``record``: its re-scoped id first, then its own.

    Re-scoping (``kind_`` + producer id) lets an imported legacy id match a draft's canonical id.
    """
    rescoped = to_kind_scoped_context_id(
        record.kind, producer_id_from_context_id(record.kind, record.context_id)
    )
    return [rescoped] if rescoped == record.context_id else [rescoped, record.context_id]


def _json_equal(a: Any, b: Any) -> bool:
    """Deep JSON equality as a JavaScript peer sees it: ``true`` is not ``1``; ``1.0`` is ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def _payload(record: ContextRecord) -> dict[str, Any]:
    wire = encode_record(record)
    for key in _IDENTITY_KEYS:
        wire.pop(key, None)
    return wire


def is_same_payload(a: ContextRecord, b: ContextRecord) -> bool:
    """Same kind and equal wire dicts once ``label`` and ``contextId`` are removed (deep)."""
    return a.kind == b.kind and _json_equal(_payload(a), _payload(b))


def _held_id(record: ContextRecord, draft: Mapping[str, ContextRecord]) -> str | None:
    for lookup_id in import_lookup_ids(record):
        held = draft.get(lookup_id)
        if held is not None and is_same_payload(held, record):
            return lookup_id
    for context_id, held in draft.items():
        if is_same_payload(held, record):
            return context_id
    return None


def _fresh_id(kind: str, taken: Collection[str], new_id: Callable[[], str]) -> tuple[str, str]:
    """A fresh ``(producer_id, context_id)`` pair whose scoped context id is not ``taken``."""
    for _ in range(_MAX_ID_ATTEMPTS):
        producer_id = new_id()
        candidate = to_kind_scoped_context_id(kind, producer_id)
        if candidate not in taken:
            return producer_id, candidate
    raise ComposerError("new_id kept returning ids the draft already holds")


def _with_fields(record: ContextRecord, **wire_fields: Any) -> ContextRecord:
    record_copy: ContextRecord = decode_record({**encode_record(record), **wire_fields})
    return record_copy


def _as_map(draft_records: Mapping[str, ContextRecord] | Iterable[ContextRecord]) -> dict[str, Any]:
    if isinstance(draft_records, Mapping):
        return dict(draft_records)
    draft: dict[str, Any] = {}
    for record in draft_records:
        draft.setdefault(record.context_id, record)
    return draft


def plan_fragment_import(
    fragment: ClipboardFragment,
    draft_records: Mapping[str, ContextRecord] | Iterable[ContextRecord],
    *,
    connected_environment_ids: Collection[str],
    new_id: Callable[[], str],
) -> ImportPlan:
    """Plan how ``fragment`` joins a draft whose records are ``draft_records``
    (docs/contract.md §10).

    ``draft_records`` is the draft's record map (``context_id -> record``) or its records in order.
    For each fragment record, in order: map it to a draft record that already holds its payload;
    otherwise give an image or file a fresh local attachment id ``L`` (context id
    ``kind_L``) and plan its fetch (``unresolved`` and no fetch when the source environment is not
    connected); otherwise add it under its own id, or under ``kind_<new_id()>`` when the draft
    already uses that id. Finally rewrite ``screenshotContextId`` through the id map.
    """
    draft = _as_map(draft_records)
    taken: set[str] = set(draft)
    source = fragment.source.environment_id
    connected = source in connected_environment_ids
    id_map: dict[str, str] = {}
    added: list[ContextRecord] = []
    fetches: list[BinaryFetch] = []
    unresolved: list[str] = []
    for record in fragment.records:
        held = _held_id(record, draft)
        if held is not None:
            id_map[record.context_id] = held
            continue
        if isinstance(record, (ImageRecord, FileRecord)):
            local_id, context_id = _fresh_id(record.kind, taken, new_id)
            new_record = _with_fields(record, contextId=context_id, attachmentId=local_id)
            if connected:
                fetches.append(
                    BinaryFetch(
                        new_context_id=new_record.context_id,
                        source_environment_id=source,
                        source_attachment_id=record.attachment_id,
                        name=record.name,
                        mime_type=record.mime_type,
                        size_bytes=record.size_bytes,
                    )
                )
            else:
                unresolved.append(new_record.context_id)
        elif record.context_id in taken:
            new_record = _with_fields(record, contextId=_fresh_id(record.kind, taken, new_id)[1])
        else:
            new_record = record
        taken.add(new_record.context_id)
        id_map[record.context_id] = new_record.context_id
        added.append(new_record)
    return ImportPlan(
        id_map=id_map,
        records_to_add=tuple(_rewrite_screenshot(record, id_map) for record in added),
        binary_fetches=tuple(fetches),
        unresolved_ids=tuple(unresolved),
    )


def _rewrite_screenshot(record: ContextRecord, id_map: Mapping[str, str]) -> ContextRecord:
    if not isinstance(record, PreviewAnnotationRecord) or record.screenshot_context_id is None:
        return record
    target = id_map.get(record.screenshot_context_id, record.screenshot_context_id)
    if target == record.screenshot_context_id:
        return record
    return _with_fields(record, screenshotContextId=target)
