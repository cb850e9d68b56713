"""Keyboard focus inside transcript rows: chips, citation tokens, links and row actions.

Invariants: the focusable items of a row are its document anchors (``chip:``, ``cite:`` and
links) in document order, then its action bar (Copy, Sources), so Tab walks a row as it reads;
an item's rectangle is in viewport coordinates and computed from the row's cached layout, so
finding items never lays out a row that was not already needed; a search for the next row with
items stops after ``SEARCH_ROWS`` rows, so Tab never walks a long thread in one key press.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QRect, QRectF
from PySide6.QtGui import QTextBlock, QTextDocument

from composer_app.ui.transcript.markdown_logic import CITE_SCHEME
from composer_app.ui.transcript.render import CHIP_SCHEME
from composer_app.ui.transcript.view_actions import action_rects

if TYPE_CHECKING:
    from composer_app.ui.transcript.view import TranscriptView

SEARCH_ROWS = 200


@dataclass(frozen=True, slots=True)
class FocusItem:
    """One keyboard-focusable item: ``what`` is ``chip``, ``cite``, ``link`` or ``action``."""

    row: int
    what: str
    value: str
    rect: QRect

    @property
    def key(self) -> tuple[int, str, str]:
        """What identifies the item across relayouts."""
        return self.row, self.what, self.value


def _x(value: object) -> float:
    """``QTextLine.cursorToX``'s x (PySide returns ``(x, position)``)."""
    first = value[0] if isinstance(value, tuple) else value
    return float(first) if isinstance(first, int | float) else 0.0


def _line_rect(doc: QTextDocument, block: QTextBlock, start: int, end: int) -> QRectF:
    """The rectangle of document positions ``[start, end)`` (one block; first line of the run)."""
    bounds = doc.documentLayout().blockBoundingRect(block)
    text_layout = block.layout()
    line = text_layout.lineForTextPosition(start - block.position())
    if not line.isValid():
        return QRectF(bounds)
    x1 = _x(line.cursorToX(start - block.position()))
    x2 = _x(line.cursorToX(min(end - block.position(), line.textStart() + line.textLength())))
    return QRectF(
        bounds.left() + min(x1, x2),
        bounds.top() + line.y(),
        max(abs(x2 - x1), 4.0),
        line.height(),
    )


def anchors(doc: QTextDocument) -> list[tuple[str, QRectF]]:
    """``(href, rect in document coordinates)`` of every anchor run, in document order."""
    out: list[tuple[str, QRectF]] = []
    block = doc.begin()
    while block.isValid():
        run: tuple[str, int, int] | None = None
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.isValid():
                fmt = fragment.charFormat()
                href = fmt.anchorHref() if fmt.isAnchor() else ""
                start, end = fragment.position(), fragment.position() + fragment.length()
                if run is not None and href == run[0] and start == run[2]:
                    run = (href, run[1], end)
                else:
                    if run is not None and run[0]:
                        out.append((run[0], _line_rect(doc, block, run[1], run[2])))
                    run = (href, start, end)
            it += 1
        if run is not None and run[0]:
            out.append((run[0], _line_rect(doc, block, run[1], run[2])))
        block = block.next()
    return out


def _kind(href: str) -> tuple[str, str]:
    if href.startswith(CHIP_SCHEME):
        return "chip", href[len(CHIP_SCHEME) :]
    if href.startswith(CITE_SCHEME):
        return "cite", href[len(CITE_SCHEME) :]
    return "link", href


def row_items(view: TranscriptView, row: int) -> list[FocusItem]:
    """The focusable items of ``row`` in reading order (see the module invariant)."""
    message = view.message_at(row)
    if message is None:
        return []
    index = view.model().index(row, 0)
    rect = view.visualRect(index)
    layout = view.layout_for(message)
    items: list[FocusItem] = []
    seen: set[tuple[str, str]] = set()
    for href, area in anchors(layout.doc):
        what, value = _kind(href)
        if (what, value) in seen:  # a link wrapped over lines, or a chip shown twice
            continue
        seen.add((what, value))
        shifted = area.translated(rect.left() + layout.x, rect.top() + layout.y)
        items.append(FocusItem(row, what, value, shifted.toAlignedRect()))
    for name, _text, bar in action_rects(message, layout, rect, view.fontMetrics()):
        if name == "status":
            continue
        items.append(FocusItem(row, "action", name, bar.adjusted(-4, 0, 4, 0)))
    return items


def next_item(
    view: TranscriptView, current: tuple[int, str, str] | None, start_row: int, forward: bool
) -> FocusItem | None:
    """The item after (or before) ``current``; from ``start_row`` when nothing is focused."""
    count = view.model().rowCount()
    if count == 0:
        return None
    row = current[0] if current is not None else max(0, min(start_row, count - 1))
    items = row_items(view, row)
    keys = [item.key for item in items]
    if current is not None and current in keys:
        position = keys.index(current) + (1 if forward else -1)
        if 0 <= position < len(items):
            return items[position]
    elif current is None and items:
        return items[0] if forward else items[-1]
    step = 1 if forward else -1
    for offset in range(1, SEARCH_ROWS + 1):
        other = row + step * offset
        if not 0 <= other < count:
            return None
        found = row_items(view, other)
        if found:
            return found[0] if forward else found[-1]
    return None
