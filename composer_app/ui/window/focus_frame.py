"""``FocusFrame``: a clearly visible frame around the pane that F6 moved the keyboard focus to.

Invariants: the frame is drawn over the window (a child that takes no mouse or keyboard input)
along the edge of the framed pane, in the palette's highlight colour, ``WIDTH`` pixels wide; it
follows the pane's geometry while shown; it hides as soon as the focus leaves that pane (a click
elsewhere, Tab out of it) or the pane hides.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QApplication, QWidget

__all__ = ["FocusFrame"]

WIDTH = 2


class FocusFrame(QWidget):
    """The frame over one pane of ``window``."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("paneFocusFrame")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.pane: QWidget | None = None
        self.hide()
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)

    def frame(self, pane: QWidget) -> None:
        """Show the frame around ``pane`` until the focus leaves it."""
        if self.pane is not None:
            self.pane.removeEventFilter(self)
        self.pane = pane
        pane.installEventFilter(self)
        self._place()
        self.show()
        self.raise_()

    def release(self) -> None:
        """Hide the frame."""
        if self.pane is not None:
            self.pane.removeEventFilter(self)
        self.pane = None
        self.hide()

    def _place(self) -> None:
        if self.pane is None:
            return
        parent = self.parentWidget()
        if parent is None:
            return
        top_left = self.pane.mapTo(parent, self.pane.rect().topLeft())
        self.setGeometry(QRect(top_left, self.pane.size()))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.pane:
            if event.type() in (QEvent.Type.Move, QEvent.Type.Resize):
                self._place()
            elif event.type() == QEvent.Type.Hide:
                self.release()
        return super().eventFilter(watched, event)

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        pane = self.pane
        if pane is not None and not (new is pane or (new is not None
                                                     and pane.isAncestorOf(new))):
            self.release()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), WIDTH)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(pen)
        painter.drawRect(self.rect().adjusted(WIDTH // 2, WIDTH // 2,
                                              -(WIDTH + 1) // 2, -(WIDTH + 1) // 2))
