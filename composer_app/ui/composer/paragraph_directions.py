"""Paragraph directions: how Qt learns which way each paragraph of the composer runs.

Qt resolves an automatic paragraph direction (``QTextBlock.textDirection``) by walking the
paragraph's text fragments to its first strong character, and its layout does so for every
paragraph after an edit, on every keystroke. Chips make the fragment map large (each chip is a
fragment of its own), so that walk misses the caches paragraph after paragraph: in a long draft it
was most of what a keystroke cost beyond a plain editor. In a document without a right-to-left
character every paragraph runs left to right either way, so the document then says so in its
default text option and Qt takes it without a walk; the first right-to-left character (typed,
pasted, loaded or brought back by undo) hands every paragraph back to Qt's automatic direction.

Invariants: the document's default direction is left to right only while its text holds no
character that may be right to left (bidirectional class ``R`` or ``AL``, or unassigned in this
Python's Unicode data above U+0590), and automatic otherwise, so every paragraph runs exactly as
Qt's automatic direction runs it; once automatic, a document stays so until it is loaded again; the
text is never changed and nothing enters the undo history; a keystroke costs at most one character
read.
"""

from __future__ import annotations

import re
import unicodedata

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor, QTextDocument

_FIRST_RIGHT_TO_LEFT = "\u0590"
"""No character below Hebrew is right to left (Qt's own bidi shortcut uses the same bound)."""
_CANDIDATES = re.compile("[\u0590-\u2028\u202a-\ud7ff\ue000-\ufffb\ufffd-\U0010ffff]")
"""Characters that may be right to left: from Hebrew on, less the paragraph separator, the
surrogate halves and U+FFFC (a chip)."""
_RIGHT_TO_LEFT_CLASSES = frozenset({"R", "AL", ""})
_LEFT_TO_RIGHT = Qt.LayoutDirection.LeftToRight
_AUTOMATIC = Qt.LayoutDirection.LayoutDirectionAuto


def has_right_to_left(text: str) -> bool:
    """True when ``text`` holds a character that may be right to left."""
    bidirectional = unicodedata.bidirectional
    return any(bidirectional(char) in _RIGHT_TO_LEFT_CLASSES
               for char in set(_CANDIDATES.findall(text)))


class ParagraphDirections:
    """Keeps one editor's document left to right by default while it can, automatic after."""

    def __init__(self) -> None:
        self.automatic = True
        """True while paragraphs get Qt's automatic direction (the document may run right to
        left somewhere)."""

    def attach(self, doc: QTextDocument) -> None:
        """Decide from the whole text of ``doc`` (a new document, or one just loaded)."""
        self._use(doc, automatic=has_right_to_left(doc.toRawText()))

    def follow(self, doc: QTextDocument, position: int, added: int) -> None:
        """``added`` characters arrived at ``position``: the first that may run right to left
        makes the document automatic (before Qt lays the change out)."""
        if self.automatic or not added:
            return
        if added == 1:
            text = doc.characterAt(position)
            if text < _FIRST_RIGHT_TO_LEFT:
                return  # the typing path: one character read
        else:
            cursor = QTextCursor(doc)
            cursor.setPosition(position)
            end = min(position + added, doc.characterCount() - 1)  # the last separator is no text
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            text = cursor.selectedText()
        if has_right_to_left(text):
            self._use(doc, automatic=True)

    def _use(self, doc: QTextDocument, *, automatic: bool) -> None:
        self.automatic = automatic
        option = doc.defaultTextOption()
        wanted = _AUTOMATIC if automatic else _LEFT_TO_RIGHT
        if option.textDirection() != wanted:
            option.setTextDirection(wanted)
            doc.setDefaultTextOption(option)
