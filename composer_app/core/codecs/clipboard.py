"""Clipboard codecs: fragment JSON, its HTML carrier, and what a selection copies
(docs/contract.md §9.2, §9.3).

Invariants: the clipboard is untrusted, so ``decode_fragment`` and ``decode_clipboard_html`` return
``None`` for anything invalid and never raise; undecodable records are dropped and, of records that
share a context id after trimming, the first wins. ``encode_fragment`` returns ``None`` rather than
a fragment whose compact JSON exceeds ``MAX_FRAGMENT_JSON_CHARS`` UTF-16 units, and
``decode_fragment(encode_fragment(f)) == f`` for every fragment that encodes.
"""

from __future__ import annotations

import codecs
import json
import logging
import re
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn
from urllib.parse import quote, unquote

from pydantic import ValidationError

from composer_app.core.codecs.references import collect_references
from composer_app.core.contracts.clipboard import ClipboardFragment, FragmentSource
from composer_app.core.contracts.fields import json_version
from composer_app.core.contracts.records import ContextRecord, decode_record
from composer_app.core.errors import ContractError
from composer_app.core.limits import MAX_CLIPBOARD_HTML_CHARS, MAX_FRAGMENT_JSON_CHARS, MAX_RECORDS
from composer_app.core.text import WS_CLASS, compact_json

_log = logging.getLogger(__name__)

CARRIER_ATTRIBUTE = "data-t3-context-fragment"
"""The HTML attribute that carries the percent-encoded fragment JSON."""

_CARRIER = re.compile(
    f"[{WS_CLASS}]{CARRIER_ATTRIBUTE}[{WS_CLASS}]*=[{WS_CLASS}]*(?:\"([^\"]*)\"|'([^']*)')"
)
# encodeURIComponent keeps A-Z a-z 0-9 - _ . ! ~ * ' ( ); the carrier also escapes "'".
# ``quote`` always keeps A-Z a-z 0-9 _ . - ~ and writes upper-case hex.
_URI_COMPONENT_SAFE = "!~*()"
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
# A UTF-8 character of n bytes is at least n/3 UTF-16 units (4 bytes -> 2 units).
_MAX_UTF8_BYTES_PER_UNIT = 3
_DECODE_CHUNK_BYTES = 1 << 20


def fits_utf16(text: str, max_units: int) -> bool:
    """True when ``text`` is at most ``max_units`` UTF-16 units; cheap for clear-cut lengths.

    A ``str`` of ``n`` code points is between ``n`` and ``2n`` units, so the exact count is computed
    only when ``max_units / 2 < n <= max_units`` and ``text`` is not ASCII.
    """
    length = len(text)
    if length > max_units:
        return False
    if 2 * length <= max_units or text.isascii():
        return True
    return len(text.encode("utf-16-le", "surrogatepass")) // 2 <= max_units


def encode_fragment(fragment: ClipboardFragment) -> str | None:
    """Compact JSON of ``fragment``; ``None`` when it exceeds ``MAX_FRAGMENT_JSON_CHARS`` units."""
    encoded = compact_json(fragment.to_wire())
    return encoded if fits_utf16(encoded, MAX_FRAGMENT_JSON_CHARS) else None


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _utf8_text(data: bytes | bytearray | memoryview) -> str:
    """Strict UTF-8 decoding in chunks, so that non-ASCII input is not decoded into a buffer of
    four bytes per input byte (CPython's one-shot decoder over-allocates that way)."""
    view = memoryview(data).cast("B")
    if len(view) <= _DECODE_CHUNK_BYTES:
        return str(view, "utf-8")
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    parts = [
        decoder.decode(view[start : start + _DECODE_CHUNK_BYTES])
        for start in range(0, len(view), _DECODE_CHUNK_BYTES)
    ]
    parts.append(decoder.decode(b"", final=True))
    return "".join(parts)


def _fragment_text(raw: object) -> str | None:
    if isinstance(raw, (bytes, bytearray, memoryview)):
        if len(raw) > _MAX_UTF8_BYTES_PER_UNIT * MAX_FRAGMENT_JSON_CHARS:
            return None
        try:
            raw = _utf8_text(raw)
        except UnicodeDecodeError:
            return None
    if not isinstance(raw, str) or not fits_utf16(raw, MAX_FRAGMENT_JSON_CHARS):
        return None
    return raw


def _decode_records(items: list[Any]) -> list[ContextRecord]:
    records: list[ContextRecord] = []
    seen: set[str] = set()
    dropped = 0
    for item in items:
        try:
            record = decode_record(item)
        except (ContractError, RecursionError):
            dropped += 1
            continue
        if record.context_id in seen:
            dropped += 1
            continue
        seen.add(record.context_id)
        records.append(record)
    if dropped:
        _log.info("clipboard fragment: dropped %d of %d records", dropped, len(items))
    return records


