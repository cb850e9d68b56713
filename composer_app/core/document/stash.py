"""The prompt stash of a thread (Ctrl+S): park a prompt with its records, bring it back later.

Invariants: a stash holds at most ``STASH_MAX_ENTRIES`` entries (stashing one more evicts the
oldest, which the caller reports and whose files it may release); an entry carries the prompt text
and the records it references except images (terminal excerpts, review comments, preview
annotations, mentions, skills, elements, threads, unknown kinds, and files, which exist only as
chips: a file keeps its attachment id, so its upload stays bound while the prompt is stashed);
images stay on the draft's shelf and never enter a stash; stashing moves the carried records out of
the draft; restoring appends the prompt after a blank line, puts each file back under its own ids
(a fresh context id when the draft uses that id for another file) and imports the other records
through the paste importer, so a payload the draft already holds is reused, never duplicated, and
ids are remapped in the restored text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from composer_app.core.codecs.imports import plan_fragment_import
from composer_app.core.codecs.references import format_reference, replace_references
from composer_app.core.contracts.clipboard import ClipboardFragment, FragmentSource
from composer_app.core.document.edits import add_record, referenced_ids
from composer_app.core.document.model import STASH_MAX_ENTRIES, Draft, RecordState, StashEntry
from composer_app.core.text import is_blank, trim_end

_SHELF_KINDS = frozenset({"image"})


@dataclass(frozen=True)
class StashOutcome:
    """The entry just stashed and the oldest entry it evicted, if any."""

    entry: StashEntry
    evicted: StashEntry | None = None


def stash_prompt(draft: Draft, prompt: str) -> StashOutcome | None:
    """Move ``prompt`` and its records but images into the stash; ``None`` for a blank prompt.

    The draft's prompt becomes empty; images stay on the shelf until the caller reconciles.
    """
    if is_blank(prompt):
        return None
    ids = referenced_ids(prompt)
    carried = [
        draft.records[cid]
        for cid in ids
        if cid in draft.records and draft.records[cid].kind not in _SHELF_KINDS
    ]
    for record in carried:
        cid = record.context_id
        del draft.records[cid]
        draft.states.pop(cid, None)
        draft.order.pop(cid, None)
    entry = StashEntry(prompt, tuple(carried))
    draft.stash.append(entry)
    draft.prompt = ""
    evicted = draft.stash.pop(0) if len(draft.stash) > STASH_MAX_ENTRIES else None
    return StashOutcome(entry, evicted)


def stash_preview(entry: StashEntry, width: int = 60) -> str:
    """A one-line summary of an entry (its text with links shown as their labels)."""
    text = replace_references(entry.prompt, lambda ref: ref.label)
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def restore_text(
    draft: Draft,
    entry: StashEntry,
    *,
    environment_id: str,
    new_id: Callable[[], str],
) -> str:
    """Import ``entry``'s records into ``draft``; its prompt rewritten to the draft's ids."""
    files = [r for r in entry.records if r.kind == "file"]
    fragment = ClipboardFragment(
        source=FragmentSource(environment_id=environment_id),
        records=[r for r in entry.records if r.kind != "file"],
    )
    plan = plan_fragment_import(
        fragment, draft.records, connected_environment_ids={environment_id}, new_id=new_id
    )
    for record in plan.records_to_add:
        add_record(draft, record, RecordState(plan.state_of(record.context_id)))
    id_map = dict(plan.id_map)
    for record in files:
        held = draft.records.get(record.context_id)
        if held is not None and getattr(held, "attachment_id", None) == record.attachment_id:
            continue
        if held is not None:
            context_id = f"file_{new_id()}"
            id_map[record.context_id] = context_id
            record = record.model_copy(update={"context_id": context_id})
        add_record(draft, record)

    def remap(ref: Any) -> str:
        context_id = id_map.get(ref.context_id, ref.context_id)
        return format_reference(ref.kind, context_id, ref.label)

    return replace_references(entry.prompt, remap)


def joined_after_blank_line(current: str, restored: str) -> str:
    """``restored`` appended to ``current`` after a blank line (just ``restored`` if blank)."""
    if is_blank(current):
        return restored
    return trim_end(current) + "\n\n" + restored


def restore_stash(
    draft: Draft,
    index: int = -1,
    *,
    environment_id: str,
    new_id: Callable[[], str],
) -> str | None:
    """Pop entry ``index`` (the newest by default) back into the draft; the new prompt or None."""
    if not draft.stash:
        return None
    entry = draft.stash.pop(index)
    text = restore_text(draft, entry, environment_id=environment_id, new_id=new_id)
    draft.prompt = joined_after_blank_line(draft.prompt, text)
    return draft.prompt
