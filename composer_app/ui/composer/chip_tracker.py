"""Keeps the draft model in step with the document after every edit, and knows its chips.

The tracker holds the chips of the document in order (``chips()``), one entry per U+FFFC (a
stray U+FFFC that is not a chip has an empty entry), so the Markdown of the draft is the raw
text with each U+FFFC replaced by its link: nothing reads chip formats to serialize. Each
block's user state holds its number of U+FFFC (``-1`` when not known yet).

Invariants: text never keeps chip properties (the leak guard resets it to the base format, joining
the user's undo step, never during undo/redo or while loading); after every edit the entries equal
what reading the document would give, updated from the edited blocks only (the blocks outside the
changed range keep their entries, so typing never walks the document: one typed character that is
neither U+FFFC nor a paragraph break costs a read of it and of its format, and any other edit inside
one block whose count of U+FFFC stays the same and that adds no U+FFFC one block's text); the record
map is reconciled whenever the chips changed (so undo brings a record back from the tombstones);
every chip that appears or disappears is announced.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QTextBlock, QTextCharFormat, QTextCursor, QTextDocument

from composer_app.core.document.edits import reconcile
from composer_app.core.document.segments import OBJECT_REPLACEMENT, ChipSegment
from composer_app.core.text import utf16_len
from composer_app.ui.composer.chips import CONTEXT_ID, KIND, LABEL, chip_format, is_chip
from composer_app.ui.composer.document_bridge import format_runs

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor

_Key = tuple[str, str, str]
_PARAGRAPH = "\u2029"
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
Entry = ChipSegment | None
"""One U+FFFC of the document: its chip, or ``None`` for a stray character that is not a chip."""


def chip_of(fmt: QTextCharFormat) -> Entry:
    """The chip a U+FFFC with format ``fmt`` stands for (``None`` when it is no chip)."""
    if not is_chip(fmt):
        return None
    return ChipSegment(fmt.stringProperty(KIND), fmt.stringProperty(CONTEXT_ID),
                       fmt.stringProperty(LABEL))


def _index_of(raw: str) -> Callable[[int], int]:
    """Maps document positions (UTF-16 units) to indices of ``raw`` (code points)."""
    if raw.isascii():
        return _same
    astral = [m.start() for m in _ASTRAL.finditer(raw)]
    if not astral:
        return _same
    starts = [index + n for n, index in enumerate(astral)]

    def to_index(pos: int) -> int:
        return pos - bisect.bisect_left(starts, pos)

    return to_index


def _same(value: int) -> int:
    return value


def _nothing(_position: int, _added: int) -> None:
    return None


class ChipTracker:
    """Watches one editor's document: chip entries, leak guard, reconciling, announcements."""

    def __init__(self, editor: ComposerEditor) -> None:
        self._editor = editor
        self._fixing = False
        self._blocks = 0
        self._entries: list[Entry] = []
        self._links: list[str] = []
        self._chips: list[ChipSegment] | None = []
        self._counts: Counter[_Key] = Counter()
        self._link_cache: dict[ChipSegment, str] = {}
        self.edited: Callable[[int, int], object] = _nothing
        """Called first on every change of the document with the position where it starts and
        the length it has now, before Qt lays the change out (the editor prepares the edited
        paragraphs)."""

    # -- reading -------------------------------------------------------------------------------
    def chips(self) -> list[ChipSegment]:
        """The chips of the document, in order."""
        if self._chips is None:
            self._chips = [e for e in self._entries if e is not None]
        return self._chips

    def links(self) -> list[str]:
        """The canonical link of each U+FFFC of the document, in order (``""`` for a stray one)."""
        return self._links

    def chip_touching(self, cursor: QTextCursor) -> str | None:
        """The context id of the chip the keyboard means at ``cursor``: the one a selection
        holds exactly, else the chip right before the caret (or before the space that follows
        it), else the one right after the caret; None when no chip touches the caret."""
        doc = cursor.document()
        if cursor.hasSelection():
            start, end = cursor.selectionStart(), cursor.selectionEnd()
            found = self._chip_id_at(doc, start) if end - start == 1 else None
            if found is not None:
                return found
        position = cursor.position()
        text = doc.toRawText()
        candidates = [position - 1]
        if 2 <= position <= len(text) and text[position - 1] == " ":
            candidates.append(position - 2)
        candidates.append(position)
        for at in candidates:
            found = self._chip_id_at(doc, at)
            if found is not None:
                return found
        return None

    @classmethod
    def _chip_id_at(cls, doc: QTextDocument, position: int) -> str | None:
        if position < 0 or position >= doc.characterCount() - 1:
            return None
        fmt = cls._probe_format(doc, position)
        return fmt.stringProperty(CONTEXT_ID) if is_chip(fmt) else None

    # -- following the document ----------------------------------------------------------------
    def attach(self, doc: QTextDocument) -> None:
        """Follow ``doc`` (call after every ``setDocument``, then ``rebuild``)."""
        doc.contentsChange.connect(self._on_document_contents_change)

    def rebuild(self, entries: list[Entry] | None = None) -> None:
        """Take the document's chips as a whole: ``entries`` when the caller just wrote them.

        Without ``entries`` every U+FFFC's format is read (a document was swapped in).
        """
        doc = self._editor.document()
        block = doc.begin()
        found: list[Entry] = []
        while block.isValid():
            count = block.text().count(OBJECT_REPLACEMENT)
            block.setUserState(count)
            if entries is None and count:
                found += self._read_block(doc, block)
            block = block.next()
        self._set_entries(found if entries is None else list(entries))
        self._blocks = doc.blockCount()

    def _set_entries(self, entries: list[Entry]) -> None:
        self._link_cache.clear()
        self._entries = entries
        self._links = self._links_of(entries)
        self._chips = None

    def _links_of(self, entries: list[Entry]) -> list[str]:
        cache = self._link_cache
        links = []
        for entry in entries:
            if entry is None:
                links.append("")
                continue
            link = cache.get(entry)
            if link is None:
                link = cache[entry] = entry.markdown()
            links.append(link)
        return links

    @staticmethod
    def _read_block(doc: QTextDocument, block: QTextBlock) -> list[Entry]:
        text = block.text()
        start = block.position()
        to_pos = _same if text.isascii() or _ASTRAL.search(text) is None else None
        out: list[Entry] = []
        cursor = QTextCursor(doc)
        index = text.find(OBJECT_REPLACEMENT)
        while index != -1:
            offset = index if to_pos is not None else utf16_len(text[:index])
            cursor.setPosition(start + offset + 1)
            out.append(chip_of(cursor.charFormat()))
            index = text.find(OBJECT_REPLACEMENT, index + 1)
        return out

    def _on_document_contents_change(self, pos: int, removed: int, added: int) -> None:
        self.edited(pos, added)
        editor = self._editor
        if self._fixing or editor.loading:
            return
        doc = editor.document()
        leaks: list[tuple[int, int, str]] = []
        object_added = False
        if added == 1 and not removed:
            char = doc.characterAt(pos)
            if char == OBJECT_REPLACEMENT:
                object_added = True
            elif self._probe_format(doc, pos).hasProperty(KIND):
                leaks.append((pos, pos + 1, char))
            elif char != _PARAGRAPH:
                return  # one character typed: no chip and no block came or went
        end = max(pos, min(pos + added, doc.characterCount() - 1)) if added else pos
        if added > 1 or (added and removed):
            for run_pos, text, fmt in format_runs(doc, pos, end):
                has_object = OBJECT_REPLACEMENT in text
                object_added = object_added or has_object
                if fmt.hasProperty(KIND) and (not is_chip(fmt) or text.strip(OBJECT_REPLACEMENT)):
                    leaks.append((run_pos, run_pos + utf16_len(text), text))
        if leaks and not editor.performing_undo_redo:
            self._fix(doc, leaks)
        if self._update(doc, pos, end, object_added):
            self.reconcile(announce=True)

    def _update(self, doc: QTextDocument, pos: int, end: int, object_added: bool) -> bool:
        """Bring the entries up to date after a change of ``[pos, end)``; True when they changed."""
        first = doc.findBlock(pos)
        blocks = doc.blockCount()
        if not object_added and blocks == self._blocks:
            # Inside one block (always so for one character typed or deleted), with as many
            # U+FFFC as before: nothing changed, and only this block's text was read.
            known = first.userState()
            one_block = end == pos or (end == pos + 1 and doc.characterAt(pos) != _PARAGRAPH) or (
                doc.findBlock(end).blockNumber() == first.blockNumber())
            if known >= 0 and one_block and first.text().count(OBJECT_REPLACEMENT) == known:
                return False
        last = doc.findBlock(end)
        raw = doc.toRawText()
        index = _index_of(raw)
        before = raw.count(OBJECT_REPLACEMENT, 0, index(first.position()))
        tail = last.position() + last.length() - 1
        after = raw.count(OBJECT_REPLACEMENT, index(tail))
        if before + after > len(self._entries):
            self.rebuild()
            return True
        middle: list[Entry] = []
        block = first
        while block.isValid():
            count = block.text().count(OBJECT_REPLACEMENT)
            block.setUserState(count)
            if count:
                middle += self._read_block(doc, block)
            if block.blockNumber() == last.blockNumber():
                break
            block = block.next()
        self._blocks = blocks
        stop = len(self._entries) - after
        if self._entries[before:stop] == middle:
            return False
        self._entries = self._entries[:before] + middle + self._entries[stop:]
        self._links = self._links[:before] + self._links_of(middle) + self._links[stop:]
        self._chips = None
        return True

    @staticmethod
    def _probe_format(doc: QTextDocument, pos: int) -> QTextCharFormat:
        # A fresh cursor each time: a long-lived one dangles after ``QTextDocument.clear()``.
        probe = QTextCursor(doc)
        probe.setPosition(pos + 1)
        return probe.charFormat()

    def _fix(self, doc: QTextDocument, leaks: list[tuple[int, int, str]]) -> None:
        base = self._editor.base_format
        self._fixing = True
        cursor = QTextCursor(doc)
        cursor.joinPreviousEditBlock()
        try:
            for start, end, text in leaks:
                if OBJECT_REPLACEMENT not in text:
                    cursor.setPosition(start)
                    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(base)
                    continue
                offset = 0
                for ch in text:
                    width = 2 if ord(ch) > 0xFFFF else 1
                    cursor.setPosition(start + offset)
                    cursor.setPosition(start + offset + width, QTextCursor.MoveMode.KeepAnchor)
                    offset += width
                    fmt = cursor.charFormat()
                    if ch != OBJECT_REPLACEMENT:
                        cursor.setCharFormat(base)
                    elif not is_chip(fmt):
                        kind, cid = str(fmt.property(KIND)), str(fmt.property(CONTEXT_ID))
                        cursor.setCharFormat(chip_format(kind, cid, str(fmt.property(LABEL)), base))
        finally:
            cursor.endEditBlock()
            self._fixing = False

    # -- the record map ------------------------------------------------------------------------
    def reconcile(self, *, announce: bool) -> bool:
        """Reconcile the record map with the chips; True when the set of chips changed."""
        editor = self._editor
        chips = self.chips()
        counts: Counter[_Key] = Counter((c.kind, c.context_id, c.label) for c in chips)
        result = reconcile(editor.draft, [c.context_id for c in chips])
        if result.changed:
            editor.looks.invalidate()
        changed = counts != self._counts
        if announce and changed:
            gained, lost = counts - self._counts, self._counts - counts
            looks = editor.looks
            for (kind, cid, label), _n in list(gained.items())[:3]:
                editor.a11y.announce(f"{looks.describe_chip(kind, cid, label)} added")
            for (kind, cid, label), _n in list(lost.items())[:3]:
                editor.a11y.announce(f"{looks.describe_chip(kind, cid, label)} removed")
        self._counts = counts
        if changed or result.changed:
            editor.a11y.describe(editor.looks.summary())
            editor.context_changed.emit()
        return changed
