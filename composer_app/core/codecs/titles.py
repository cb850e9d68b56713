"""A thread's title, made from its first message when nobody named the thread.

``title_from_message`` reads canonical message Markdown: every reference becomes its label (an
image reference becomes its label too, so ``![shot](…)`` titles as ``shot``; a ``!`` before any
other link is the writer's own and stays), set apart by a space from a word or a sentence mark
it touches (*Found it!* and a chip titled ``notes.txt`` make ``Found it! notes.txt``), leading
Markdown markers of the first line (``#``, ``>``, list bullets) and inline emphasis marks go, and
the first non-blank line is kept, whitespace collapsed.

Invariants: the result is ``None`` for a message with no visible words (only whitespace or
punctuation marks), else a non-empty string of at most ``TITLE_MAX_CHARS`` characters with no line
break and no leading or trailing whitespace; a line longer than that is cut at a word boundary
when one falls in its last third, and ends with ``…``; the function is pure and total.
"""

from __future__ import annotations

import re

from composer_app.core.codecs.references import Reference, replace_references
from composer_app.core.text import collapse_whitespace

__all__ = ["TITLE_MAX_CHARS", "title_from_message"]

TITLE_MAX_CHARS = 60
_ELLIPSIS = "…"
_LINE_MARKERS = re.compile(r"^(?:[#>]+\s*|[-*+]\s+|\d+[.)]\s+)+")
_EMPHASIS = re.compile(r"(\*\*|__|~~|`)")
_WORD = re.compile(r"\w", re.UNICODE)


_EDGE = "\x01"  # marks where a label meets the text around it
_EDGES = re.compile(f"{_EDGE}+")
_OPENERS = "([{\"'“‘"


def _label(reference: Reference) -> str:
    mark = "!" if reference.image and reference.kind != "image" else ""
    return f"{mark}{_EDGE}{reference.label.replace(chr(10), ' ')}{_EDGE}"


def _edge(match: re.Match[str]) -> str:
    """A space where a label meets a word or sentence mark with nothing between, else nothing."""
    text, start, end = match.string, match.start(), match.end()
    left = text[start - 1] if start else ""
    right = text[end] if end < len(text) else ""
    glued = left and right and not left.isspace() and left not in _OPENERS and \
        right != _EDGE and _WORD.match(right)
    return " " if glued else ""


def title_from_message(text: str) -> str | None:
    """The title a thread gets from ``text``, its first message (see the module invariants)."""
    plain = _EDGES.sub(_edge, replace_references(text, _label))
    for raw_line in plain.splitlines():
        line = collapse_whitespace(
            _EMPHASIS.sub("", _LINE_MARKERS.sub("", raw_line.strip()))).strip()
        if _WORD.search(line):
            return _shorten(line)
    return None


def _shorten(line: str) -> str:
    if len(line) <= TITLE_MAX_CHARS:
        return line
    room = TITLE_MAX_CHARS - len(_ELLIPSIS)
    cut = line[:room]
    space = cut.rfind(" ")
    if space >= room * 2 // 3:
        cut = cut[:space]
    return (cut.rstrip(" ,;:.-") or cut.rstrip()) + _ELLIPSIS
