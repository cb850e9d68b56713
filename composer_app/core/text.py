"""Contract text primitives: the JavaScript whitespace set and UTF-16 lengths.

Invariants: ``utf16_len(s)`` equals a JavaScript peer's ``s.length``; ``cut_utf16`` never leaves
half of a surrogate pair; ``trim``/``collapse_whitespace`` use the WS set of docs/contract.md §0.2,
never Python's ``str.strip()`` default set.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

WS = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
WS_CLASS = (
    "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_WS_RUN = re.compile(f"[{WS_CLASS}]+")


def utf16_len(s: str) -> int:
    """Length of ``s`` in UTF-16 code units (astral characters count 2, lone surrogates 1)."""
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def trim(s: str) -> str:
    """Strip WS from both ends."""
    return s.strip(WS)


def trim_end(s: str) -> str:
    """Strip WS from the end."""
    return s.rstrip(WS)


def is_blank(s: str) -> bool:
    """True when ``s`` holds only WS (or nothing)."""
    return not s.strip(WS)


def collapse_whitespace(s: str) -> str:
    """Replace every maximal run of WS characters with one space."""
    return _WS_RUN.sub(" ", s)


def cut_utf16(s: str, max_units: int) -> str:
    """The longest prefix of ``s`` of at most ``max_units`` UTF-16 units (character boundary)."""
    if max_units <= 0:
        return ""
    if len(s) <= max_units and (s.isascii() or utf16_len(s) <= max_units):
        return s
    if s.isascii():
        return s[:max_units]
    # ``s`` is longer than ``max_units`` here, so some prefix total exceeds it.
    totals = accumulate(2 if ord(char) > 0xFFFF else 1 for char in s)
    return s[: next(index for index, total in enumerate(totals) if total > max_units)]


def compact_json(value: Any) -> str:
    """Compact JSON (docs/contract.md §0.3); lone surrogates become ``\\udxxx`` escapes.

    Raises ``ValueError`` for NaN and infinities, which are not JSON.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if _has_surrogate(text):
        text = "".join(f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate(text: str) -> bool:
    return text.isascii() is False and _SURROGATE.search(text) is not None
