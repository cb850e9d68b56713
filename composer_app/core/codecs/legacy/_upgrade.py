"""``upgrade_legacy_message`` (docs/contract.md §7.2).

Invariants: pure and deterministic (ids ``legacy_<kind>_<n>``, 1-based per kind in record order);
never raises for a ``str``; atomic — a malformed terminal or element block, an entry header that
does not parse, or any record that fails its schema or the message-context rules gives back
``(text, [])`` with the original text. Text outside the parsed blocks is kept as it is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from composer_app.core.codecs.legacy._blocks import (
    ELEMENT_TAG,
    LEGACY_TAG,
    PLACEHOLDER,
    PREVIEW_TAG,
    TERMINAL_TAG,
    Entry,
    MalformedBlock,
    parse_entries,
    split_lines,
    terminal_range,
)
from composer_app.core.codecs.legacy._records import element_wire, preview_wire, terminal_wire
from composer_app.core.codecs.legacy._reviews import replace_review_blocks
from composer_app.core.codecs.references import format_reference
from composer_app.core.contracts.records import (
    RecordBase,
    TerminalRecord,
    decode_record,
    encode_record,
)
from composer_app.core.errors import ContractError
from composer_app.core.limits import MAX_CONTEXT_JSON_CHARS, MAX_RECORDS
from composer_app.core.text import WS, compact_json, utf16_len

_WS_SET = frozenset(WS)
_PEEL_ORDER = (PREVIEW_TAG, ELEMENT_TAG, TERMINAL_TAG)
_DIGITS = frozenset("0123456789")
# Below this many characters the records cannot reach the context size limit: a text character
# appears in at most three fields and escapes to at most six JSON characters.
_SIZE_CHECK_MIN_CHARS = (MAX_CONTEXT_JSON_CHARS - MAX_RECORDS * 2_000) // 20


def _link(record: RecordBase) -> str:
    return format_reference(record.kind, record.context_id, record.label)


def _peel_trailing_tokens(text: str, delimiter: str) -> tuple[str, list[int]]:
    """Step 3: remove review tokens that trail the text after a blank line (or alone)."""
    trailing: list[int] = []
    width = len(delimiter)
    while True:
        trimmed = text.rstrip(WS)
        if not trimmed.endswith(delimiter):
            return text, trailing
        digits_end = len(trimmed) - width
        digits_start = digits_end
        while digits_start > 0 and trimmed[digits_start - 1] in _DIGITS:
            digits_start -= 1
        token_start = digits_start - width
        is_token = (digits_start < digits_end and token_start >= 0
                    and trimmed[token_start:digits_start] == delimiter)
        run_start = token_start
        while is_token and run_start > 0 and trimmed[run_start - 1] in _WS_SET:
            run_start -= 1
        if not is_token or (run_start > 0 and trimmed.count("\n", run_start, token_start) < 2):
            return text, trailing
        trailing.insert(0, int(trimmed[digits_start:digits_end]))
        text = trimmed[:run_start]


def _last_opening_line(text: str, tag: str, before: int) -> tuple[int, int]:
    """``(start, content_start)`` of the last line-start line ``<tag>`` ending before ``before``,
    or ``(-1, -1)``."""
    needle = "<" + tag + ">"
    end = before
    while True:
        start = text.rfind(needle, 0, end)
        if start < 0:
            return -1, -1
        after = start + len(needle)
        if start == 0 or text[start - 1] == "\n":
            if text.startswith("\n", after):
                return start, after + 1
            if text.startswith("\r\n", after):
                return start, after + 2
        end = start


def _peel_trailing_blocks(text: str) -> tuple[str, dict[str, list[str]]]:
    """Step 4: remove trailing preview, element and terminal blocks; contents in original order."""
    blocks: dict[str, list[str]] = {tag: [] for tag in _PEEL_ORDER}
    while True:
        trimmed = text.rstrip(WS)
        for tag in _PEEL_ORDER:
            closing = "</" + tag + ">"
            if not trimmed.endswith(closing):
                continue
            close_start = len(trimmed) - len(closing)
            if close_start > 0 and trimmed[close_start - 1] != "\n":
                continue
            start, content_start = _last_opening_line(trimmed, tag, close_start)
            if start < 0:
                continue
            content = trimmed[content_start : max(content_start, close_start - 1)]
            blocks[tag].insert(0, content)
            text = trimmed[:start]
            break
        else:
            return text, blocks


def _is_word(char: str) -> bool:
    return char == "_" or unicodedata.category(char)[0] in "LNM"


def _find_unglued(body: str, needle: str) -> int:
    """Step 10.2: the first occurrence of ``needle`` not glued to a word, or -1."""
    size = len(body)
    pos = body.find(needle)
    while pos >= 0:
        before = body[pos - 1] if pos > 0 else ""
        end = pos + len(needle)
        glued = bool(before) and (before in "@.-" or _is_word(before))
        if not glued and end < size:
            after = body[end]
            if after == "-" or _is_word(after):
                glued = True
            elif after in ".@":
                run_end = end
                while run_end < size and body[run_end] in ".@":
                    run_end += 1
                glued = run_end < size and _is_word(body[run_end])
        if not glued:
            return pos
        pos = body.find(needle, pos + 1)
    return -1


def _decode_all(wires: list[dict[str, Any]]) -> list[RecordBase] | None:
    records: list[RecordBase] = []
    try:
        for wire in wires:
            records.append(decode_record(wire))
    except ContractError:
        return None
    return records


def _fits_context(text: str, records: Sequence[RecordBase]) -> bool:
    if len(records) > MAX_RECORDS:
        return False
    if len(text) < _SIZE_CHECK_MIN_CHARS:
        return True
    encoded = compact_json([encode_record(record) for record in records])
    return utf16_len(encoded) <= MAX_CONTEXT_JSON_CHARS


def _reconstruct(
    body: str,
    terminals: list[RecordBase],
    appended: list[RecordBase],
    delimiter: str,
    reviews: Sequence[RecordBase],
) -> str:
    """Step 10: bind placeholders and ``@slug:range`` labels, expand tokens, append the rest."""
    bound = 0
    if PLACEHOLDER in body:
        pieces = body.split(PLACEHOLDER)
        bound = min(len(pieces) - 1, len(terminals))
        links = [_link(record) for record in terminals[:bound]]
        links.extend([""] * (len(pieces) - 1 - bound))
        out = [pieces[0]]
        for link, piece in zip(links, pieces[1:], strict=True):
            out.append(link)
            out.append(piece)
        body = "".join(out)
    unbound: list[RecordBase] = []
    for record in terminals[bound:]:
        assert isinstance(record, TerminalRecord)
        # An upgraded terminal's id is the slug of its label (step 6).
        needle = "@" + record.terminal_id + ":" + terminal_range(record.line_start, record.line_end)
        at = _find_unglued(body, needle)
        if at < 0:
            unbound.append(record)
        else:
            body = body[:at] + _link(record) + body[at + len(needle) :]
    if reviews and delimiter in body:
        for number, review in enumerate(reviews, start=1):
            body = body.replace(f"{delimiter}{number}{delimiter}", _link(review), 1)
    body = body.rstrip(WS)
    tail = " ".join(_link(record) for record in (*unbound, *appended))
    if not tail:
        return body
    return body + "\n\n" + tail if body else tail


def _entries(contents: list[str]) -> list[Entry]:
    """Every entry of the given blocks of one kind, in order (raises ``MalformedBlock``)."""
    return [entry for content in contents for entry in parse_entries(split_lines(content))]


def upgrade_legacy_message(text: str) -> tuple[str, list[RecordBase]]:
    """Canonical prose plus records for a message written in the legacy form
    (docs/contract.md §7.2)."""
    if PLACEHOLDER not in text and LEGACY_TAG.search(text) is None:
        return text, []
    try:
        reviewed = replace_review_blocks(text)
        rest, trailing_numbers = _peel_trailing_tokens(reviewed.text, reviewed.delimiter)
        rest, blocks = _peel_trailing_blocks(rest)
        terminal_wires = [
            terminal_wire(entry, number)
            for number, entry in enumerate(_entries(blocks[TERMINAL_TAG]), start=1)
        ]
        element_wires = [
            element_wire(entry, number)
            for number, entry in enumerate(_entries(blocks[ELEMENT_TAG]), start=1)
        ]
        preview_wires = [
            preview_wire(content, number)
            for number, content in enumerate(blocks[PREVIEW_TAG], start=1)
        ]
    except MalformedBlock:
        return text, []
    decoded = _decode_all(terminal_wires + element_wires + preview_wires)
    if decoded is None:
        return text, []
    reviews: list[RecordBase] = list(reviewed.records)
    records = decoded + reviews
    if not _fits_context(text, records):
        return text, []
    terminals = decoded[: len(terminal_wires)]
    others = decoded[len(terminal_wires) :]
    trailing = [reviews[number - 1] for number in trailing_numbers]
    body = _reconstruct(rest, terminals, others + trailing, reviewed.delimiter, reviews)
    return body, records
