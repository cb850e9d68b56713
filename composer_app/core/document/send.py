"""Building what Send emits from a draft (docs/contract.md §11, Sending).

Invariants: the text is the canonical prompt trimmed of WS, with the links of expired terminal
excerpts removed; the records are the held, usable ones in the contract order (terminal,
review-comment, preview-annotation each followed by its attached screenshot image, element, mention,
skill, thread, unknown kinds, then images and files in attachment order); expired excerpts and
unresolved records never travel; a pending record blocks the send; a message left with nothing is
never sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from composer_app.core.codecs.prompt import remove_inline_context_references
from composer_app.core.document.model import Draft, RecordState
from composer_app.core.limits import PROMPT_MAX_CHARS
from composer_app.core.text import is_blank, trim, utf16_len

_LEADING_KINDS = ("terminal", "review-comment", "preview-annotation")
_MIDDLE_KINDS = ("element", "mention", "skill", "thread")
_ATTACHMENT_KINDS = ("image", "file")


@dataclass(frozen=True)
class SendPayload:
    """A sendable message: canonical text and its records (empty when there are none)."""

    text: str
    records: tuple[Any, ...]


@dataclass(frozen=True)
class SendBlocked:
    """Why nothing is sent; ``title`` is empty when nothing needs saying (an empty composer)."""

    reason: str
    title: str = ""
    detail: str = ""


def is_expired(record: Any) -> bool:
    """True for a terminal excerpt whose text is empty once whitespace is ignored."""
    return bool(record.kind == "terminal" and is_blank(record.text))


def expired_tooltip(label: str) -> str:
    """The explanation an expired terminal chip shows."""
    return (
        f"Terminal context expired. Remove and re-add {label} to include it in your message."
    )


def ordered_records(draft: Draft, usable: dict[str, Any]) -> list[Any]:
    """``usable`` (a subset of the draft's records) in the send order of docs/contract.md §11."""
    by_kind: dict[str, list[Any]] = {}
    for record in usable.values():
        by_kind.setdefault(record.kind, []).append(record)
    out: list[Any] = []
    placed: set[str] = set()
    for kind in _LEADING_KINDS:
        for record in by_kind.get(kind, []):
            out.append(record)
            shot = getattr(record, "screenshot_context_id", None)
            if shot is not None and shot in usable and usable[shot].kind == "image":
                out.append(usable[shot])
                placed.add(shot)
    known = {*_LEADING_KINDS, *_MIDDLE_KINDS, *_ATTACHMENT_KINDS}
    for kind in _MIDDLE_KINDS:
        out.extend(by_kind.get(kind, []))
    out.extend(r for r in usable.values() if r.kind not in known)
    out.extend(
        r
        for r in usable.values()
        if r.kind in _ATTACHMENT_KINDS and r.context_id not in placed
    )
    return out


def build_send_payload(draft: Draft, prompt: str | None = None) -> SendPayload | SendBlocked:
    """The message Send would emit for ``prompt`` (the draft's own prompt by default)."""
    text = draft.prompt if prompt is None else prompt
    if any(draft.state_of(cid) is RecordState.PENDING for cid in draft.records):
        return SendBlocked(
            "pending",
            "Still bringing a pasted attachment into this message.",
            "Send again once its chip resolves.",
        )
    expired = [r for r in draft.records.values() if is_expired(r)]
    for record in expired:
        text = remove_inline_context_references(text, record.context_id).prompt
    usable = {
        cid: r
        for cid, r in draft.records.items()
        if not is_expired(r) and draft.state_of(cid) is RecordState.RESOLVED
    }
    text = trim(text)
    if not text and not usable:
        if expired:
            return SendBlocked(
                "expired",
                "Nothing was sent: its terminal context has expired.",
                "Remove the expired excerpt and add the terminal output again.",
            )
        return SendBlocked("empty")
    if utf16_len(text) > PROMPT_MAX_CHARS:
        return SendBlocked(
            "too-long",
            "This message is too long to send.",
            f"Shorten it to {PROMPT_MAX_CHARS:,} characters or attach the text as a file.",
        )
    return SendPayload(text, tuple(ordered_records(draft, usable)))
