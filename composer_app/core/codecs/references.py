"""The ``t3-context://v1`` reference grammar (docs/contract.md §4).

A reference is a Markdown link ``[label](t3-context://v1/<kind>/<contextId>)`` (``![..](..)`` for
images) in message prose. This module formats and parses hrefs, sanitizes labels and finds
references in text.

Invariants:

* ``parse_href(format_href(k, c)) == (k, c)`` for every valid ``Kind`` ``k`` and
  ``ContextId`` ``c``.
* ``collect_references`` never raises, and ``text[ref.start:ref.end] == ref.source`` for every
  reference it returns (offsets are Python ``str`` indices; bounds are UTF-16 units).
* ``sanitize_label`` never returns an empty string, nor one holding ``[ ] \\`` CR or LF, nor one
  longer than ``LABEL_MAX_CHARS`` UTF-16 units.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from composer_app.core.limits import (
    LABEL_MAX_CHARS,
    REFERENCE_HREF_TAIL_MAX_CHARS,
    REFERENCE_LABEL_SCAN_MAX_CHARS,
)
from composer_app.core.text import WS, WS_CLASS, collapse_whitespace, cut_utf16, utf16_len

__all__ = [
    "HREF_PREFIX",
    "Reference",
    "collect_references",
    "format_href",
    "format_reference",
    "is_image_references_only",
    "parse_href",
    "replace_references",
    "sanitize_label",
]

HREF_PREFIX = "t3-context://v1/"
_FAST_PATH_NEEDLE = "](t3-context:"

_HREF = re.compile(r"t3-context://v1/([a-z][a-z0-9-]{0,39})/([A-Za-z0-9_-]{1,128})")

# The docs/contract.md §4.3 pattern without its leading ``(!?)``: a pattern that starts with the
# literal ``[`` lets
# the regex engine skip ahead with a fast prefix scan (a leading optional ``!`` disables that and
# costs ~20x on a 1 MB message); the ``!`` is read back from the character before the match.
# The bounds are in code points, an upper bound of the UTF-16 bounds (a code point is 1 or 2
# units), so every match of the UTF-16-bounded pattern is a match here; a match whose label or
# href tail is too long in UTF-16 units is discarded and the search resumes one character later.
# Possessive quantifiers are exact here (the classes exclude the character that ends them) and
# keep a failing attempt from backtracking.
_LABEL_SCAN = REFERENCE_LABEL_SCAN_MAX_CHARS
_TAIL_SCAN = REFERENCE_HREF_TAIL_MAX_CHARS
_REFERENCE = re.compile(
    rf"\[([^\]\n]{{0,{_LABEL_SCAN}}}+)\]"
    rf"\((t3-context://v1/([^{WS_CLASS})]{{1,{_TAIL_SCAN}}}+))\)"
)

_LABEL_BREAKERS = str.maketrans({"[": " ", "]": " ", "\\": " ", "\r": " ", "\n": " "})
# A label that sanitizes to itself: words of characters other than WS and ``[ ] \\`` (CR and LF
# are WS) joined by single spaces.
_WORD = rf"[^{WS_CLASS}\[\]\\]+"
_CLEAN_LABEL = re.compile(rf"{_WORD}(?: {_WORD})*")


class Reference(NamedTuple):
    """One reference found in text. ``start``/``end`` are Python ``str`` indices."""

    kind: str
    context_id: str
    label: str
    image: bool
    source: str
    start: int
    end: int


def format_href(kind: str, context_id: str) -> str:
    """``t3-context://v1/<kind>/<context_id>`` (no validation)."""
    return HREF_PREFIX + kind + "/" + context_id


def parse_href(href: str) -> tuple[str, str] | None:
    """``(kind, context_id)`` of a canonical href, else ``None`` (docs/contract.md §4.2; never
    raises)."""
    if not isinstance(href, str):
        return None
    match = _HREF.fullmatch(href)
    if match is None:
        return None
    return match.group(1), match.group(2)


def sanitize_label(label: str, kind: str) -> str:
    """The display label of a reference (docs/contract.md §4.4): no brackets, backslashes or line
    breaks, WS collapsed and trimmed, at most 200 UTF-16 units, ``kind`` when nothing is left."""
    if (
        len(label) <= LABEL_MAX_CHARS
        and _CLEAN_LABEL.fullmatch(label) is not None
        and (label.isascii() or utf16_len(label) <= LABEL_MAX_CHARS)
    ):
        return label
    cleaned = collapse_whitespace(label.translate(_LABEL_BREAKERS)).strip(WS)
    cleaned = cut_utf16(cleaned, LABEL_MAX_CHARS)
    return cleaned or kind


def format_reference(kind: str, context_id: str, label: str) -> str:
    """The canonical link; the ``!`` prefix is emitted only for kind ``image``."""
    bang = "!" if kind == "image" else ""
    return bang + "[" + sanitize_label(label, kind) + "](" + format_href(kind, context_id) + ")"


def collect_references(text: str) -> list[Reference]:
    """Every reference in ``text``, in order (docs/contract.md §4.3). Never raises."""
    if _FAST_PATH_NEEDLE not in text:
        return []
    search = _REFERENCE.search
    ascii_text = text.isascii()
    label_units_ok = _LABEL_SCAN // 2  # a label of at most this many code points always fits
    tail_units_ok = _TAIL_SCAN // 2
    found: list[Reference] = []
    append = found.append
    pos = 0
    while True:
        match = search(text, pos)
        if match is None:
            return found
        raw_label, href, tail = match.group(1, 2, 3)
        if not ascii_text and (
            (len(raw_label) > label_units_ok and utf16_len(raw_label) > _LABEL_SCAN)
            or (len(tail) > tail_units_ok and utf16_len(tail) > _TAIL_SCAN)
        ):
            pos = match.start() + 1
            continue
        pos = end = match.end()
        parsed = _HREF.fullmatch(href)
        if parsed is None:
            continue
        start = match.start()
        # The character before a search position is never a "!" (it is ")" or "["), so a "!"
        # just before the "[" always belongs to this match, as in the pattern's leading "(!?)".
        image = start > 0 and text[start - 1] == "!"
        if image:
            start -= 1
        kind, context_id = parsed.group(1, 2)
        append(
            Reference(
                kind,
                context_id,
                sanitize_label(raw_label, kind),
                image,
                text[start:end],
                start,
                end,
            )
        )


def replace_references(text: str, fn: Callable[[Reference], str]) -> str:
    """``text`` with each reference replaced, in order, by ``fn(ref)``; the text in between kept."""
    references = collect_references(text)
    if not references:
        return text
    parts: list[str] = []
    last = 0
    for ref in references:
        parts.append(text[last : ref.start])
        parts.append(fn(ref))
        last = ref.end
    parts.append(text[last:])
    return "".join(parts)


def is_image_references_only(text: str) -> bool:
    """True when ``text`` has at least one reference, all of kind ``image``, and only WS besides."""
    references = collect_references(text)
    if not references:
        return False
    last = 0
    for ref in references:
        if ref.kind != "image" or text[last : ref.start].strip(WS):
            return False
        last = ref.end
    return not text[last:].strip(WS)
