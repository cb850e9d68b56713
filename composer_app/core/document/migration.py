"""Drafts of the old format: U+FFFC placeholders plus a terminal-context array.

Before references existed a draft kept terminal excerpts in an array and marked their places in
the prompt with U+FFFC. Invariants of the migration: the n-th placeholder binds to the n-th valid
terminal context; a placeholder with no context left is deleted; every context the prompt never
mentions is prepended as a link (in array order); the result holds no U+FFFC; ids are
``to_kind_scoped_context_id("terminal", id)``, so migrating twice gives the same draft.
"""

from __future__ import annotations

import logging
from typing import Any

from composer_app.core.codecs.ids import to_kind_scoped_context_id
from composer_app.core.codecs.references import format_reference
from composer_app.core.contracts.records import decode_record
from composer_app.core.errors import ContractError
from composer_app.core.limits import TERMINAL_TEXT_MAX_CHARS
from composer_app.core.text import cut_utf16

_log = logging.getLogger(__name__)
PLACEHOLDER = "\ufffc"


def terminal_label(terminal_label: str, line_start: int, line_end: int) -> str:
    """``Terminal 1 line 4`` or ``Terminal 1 lines 4-9``: the label of a terminal excerpt."""
    if line_end <= line_start:
        return f"{terminal_label} line {line_start}"
    return f"{terminal_label} lines {line_start}-{line_end}"


def _label(name: str, start: Any, end: Any) -> str:
    if isinstance(start, int) and isinstance(end, int):
        return terminal_label(name, start, end)
    return name


def terminal_record_from_legacy(entry: Any, index: int) -> Any | None:
    """A terminal record from one old-format entry (or a wire record); ``None`` if unusable."""
    if not isinstance(entry, dict):
        return None
    if entry.get("kind") == "terminal" and "contextId" in entry:
        wire = entry
    else:
        raw_id = entry.get("id")
        producer = raw_id if isinstance(raw_id, str) and raw_id else f"legacy-{index}"
        name = entry.get("terminalLabel") or entry.get("terminalId") or "Terminal"
        start, end = entry.get("lineStart", 0), entry.get("lineEnd", entry.get("lineStart", 0))
        text = entry.get("text", "")
        wire = {
            "version": 1,
            "contextId": to_kind_scoped_context_id("terminal", producer),
            "kind": "terminal",
            "label": _label(str(name), start, end),
            "terminalId": entry.get("terminalId") or str(name),
            "terminalLabel": name,
            "lineStart": start,
            "lineEnd": end,
            "text": cut_utf16(text, TERMINAL_TEXT_MAX_CHARS) if isinstance(text, str) else text,
        }
    try:
        return decode_record(wire)
    except ContractError as exc:
        _log.warning("dropping an old-format terminal context: %s", exc)
        return None


def migrate_legacy_draft(prompt: str, terminal_contexts: list[Any]) -> tuple[str, list[Any]]:
    """``(canonical prompt, terminal records)`` for an old-format draft."""
    records: list[Any] = []
    seen: set[str] = set()
    for index, entry in enumerate(terminal_contexts):
        record = terminal_record_from_legacy(entry, index)
        if record is not None and record.context_id not in seen:
            seen.add(record.context_id)
            records.append(record)
    parts = prompt.split(PLACEHOLDER)
    out = [parts[0]]
    for n, tail in enumerate(parts[1:]):
        if n < len(records):
            r = records[n]
            out.append(format_reference(r.kind, r.context_id, r.label))
        out.append(tail)
    body = "".join(out)
    unmentioned = records[len(parts) - 1 :]
    if unmentioned:
        links = " ".join(format_reference(r.kind, r.context_id, r.label) for r in unmentioned)
        body = links + " " + body
    return body, records