def _fragment_from_json(obj: object) -> ClipboardFragment | None:
    if not isinstance(obj, dict):
        return None
    try:
        json_version(obj.get("version"))
        source = FragmentSource.model_validate(obj.get("source"), by_alias=True, by_name=False)
    except (ValueError, ValidationError):
        return None
    items = obj.get("records")
    if not isinstance(items, list) or len(items) > MAX_RECORDS:
        return None
    return ClipboardFragment(version=1, source=source, records=_decode_records(items))


def decode_fragment(raw: str | bytes | None) -> ClipboardFragment | None:
    """Decode untrusted clipboard data; ``None`` for anything that is not a valid fragment.

    ``None`` when ``raw`` is ``None``, bytes that are not UTF-8, longer than
    ``MAX_FRAGMENT_JSON_CHARS`` units, not JSON (``NaN``/``Infinity`` included), not an object, with
    a ``version`` other than the integer 1, an invalid ``source``, or ``records`` that is not a list
    of at most ``MAX_RECORDS`` items. Bad records are dropped; a repeated context id is dropped.
    """
    text = _fragment_text(raw)
    if text is None:
        return None
    try:
        obj = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return None
    return _fragment_from_json(obj)


def percent_encode(value: str) -> str:
    """``encodeURIComponent(value)`` with ``'`` also escaped (``%27``); upper-case hex.

    Kept as they are: ``A-Z a-z 0-9 - _ . ! ~ * ( )``; every other character becomes the ``%XX``
    escapes of its UTF-8 bytes. A lone surrogate has no UTF-8 form: ``ContractError``.
    """
    try:
        return quote(value, safe=_URI_COMPONENT_SAFE, encoding="utf-8", errors="strict")
    except UnicodeEncodeError as error:
        raise ContractError("a lone surrogate cannot be percent-encoded") from error


def percent_decode(value: str) -> str | None:
    """``decodeURIComponent(value)``; ``None`` for a malformed escape or bytes not in UTF-8."""
    if "%" not in value:
        return value
    if _BAD_PERCENT.search(value) is not None:
        return None
    try:
        if not value.isascii():
            return unquote(value, encoding="utf-8", errors="strict")
        # Every "%" now starts a valid escape: turn each into "\xXX" (a literal backslash into its
        # own escape) and let the C codecs do the work, one pass each.
        escaped = value.replace("\\", "%5C").replace("%", "\\x").encode("ascii")
        return escaped.decode("unicode_escape").encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return None


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def encode_clipboard_html(text: str, fragment_json: str, html: str | None = None) -> str:
    """The ``text/html`` carrier of a fragment, for clipboards that drop custom formats.

    With non-empty ``html`` the rich markup is wrapped in a ``<div>``; otherwise ``text`` is escaped
    (``&``, ``<``, ``>``) inside a ``<pre>``. The attribute value holds only
    ``A-Z a-z 0-9 - _ . ! ~ * ( ) %``, so it needs no HTML escaping and no quote can end it early.
    """
    attr = percent_encode(fragment_json)
    if html:
        return f'<div {CARRIER_ATTRIBUTE}="{attr}">{html}</div>'
    return f'<pre {CARRIER_ATTRIBUTE}="{attr}">{_escape_text(text)}</pre>'


def decode_clipboard_html(html: str | None) -> ClipboardFragment | None:
    """The fragment carried by clipboard HTML, or ``None``.

    The attribute name must follow whitespace; WS may surround ``=``; the value is ``"…"`` or
    ``'…'``; the first occurrence with a non-empty value counts. ``None`` when ``html`` is empty or
    longer than ``MAX_CLIPBOARD_HTML_CHARS`` units, when there is no such attribute, when its value
    does not percent-decode, or when the decoded text is not a valid fragment.
    """
    if not html or not isinstance(html, str) or not fits_utf16(html, MAX_CLIPBOARD_HTML_CHARS):
        return None
    for match in _CARRIER.finditer(html):
        value = match.group(1) if match.group(1) is not None else match.group(2)
        if value:
            decoded = percent_decode(value)
            return None if decoded is None else decode_fragment(decoded)
    return None


def selected_fragment(
    selected_markdown: str,
    records: Mapping[str, ContextRecord] | Iterable[ContextRecord],
    source: FragmentSource,
) -> ClipboardFragment | None:
    """The fragment for a copied selection, or ``None`` when no selected reference has a record.

    Only records referenced inside ``selected_markdown`` are included, each once, in
    first-reference order (at most ``MAX_RECORDS``). ``records`` is the draft's record map
    (``context_id -> record``) or a sequence of records (the first of a repeated id wins).
    """
    if isinstance(records, Mapping):
        by_id: Mapping[str, ContextRecord] = records
    else:
        collected: dict[str, ContextRecord] = {}
        for item in records:
            collected.setdefault(item.context_id, item)
        by_id = collected
    chosen: dict[str, ContextRecord] = {}
    for reference in collect_references(selected_markdown):
        record = by_id.get(reference.context_id)
        if record is not None and reference.context_id not in chosen:
            chosen[reference.context_id] = record
            if len(chosen) == MAX_RECORDS:
                break
    if not chosen:
        return None
    return ClipboardFragment(version=1, source=source, records=list(chosen.values()))
