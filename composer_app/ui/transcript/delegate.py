"""``TranscriptDelegate``: paints message rows from cached layouts and keeps row heights honest.

Invariants: ``sizeHint`` never lays a row out (it returns the cached exact height or an estimate);
``paint`` lays out only the row it paints and, when that row's exact height differs from what the
view used, asks for one deferred relayout (immediately when idle, after scrolling pauses otherwise)
instead of one per row; a row is clipped to its rectangle, so it never draws over a neighbour;
``prefetch_rows`` lays out rows next to the viewport in short idle slices.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAbstractTextDocumentLayout, QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from composer_app.ui.transcript.render import BUBBLE_PAD, MARGIN_Y, RowLayout, is_dark
from composer_app.ui.transcript.transcript_logic import TranscriptMessage
from composer_app.ui.transcript.view_actions import STATUS_ICON_W, action_rects

if TYPE_CHECKING:
    from composer_app.ui.transcript.view import TranscriptView

Index = QModelIndex | QPersistentModelIndex
RELAYOUT_DELAY_MS = 120
SCROLL_PAUSE_S = 0.2
PREFETCH_ROWS = 12
PREFETCH_SLICE_S = 0.006
FAILED_COLOUR = "#dc2626"


def _around(first: int, last: int, count: int, extra: int) -> list[int]:
    """Rows just outside ``[first, last]``, nearest first, alternating below and above."""
    out: list[int] = []
    for step in range(1, extra + 1):
        for row in (last + step, first - step):
            if 0 <= row < count:
                out.append(row)
    return out


class TranscriptDelegate(QStyledItemDelegate):
    """Paints one message row from the renderer's cached layout."""

    def __init__(self, view: TranscriptView) -> None:
        super().__init__(view)
        self.view = view
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.timeout.connect(self._on_flush_timeout)
        self.paint_count = 0

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        message = self.view.messages[index.row()]
        width = self.view.width_now
        return QSize(width, self.view.renderer.height(message, width)[0])

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        self.paint_count += 1
        message = self.view.messages[index.row()]
        width = self.view.row_width()
        before = message.size_cache.get(self.view.renderer.size_key(width))
        layout = self.view.layout_for(message, width)
        if before is not None and before[0] != layout.height:
            self.schedule_relayout()
        rect: QRect = option.rect
        painter.save()
        painter.setClipRect(rect)  # until the relayout, a row never draws over its neighbour
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.view.palette()
        if message.role == "user":
            bubble = QRect(
                round(rect.left() + layout.x - BUBBLE_PAD),
                rect.top() + MARGIN_Y,
                round(layout.width + 2 * BUBBLE_PAD),
                layout.text_height + 2 * BUBBLE_PAD,
            )
            dark = is_dark(palette)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor("#2a3140" if dark else "#eef2f8"))
            painter.drawRoundedRect(bubble, 12, 12)
        painter.translate(rect.left() + layout.x, rect.top() + layout.y)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = palette
        context.palette.setColor(QPalette.ColorRole.Text, palette.color(QPalette.ColorRole.Text))
        selection = self.view.selection_in(index.row(), layout)
        if selection is not None:
            context.selections = [selection]
        layout.doc.documentLayout().draw(painter, context)
        painter.restore()
        self._paint_actions(painter, rect, message, layout)
        self._paint_focus(painter, rect, index.row())

    def _paint_focus(self, painter: QPainter, rect: QRect, row: int) -> None:
        """A focus ring around the keyboard-focused chip, token, link or action of ``row``."""
        key = self.view.focus_key()
        item = self.view.focused_item() if key is not None and key[0] == row else None
        if item is None:
            return
        painter.save()
        painter.setClipRect(rect)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(self.view.palette().color(QPalette.ColorRole.Highlight))
        pen.setWidthF(2.0)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QRectF(item.rect).adjusted(-2.5, -1.5, 2.5, 1.5), 6, 6)
        painter.restore()

    def _paint_actions(
        self, painter: QPainter, rect: QRect, message: TranscriptMessage, layout: RowLayout
    ) -> None:
        rects = action_rects(message, layout, rect, self.view.fontMetrics())
        if not rects:
            return
        painter.save()
        muted = self.view.palette().color(QPalette.ColorRole.PlaceholderText)
        hover = self.view.hovered_action()
        for name, text, area in rects:
            if name == "status":
                self._paint_delivery(painter, area, text, message, muted)
                continue
            if hover == (message.message_id, name):
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(self.view.palette().color(QPalette.ColorRole.AlternateBase))
                painter.drawRoundedRect(area.adjusted(-4, 0, 4, 0), 5, 5)
            painter.setPen(
                muted if name == "copy" else self.view.palette().color(QPalette.ColorRole.Link)
            )
            painter.drawText(area, int(Qt.AlignmentFlag.AlignVCenter), text)
        painter.restore()

    def _paint_delivery(self, painter: QPainter, area: QRect, text: str,
                        message: TranscriptMessage, muted: QColor) -> None:
        """A clock (queued) or a red exclamation mark (failed) and the delivery text."""
        failed = message.delivery is not None and message.delivery[0] == "failed"
        colour = QColor(FAILED_COLOUR) if failed else muted
        size = min(area.height() - 4, 13)
        icon = QRectF(area.left() + 1, area.center().y() - size / 2 + 0.5, size, size)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if failed:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colour)
            painter.drawEllipse(icon)
            painter.setPen(QPen(QColor("white"), 1.6))
            cx = icon.center().x()
            painter.drawLine(QPointF(cx, icon.top() + 3), QPointF(cx, icon.bottom() - 5.5))
            painter.drawPoint(QPointF(cx, icon.bottom() - 3))
        else:
            painter.setPen(QPen(colour, 1.3))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(icon.adjusted(0.5, 0.5, -0.5, -0.5))
            centre = icon.center()
            painter.drawLine(centre, QPointF(centre.x(), icon.top() + 3))
            painter.drawLine(centre, QPointF(icon.right() - 3.5, centre.y()))
        painter.setPen(colour)
        painter.drawText(area.adjusted(STATUS_ICON_W, 0, 0, 0), int(Qt.AlignmentFlag.AlignVCenter),
                         text)

    def schedule_relayout(self) -> None:
        """Replace estimated heights: right away when idle, once scrolling pauses otherwise (one
        relayout for many rows, never one per row)."""
        scrolling = time.monotonic() - self.view.last_scroll < SCROLL_PAUSE_S
        if not scrolling and self._flush.isActive():
            return
        self._flush.start(RELAYOUT_DELAY_MS if scrolling else 0)

    def _on_flush_timeout(self) -> None:
        self.view.invalidate_layout()


def prefetch_rows(view: TranscriptView) -> bool:
    """Lay out rows above and below the viewport for at most a few ms (idle time), so the next
    scroll step paints rows already laid out; ``False`` when rows remain for another slice."""
    count = view.model().rowCount()
    first = view.indexAt(QPoint(0, 0)).row()
    last = view.indexAt(QPoint(0, view.viewport().height() - 1)).row()
    if count == 0 or first < 0:
        return True
    last = last if last >= 0 else count - 1
    width = view.row_width()
    key = view.renderer.size_key(width)
    deadline = time.perf_counter() + PREFETCH_SLICE_S
    for row in _around(first, last, count, PREFETCH_ROWS):
        message = view.messages[row]
        cached = message.size_cache.get(key)
        if cached is not None and cached[1]:
            continue
        if time.perf_counter() > deadline:
            return False
        layout = view.layout_for(message, width)
        if cached is not None and cached[0] != layout.height:
            view.delegate().schedule_relayout()
    return True
