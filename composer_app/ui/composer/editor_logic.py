"""Pure decisions of the composer editor: keys, word moves, chip looks, accessible text.

Invariants: nothing here imports Qt; a chip whose kind is unknown or whose record is missing is
``unresolved`` with a tooltip that says why; an expired terminal excerpt is ``expired`` with the
contract's explanation; a word move never jumps over a chip together with neighbouring text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from composer_app.core.codecs.labels import pull_request_display_state, pull_request_kind_label
from composer_app.core.contracts.records import KNOWN_KINDS
from composer_app.core.document.model import RecordState
from composer_app.core.document.send import expired_tooltip, is_expired

KIND_NAMES = {
    "image": "image",
    "file": "file",
    "terminal": "terminal output",
    "element": "page element",
    "preview-annotation": "preview annotation",
    "review-comment": "review comment",
    "mention": "file mention",
    "skill": "skill",
    "thread": "thread",
}


@dataclass(frozen=True)
class ChipLook:
    """How one chip is drawn and described."""

    state: str
    tone: str
    glyph: str
    tooltip: str
    description: str


def kind_name(kind: str, record: Any | None = None) -> str:
    """The spoken name of a kind (``open pull request`` for a PR summary)."""
    meta = getattr(record, "pull_request", None)
    if meta is not None:
        return pull_request_kind_label(meta).lower()
    return KIND_NAMES.get(kind, f"{kind} context")


def _details(record: Any) -> str:
    kind = record.kind
    if kind == "terminal":
        return f"{record.terminal_label}, lines {record.line_start}–{record.line_end}"
    if kind == "review-comment":
        meta = record.pull_request
        if meta is not None:
            return f"{meta.title}\n{meta.head_branch} → {meta.base_branch}"
        return str(record.file_path)
    if kind in ("image", "file"):
        return str(record.name)
    if kind == "mention":
        return str(record.path)
    if kind == "element":
        return str(record.selector or record.tag_name)
    if kind == "thread":
        return str(record.title)
    if kind == "preview-annotation":
        return str(record.page_title or record.page_url)
    return ""


def chip_look(kind: str, label: str, record: Any | None, state: RecordState | None) -> ChipLook:
    """The look of a chip for ``kind``/``label`` given its record (or ``None``) and state."""
    description = f"{label} ({kind_name(kind, record)})"
    if kind not in KNOWN_KINDS:
        why = f"Context unavailable: this version does not know “{kind}” context."
        return ChipLook("unresolved", "unresolved", "?", f"{label}\n{why}", description)
    glyph = "pull-request" if getattr(record, "pull_request", None) is not None else kind
    if record is None or state is RecordState.UNRESOLVED:
        why = "Context unavailable: it is not part of this draft."
        if record is not None:
            why = "Context unavailable: its attachment could not be brought into this message."
        return ChipLook("unresolved", "unresolved", glyph, f"{label}\n{why}", description)
    if is_expired(record):
        return ChipLook("expired", "expired", glyph, expired_tooltip(label), description)
    tone = kind
    if kind == "review-comment" and record.section_id.startswith("pull-request:"):
        tone = "pr-neutral"
    meta = getattr(record, "pull_request", None)
    if meta is not None:
        tone = "pr-" + pull_request_display_state(meta)
    title = kind_name(kind, record).capitalize()
    details = _details(record)
    tooltip = f"{title}: {label}" + (f"\n{details}" if details and details != label else "")
    if meta is not None:
        tooltip += "\nClick to open the pull request."
    if state is RecordState.PENDING:
        return ChipLook("pending", tone, glyph, tooltip + "\nStill arriving…", description)
    return ChipLook("resolved", tone, glyph, tooltip, description)


def describe_chips(descriptions: Iterable[str]) -> str:
    """Accessible summary: ``2 context items: a.ts L4 (review comment), shot.png (image)``."""
    items = list(descriptions)
    if not items:
        return ""
    noun = "context item" if len(items) == 1 else "context items"
    return f"{len(items)} {noun}: " + ", ".join(items)


def enter_action(*, shift: bool, composing: bool, modified: bool) -> str:
    """``send``, ``newline`` or ``ignore`` for an Enter press."""
    if composing:
        return "ignore"
    if shift:
        return "newline"
    return "ignore" if modified else "send"


def clamp_word_move(position: int, target: int, chips: Iterable[int]) -> int:
    """Where a word move from ``position`` toward ``target`` stops, given chip positions.

    A chip right next to the caret is crossed alone; otherwise the move stops at the first chip
    boundary on the way.
    """
    if target > position:
        ahead = [c for c in chips if position <= c < target]
        if not ahead:
            return target
        first = min(ahead)
        return position + 1 if first == position else first
    behind = [c for c in chips if target <= c < position]
    if not behind:
        return target
    last = max(behind)
    return position - 1 if last == position - 1 else last + 1
