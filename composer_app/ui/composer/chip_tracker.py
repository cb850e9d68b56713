"""Keeps the draft model in step with the document after every edit.

Invariants: text never keeps chip properties (the leak guard resets it to the base format, joining
the user's undo step, never during undo/redo or while loading); the record map is reconciled
whenever chips may have appeared or disappeared (so undo brings a record back from the tombstones);
plain typing never walks the document; every chip that appears or disappears is announced.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument

from composer_app.core.document.edits import reconcile
from composer_app.core.document.segments import OBJECT_REPLACEMENT
from composer_app.core.text import utf16_len
from composer_app.ui.composer.chips import CONTEXT_ID, KIND, LABEL, chip_format, is_chip
from composer_app.ui.composer.document_bridge import ChipOccurrence, chip_occurrences, format_runs

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor

_Key = tuple[str, str, str]


class ChipTracker:
    """Watches one editor's document: leak guard, reconciling, announcements."""

    def __init__(self, editor: ComposerEditor, on_change: Callable[[], None]) -> None:
        self._editor = editor
        self._on_change = on_change
        self._fixing = False
        self._chip_count = 0
        self._counts: Counter[_Key] = Counter()
        self.occurrences: list[ChipOccurrence] = []

    def attach(self, doc: QTextDocument) -> None:
        """Follow ``doc`` (call after every ``setDocument``)."""
        doc.contentsChange.connect(self._on_document_contents_change)

    def _on_document_contents_change(self, pos: int, removed: int, added: int) -> None:
        editor = self._editor
        if self._fixing or editor.loading:
            return
        doc = editor.document()
        chips_added = False
        leaks: list[tuple[int, int, str]] = []
        end = min(pos + added, doc.characterCount() - 1)
        if added == 1 and not removed:
            fmt = self._probe_format(doc, pos)
            chip = is_chip(fmt)
            if chip:
                chips_added = True
            elif fmt.hasProperty(KIND):
                leaks.append((pos, pos + 1, doc.characterAt(pos)))
        elif added:
            for run_pos, text, fmt in format_runs(doc, pos, end):
                chip = is_chip(fmt)
                if OBJECT_REPLACEMENT in text and chip:
                    chips_added = True
                if fmt.hasProperty(KIND) and (not chip or text.strip(OBJECT_REPLACEMENT)):
                    leaks.append((run_pos, run_pos + utf16_len(text), text))
        if leaks and not editor.performing_undo_redo:
            self._fix(doc, leaks)
        if chips_added or (removed and self._count(doc) != self._chip_count):
            self.reconcile(announce=True)
        self._on_change()

    @staticmethod
    def _probe_format(doc: QTextDocument, pos: int) -> QTextCharFormat:
        # A fresh cursor each time: a long-lived one dangles after ``QTextDocument.clear()``.
        probe = QTextCursor(doc)
        probe.setPosition(pos + 1)
        return probe.charFormat()

    def _count(self, doc: QTextDocument) -> int:
        return doc.toRawText().count(OBJECT_REPLACEMENT)

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

    def reconcile(self, *, announce: bool) -> bool:
        """Re-read the chips, reconcile the record map; True when the set of chips changed."""
        editor = self._editor
        occurrences = chip_occurrences(editor.document())
        self.occurrences = occurrences
        self._chip_count = self._count(editor.document())
        counts: Counter[_Key] = Counter((o.kind, o.context_id, o.label) for o in occurrences)
        result = reconcile(editor.draft, [o.context_id for o in occurrences])
        if result.changed:
            editor.invalidate_looks()
        changed = counts != self._counts
        if announce and changed:
            gained, lost = counts - self._counts, self._counts - counts
            for (kind, cid, label), _n in list(gained.items())[:3]:
                editor.a11y.announce(f"{editor.describe_chip(kind, cid, label)} added")
            for (kind, cid, label), _n in list(lost.items())[:3]:
                editor.a11y.announce(f"{editor.describe_chip(kind, cid, label)} removed")
        self._counts = counts
        if changed or result.changed:
            editor.a11y.describe(editor.chip_summary())
            editor.context_changed.emit()
        return changed
