"""``DropRelay``: files and images dropped anywhere in the centre attach to the composer.

Drags over the transcript or the empty-thread page (``sources``) are accepted when the composer
would accept the same data, and a drop there goes the composer's own paste-and-drop path at its
caret. While anything the composer accepts is dragged over it or over a source, ``highlight``
(``DropHighlight``, object name ``composerDropHighlight``) outlines the composer.

Invariants: the relay never reads the disk during drag moves (``canInsertFromMimeData`` only);
drops on the composer itself stay the composer's (the relay only shows the outline there); the
outline is an overlay, so the editor's fonts, palette and document are never touched.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QDropEvent, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QWidget

from composer_app.ui.composer.editor import ComposerEditor

__all__ = ["DropHighlight", "DropRelay"]

DROP_TEXT = "Drop to attach"


class DropHighlight(QWidget):
    """A dashed outline with "Drop to attach" over the composer; transparent to the mouse."""

    def __init__(self, editor: ComposerEditor) -> None:
        super().__init__(editor)
        self.setObjectName("composerDropHighlight")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAccessibleName(DROP_TEXT)
        self.hide()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = self.palette().color(QPalette.ColorRole.Highlight)
        fill = colour.lighter(180) if colour.lightness() < 160 else colour
        fill.setAlpha(40)
        painter.setBrush(fill)
        painter.setPen(QPen(colour, 2, Qt.PenStyle.DashLine))
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), 6, 6)
        painter.setPen(colour)
        painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, DROP_TEXT)
        painter.end()


class DropRelay(QObject):
    """Relays drops on ``sources`` to ``editor`` and outlines the editor while dragging."""

    def __init__(self, editor: ComposerEditor, sources: list[QWidget],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._editor = editor
        self._sources = list(sources)
        self.highlight = DropHighlight(editor)
        for source in self._sources:
            source.setAcceptDrops(True)
            source.installEventFilter(self)
        editor.viewport().installEventFilter(self)

    def _show(self, on: bool) -> None:
        if on:
            self.highlight.setGeometry(self._editor.rect())
            self.highlight.show()
            self.highlight.raise_()
        else:
            self.highlight.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and isinstance(
                event, QDropEvent):
            wanted = self._editor.isEnabled() and self._editor.canInsertFromMimeData(
                event.mimeData())
            self._show(wanted)
            if watched in self._sources:
                if wanted:
                    event.acceptProposedAction()
                else:
                    event.ignore()
                return True
            return False
        if kind in (QEvent.Type.DragLeave, QEvent.Type.Drop):
            self._show(False)
            if kind == QEvent.Type.Drop and watched in self._sources and isinstance(
                    event, QDropEvent):
                if self._editor.isEnabled() and self._editor.canInsertFromMimeData(
                        event.mimeData()):
                    event.acceptProposedAction()
                    self._editor.setFocus()
                    self._editor.insertFromMimeData(event.mimeData())
                return True
        return False
