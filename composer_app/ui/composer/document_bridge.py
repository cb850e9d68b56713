"""The ``QTextDocument`` <-> draft-model bridge: chips and text runs, canonical Markdown.

Invariants: reading walks every fragment and treats each U+FFFC of a chip format as one chip (so a
merged fragment of identical chips still yields one chip per character); a U+FFFC that is not a chip
is dropped and paragraph separators become ``\\n``, so canonical text never holds U+FFFC; writing
inserts text with the base format and each chip with a fresh reference id.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument

from composer_app.core.document.segments import (
    OBJECT_REPLACEMENT,
    ChipSegment,
    Segment,
    join_segments,
)
from composer_app.ui.composer.chips import (
    CONTEXT_ID,
    KIND,
    LABEL,
    REFERENCE_ID,
    chip_format,
    is_chip,
    new_reference_ids,
)

_PARAGRAPH = "\u2029"
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@dataclass(frozen=True, slots=True)
class ChipOccurrence:
    """One chip in the document: its position and its format's properties."""

    position: int
    reference_id: str
    kind: str
    context_id: str
    label: str


def format_runs(
    doc: QTextDocument, start: int, end: int
) -> Iterator[tuple[int, str, QTextCharFormat]]:
    """``(position, text, format)`` runs covering ``[start, end)``; block breaks as ``\\n``."""
    block = doc.findBlock(start)
    newline = QTextCharFormat()
    while block.isValid() and block.position() < end:
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            it += 1
            if not frag.isValid():
                continue
            fpos, flen = frag.position(), frag.length()
            if fpos + flen <= start or fpos >= end:
                continue
            lo, hi = max(start, fpos), min(end, fpos + flen)
            yield lo, slice_units(frag.text(), lo - fpos, hi - fpos), frag.charFormat()
        brk = block.position() + block.length() - 1
        block = block.next()
        if block.isValid() and start <= brk < end:
            yield brk, "\n", newline


def _objects(
    doc: QTextDocument, start: int, stop: int
) -> tuple[str, list[tuple[int, QTextCharFormat]]]:
    """The raw text of ``[start, stop)`` and ``(position, format)`` of each U+FFFC in it.

    ``toRawText()`` indices are document positions (one U+2029 per block break), so a cursor
    placed just after each U+FFFC reads that character's own format.
    """
    full = doc.toRawText()
    astral = [m.start() for m in _ASTRAL.finditer(full)] if not full.isascii() else []
    to_py: Callable[[int], int] = _same
    to_doc: Callable[[int], int] = _same
    if astral:
        # Document positions count UTF-16 units; Python indices count code points.
        starts = [index + n for n, index in enumerate(astral)]

        def py_index(pos: int) -> int:
            return pos - bisect.bisect_left(starts, pos)

        def doc_position(index: int) -> int:
            return index + bisect.bisect_left(astral, index)

        to_py, to_doc = py_index, doc_position
    lo = to_py(start)
    raw = full[lo : to_py(stop)]
    found: list[tuple[int, QTextCharFormat]] = []
    index = raw.find(OBJECT_REPLACEMENT)
    if index == -1:
        return raw, found
    cursor = QTextCursor(doc)
    while index != -1:
        pos = to_doc(lo + index)
        cursor.setPosition(pos + 1)
        found.append((pos, cursor.charFormat()))
        index = raw.find(OBJECT_REPLACEMENT, index + 1)
    return raw, found


def slice_units(text: str, start: int, end: int) -> str:
    """``text[start:end]`` where ``start``/``end`` count UTF-16 units (document positions)."""
    if text.isascii() or _ASTRAL.search(text) is None:
        return text[start:end]
    data = text.encode("utf-16-le", "surrogatepass")[2 * start : 2 * end]
    return data.decode("utf-16-le", "surrogatepass")


def _same(value: int) -> int:
    return value


def chip_occurrences(
    doc: QTextDocument, start: int = 0, end: int | None = None
) -> list[ChipOccurrence]:
    """Every chip in ``[start, end)``, in document order."""
    stop = doc.characterCount() - 1 if end is None else end
    return [
        ChipOccurrence(pos, fmt.stringProperty(REFERENCE_ID), fmt.stringProperty(KIND),
                       fmt.stringProperty(CONTEXT_ID), fmt.stringProperty(LABEL))
        for pos, fmt in _objects(doc, start, stop)[1]
        if is_chip(fmt)
    ]


def read_segments(doc: QTextDocument, start: int = 0, end: int | None = None) -> list[Segment]:
    """Text runs and chips of ``[start, end)`` (block breaks as ``\\n``, stray U+FFFC dropped)."""
    stop = doc.characterCount() - 1 if end is None else end
    raw, objects = _objects(doc, start, stop)
    out: list[Segment] = []
    last = 0
    search = 0
    for _pos, fmt in objects:
        index = raw.index(OBJECT_REPLACEMENT, search)
        search = index + 1
        text = raw[last:index]
        if is_chip(fmt):
            if text:
                out.append(text.replace(_PARAGRAPH, "\n"))
            chip = ChipSegment(
                fmt.stringProperty(KIND), fmt.stringProperty(CONTEXT_ID), fmt.stringProperty(LABEL)
            )
            out.append(chip)
            last = index + 1
        else:
            if text:
                out.append(text.replace(_PARAGRAPH, "\n"))
            last = index + 1
    tail = raw[last:]
    if tail:
        out.append(tail.replace(_PARAGRAPH, "\n"))
    merged: list[Segment] = []
    for seg in out:
        if isinstance(seg, str) and merged and isinstance(merged[-1], str):
            merged[-1] += seg
        else:
            merged.append(seg)
    return merged


def markdown_of(doc: QTextDocument, start: int = 0, end: int | None = None) -> str:
    """Canonical Markdown of ``[start, end)`` (chips as their links)."""
    return join_segments(read_segments(doc, start, end))


def markdown_from(raw: str, links: list[str]) -> str | None:
    """Canonical Markdown of a document's raw text given the link of each of its U+FFFC.

    ``None`` when ``links`` does not have one entry per U+FFFC of ``raw`` (the caller then reads
    the document). Text is taken as runs between objects, never character by character.
    """
    pieces = raw.split(OBJECT_REPLACEMENT)
    if len(pieces) != len(links) + 1:
        return None
    if not links:
        return raw.replace(_PARAGRAPH, "\n")
    out = [""] * (2 * len(pieces) - 1)
    out[::2] = pieces
    out[1::2] = links
    return "".join(out).replace(_PARAGRAPH, "\n")


def insert_segments(cursor: QTextCursor, segments: list[Segment], base: QTextCharFormat) -> int:
    """Insert ``segments`` at ``cursor`` (inside the caller's edit block); returns the chips.

    Text goes in as whole runs; the chips of one record share one format object, given a fresh
    reference id before each copy goes in (the document keeps its own copy of every format).
    """
    ids = iter(new_reference_ids(sum(1 for seg in segments if not isinstance(seg, str))))
    templates: dict[ChipSegment, QTextCharFormat] = {}
    insert = cursor.insertText
    chips = 0
    for seg in segments:
        if isinstance(seg, str):
            if seg:
                insert(seg.replace(OBJECT_REPLACEMENT, "") if OBJECT_REPLACEMENT in seg else seg,
                       base)
            continue
        template = templates.get(seg)
        if template is None:
            template = templates[seg] = chip_format(seg.kind, seg.context_id, seg.label, base)
        template.setProperty(REFERENCE_ID, next(ids))
        insert(OBJECT_REPLACEMENT, template)
        chips += 1
    return chips
