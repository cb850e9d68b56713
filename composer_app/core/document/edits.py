"""Edits of the record map that follow the prompt (docs/contract.md §11, Removal).

Invariants: a record stays in the sendable draft only while a reference in the prompt points at it,
except images when the draft keeps a shelf; a record that leaves goes to the tombstone cache and
comes back, in its old place and state, when a reference to it reappears (undo); adding a record
that is already held keeps the held one (the first record for an id wins).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from composer_app.core.codecs.prompt import append_inline_context_reference
from composer_app.core.codecs.references import collect_references
from composer_app.core.document.model import Draft, ReconcileResult, RecordState


def referenced_ids(prompt: str) -> list[str]:
    """Context ids referenced by ``prompt``, unique, in first-appearance order."""
    return list(dict.fromkeys(ref.context_id for ref in collect_references(prompt)))


def add_record(draft: Draft, record: Any, state: RecordState = RecordState.RESOLVED) -> bool:
    """Hold ``record`` (at the end of the attachment order); False when its id is already held.

    A tombstoned record with the same id is replaced by the new one.
    """
    context_id = record.context_id
    if context_id in draft.records:
        return False
    draft.tombstones.pop(context_id, None)
    draft.records[context_id] = record
    draft.order[context_id] = draft.next_order
    draft.next_order += 1
    if state is not RecordState.RESOLVED:
        draft.states[context_id] = state
    else:
        draft.states.pop(context_id, None)
    if record.kind == "image" and context_id not in draft.shelf:
        draft.shelf.append(context_id)
    return True


def _keeps_unreferenced(draft: Draft, record: Any) -> bool:
    return draft.keep_shelf_images and record.kind == "image"


def reconcile(draft: Draft, referenced: Iterable[str]) -> ReconcileResult:
    """Drop records nothing references (into the tombstones); bring back referenced tombstones."""
    wanted = set(referenced)
    removed = [
        record
        for cid, record in draft.records.items()
        if cid not in wanted and not _keeps_unreferenced(draft, record)
    ]
    for record in removed:
        cid = record.context_id
        del draft.records[cid]
        draft.tombstones[cid] = record
        if cid in draft.shelf:
            draft.shelf.remove(cid)
    restored = [draft.tombstones.pop(cid) for cid in list(draft.tombstones) if cid in wanted]
    if restored:
        for record in restored:
            draft.records[record.context_id] = record
            if record.kind == "image":
                draft.shelf.append(record.context_id)
        ordered = sorted(draft.records.items(), key=lambda item: draft.order.get(item[0], 0))
        draft.records = dict(ordered)
        draft.shelf.sort(key=lambda cid: draft.order.get(cid, 0))
    return ReconcileResult(tuple(removed), tuple(restored))


def forget_tombstones(draft: Draft) -> list[Any]:
    """Collect the tombstone cache (on send, clear, or close); returns the records forgotten.

    Their uploads may now be released.
    """
    gone = list(draft.tombstones.values())
    for record in gone:
        cid = record.context_id
        draft.states.pop(cid, None)
        draft.order.pop(cid, None)
    draft.tombstones.clear()
    return gone


def append_reference(draft: Draft, record: Any, label: str | None = None) -> None:
    """Hold ``record`` and append a reference to it to the prompt (no mounted editor).

    ``label`` overrides the link's label only (the held record keeps its own).
    """
    add_record(draft, record)
    held = draft.records[record.context_id]
    if label is not None:
        held = held.model_copy(update={"label": label})
    draft.prompt = append_inline_context_reference(draft.prompt, held)
