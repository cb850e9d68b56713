"""The persisted shape of a thread's draft, and reading every older shape.

Version 2 (current)::

    {"version": 2, "prompt": str, "records": [wire record...], "states": {id: "pending"|...},
     "shelf": [image id...], "stash": [{"prompt": str, "records": [...]}...], "lastSent": str}

A file without ``version`` (or with ``version: 1``) is the old format ``{"prompt": str with U+FFFC
placeholders, "terminalContexts": [...]}`` and is migrated on read. Invariants: decoding never
raises for damaged content below the top level (a bad record is dropped and logged); a file record
no reference points at gets a chip appended to the prompt (files exist only as chips, and dropping
one would lose its upload); any other record no reference points at is kept only if it is a shelf
image; the prompt never holds U+FFFC.
"""

from __future__ import annotations

import logging
from typing import Any

from composer_app.core.codecs.prompt import ensure_inline_context_references
from composer_app.core.contracts.records import decode_record, encode_record
from composer_app.core.document.edits import add_record, reconcile, referenced_ids
from composer_app.core.document.migration import PLACEHOLDER, migrate_legacy_draft
from composer_app.core.document.model import STASH_MAX_ENTRIES, Draft, RecordState, StashEntry
from composer_app.core.errors import ContractError

DRAFT_FILE_VERSION = 2
_log = logging.getLogger(__name__)


def encode_draft(draft: Draft) -> dict[str, Any]:
    """The JSON object written for ``draft`` (tombstones are never persisted)."""
    return {
        "version": DRAFT_FILE_VERSION,
        "prompt": draft.prompt,
        "records": [encode_record(r) for r in draft.records.values()],
        "states": {cid: str(state) for cid, state in draft.states.items() if cid in draft.records},
        "shelf": [cid for cid in draft.shelf if cid in draft.records],
        "stash": [
            {"prompt": e.prompt, "records": [encode_record(r) for r in e.records]}
            for e in draft.stash
        ],
        "lastSent": draft.last_sent,
    }


def _decode_records(raw: Any) -> list[Any]:
    records: list[Any] = []
    for item in raw if isinstance(raw, list) else []:
        try:
            records.append(decode_record(item))
        except ContractError as exc:
            _log.warning("dropping a draft record: %s", exc)
    return records


def _state(value: Any) -> RecordState:
    try:
        return RecordState(value)
    except ValueError:
        return RecordState.UNRESOLVED


def _decode_current(obj: dict[str, Any], draft: Draft) -> None:
    prompt = obj.get("prompt")
    draft.prompt = prompt.replace(PLACEHOLDER, "") if isinstance(prompt, str) else ""
    states = obj.get("states") if isinstance(obj.get("states"), dict) else {}
    assert isinstance(states, dict)
    for record in _decode_records(obj.get("records")):
        add_record(draft, record, _state(states.get(record.context_id, "resolved")))
    shelf = obj.get("shelf")
    if isinstance(shelf, list):
        held = [cid for cid in shelf if isinstance(cid, str) and cid in draft.records]
        draft.shelf = held + [cid for cid in draft.shelf if cid not in held]
    for entry in obj.get("stash") or []:
        if isinstance(entry, dict) and isinstance(entry.get("prompt"), str):
            records = tuple(_decode_records(entry.get("records")))
            draft.stash.append(StashEntry(entry["prompt"], records))
    draft.stash = draft.stash[-STASH_MAX_ENTRIES:]
    last = obj.get("lastSent")
    draft.last_sent = last if isinstance(last, str) else ""


def decode_draft(obj: Any, *, keep_shelf_images: bool = False) -> Draft:
    """A draft from a persisted object of any version; unknown shapes give an empty draft."""
    draft = Draft(keep_shelf_images=keep_shelf_images)
    if not isinstance(obj, dict):
        return draft
    version = obj.get("version")
    if version in (None, 1) or "terminalContexts" in obj:
        prompt = obj.get("prompt")
        contexts = obj.get("terminalContexts")
        text, records = migrate_legacy_draft(
            prompt if isinstance(prompt, str) else "",
            contexts if isinstance(contexts, list) else [],
        )
        draft.prompt = text
        for record in records:
            add_record(draft, record)
    elif version == DRAFT_FILE_VERSION:
        _decode_current(obj, draft)
    else:
        _log.warning("ignoring a draft file of unknown version %r", version)
        return draft
    files = [r for r in draft.records.values() if r.kind == "file"]
    draft.prompt = ensure_inline_context_references(draft.prompt, files)  # files are chips
    reconcile(draft, referenced_ids(draft.prompt))
    draft.tombstones.clear()
    return draft


def is_empty(draft: Draft) -> bool:
    """True when there is nothing worth keeping on disk."""
    return not (draft.prompt or draft.records or draft.stash or draft.last_sent)
