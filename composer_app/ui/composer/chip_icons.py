"""Small vector icons drawn inside a chip, one per kind, in the chip's text colour.

Invariants: icons are drawn with a cosmetic pen inside the given square-ish rect, so they stay
crisp at any device pixel ratio; an unknown kind draws ``?``.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen

from composer_app.ui.composer.chip_style import glyph


def draw_glyph(p: QPainter, kind: str, rect: QRectF, color: QColor, font: QFont) -> None:
    """Draw the icon of ``kind`` centred in ``rect``."""
    name = kind if kind.startswith("@") else glyph(kind)
    s = min(rect.width(), rect.height()) * 0.62
    box = QRectF(0, 0, s, s)
    box.moveCenter(rect.center())
    p.save()
    pen = QPen(color, max(1.0, s / 9))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    if name.startswith("@") and len(name) > 1:
        _VECTOR[name](p, box)
    else:
        bold = QFont(font)
        bold.setBold(True)
        if len(name) > 1:
            bold.setPointSizeF(max(5.0, bold.pointSizeF() * 0.78))
        p.setFont(bold)
        p.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), name)
    p.restore()


def _image(p: QPainter, b: QRectF) -> None:
    p.drawRoundedRect(b, b.width() / 6, b.width() / 6)
    path = QPainterPath(QPointF(b.left() + b.width() * 0.12, b.bottom() - b.height() * 0.18))
    path.lineTo(b.left() + b.width() * 0.42, b.top() + b.height() * 0.5)
    path.lineTo(b.left() + b.width() * 0.62, b.top() + b.height() * 0.7)
    path.lineTo(b.left() + b.width() * 0.75, b.top() + b.height() * 0.58)
    path.lineTo(b.right() - b.width() * 0.1, b.bottom() - b.height() * 0.2)
    p.drawPath(path)
    p.drawEllipse(QPointF(b.left() + b.width() * 0.7, b.top() + b.height() * 0.3), 0.9, 0.9)


def _file(p: QPainter, b: QRectF) -> None:
    w, h = b.width(), b.height()
    path = QPainterPath(QPointF(b.left() + w * 0.15, b.top()))
    path.lineTo(b.left() + w * 0.6, b.top())
    path.lineTo(b.right() - w * 0.1, b.top() + h * 0.3)
    path.lineTo(b.right() - w * 0.1, b.bottom())
    path.lineTo(b.left() + w * 0.15, b.bottom())
    path.closeSubpath()
    p.drawPath(path)
    p.drawLine(QPointF(b.left() + w * 0.6, b.top()), QPointF(b.left() + w * 0.6, b.top() + h * 0.3))
    p.drawLine(QPointF(b.left() + w * 0.6, b.top() + h * 0.3),
               QPointF(b.right() - w * 0.1, b.top() + h * 0.3))


def _bubble(p: QPainter, b: QRectF) -> None:
    w, h = b.width(), b.height()
    body = QRectF(b.left(), b.top(), w, h * 0.72)
    p.drawRoundedRect(body, w / 5, w / 5)
    p.drawLine(QPointF(b.left() + w * 0.3, body.bottom()), QPointF(b.left() + w * 0.22, b.bottom()))
    p.drawLine(QPointF(b.left() + w * 0.22, b.bottom()), QPointF(b.left() + w * 0.5, body.bottom()))


def _thread(p: QPainter, b: QRectF) -> None:
    _bubble(p, b)
    w, h = b.width(), b.height()
    for y in (0.26, 0.46):
        p.drawLine(QPointF(b.left() + w * 0.25, b.top() + h * y),
                   QPointF(b.right() - w * 0.25, b.top() + h * y))


def _pen(p: QPainter, b: QRectF) -> None:
    w, h = b.width(), b.height()
    p.drawLine(QPointF(b.left() + w * 0.15, b.bottom() - h * 0.15),
               QPointF(b.right() - w * 0.15, b.top() + h * 0.15))
    p.drawLine(QPointF(b.left() + w * 0.1, b.bottom()), QPointF(b.left() + w * 0.35, b.bottom()))
    p.drawEllipse(QPointF(b.right() - w * 0.15, b.top() + h * 0.15), w * 0.1, w * 0.1)


def _pull_request(p: QPainter, b: QRectF) -> None:
    w, h = b.width(), b.height()
    r = w * 0.14
    left, right = b.left() + w * 0.25, b.right() - w * 0.25
    p.drawEllipse(QPointF(left, b.top() + r), r, r)
    p.drawEllipse(QPointF(left, b.bottom() - r), r, r)
    p.drawEllipse(QPointF(right, b.bottom() - r), r, r)
    p.drawLine(QPointF(left, b.top() + 2 * r), QPointF(left, b.bottom() - 2 * r))
    p.drawLine(QPointF(right, b.bottom() - 2 * r), QPointF(right, b.top() + h * 0.3))
    p.drawLine(QPointF(right, b.top() + h * 0.3), QPointF(left + w * 0.2, b.top() + h * 0.12))


def _pending(p: QPainter, b: QRectF) -> None:
    ring = b.adjusted(b.width() * 0.08, b.height() * 0.08, -b.width() * 0.08, -b.height() * 0.08)
    p.drawArc(ring, 90 * 16, -270 * 16)


_VECTOR = {
    "@pending": _pending,
    "@image": _image,
    "@file": _file,
    "@bubble": _bubble,
    "@thread": _thread,
    "@pen": _pen,
    "@pr": _pull_request,
}
