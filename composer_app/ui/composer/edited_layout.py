"""What happens between a change of the composer's document and Qt's layout of it.

Invariants: after every change the chip renderer has forgotten where it measured chips (they may
sit elsewhere now); the edited paragraph keeps its shaped text once laid out
(``QTextLayout.setCacheEnabled``) until its layout goes with the document (a reload, another
draft), because Qt otherwise frees it after every layout and the caret placement and repaint that
follow each keystroke itemize and shape the whole paragraph again, several times; and text that
may run right to left hands paragraph directions back to Qt (``ParagraphDirections``), except
during a load, which decides from its whole text once it is in.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QTextDocument

from composer_app.ui.composer.paragraph_directions import ParagraphDirections


class EditedLayout:
    """The editor's hook before Qt lays a change out (see the module invariants)."""

    def __init__(self, document: Callable[[], QTextDocument], forget_positions: Callable[[], None],
                 loading: Callable[[], bool]) -> None:
        self.directions = ParagraphDirections()
        self._document = document
        self._forget_positions = forget_positions
        self._loading = loading

    def attach(self, doc: QTextDocument) -> None:
        """Decide paragraph directions afresh for ``doc`` (a new document or a loaded draft)."""
        self.directions.attach(doc)

    def before_layout(self, position: int, added: int) -> None:
        """The document changed from ``position`` on (``added`` characters now)."""
        self._forget_positions()
        doc = self._document()
        layout = doc.findBlock(position).layout()
        if layout is not None:
            layout.setCacheEnabled(True)
        if not self._loading():
            self.directions.follow(doc, position, added)
