"""Pictures the transcript and the Sources panel paint: chips, citation pills and source icons.

Invariants: chips share the composer's tones and glyphs (``chip_style.tone``, ``chip_icons``) so a
chip looks the same in the editor and in the transcript — rounded box, kind glyph, per-kind tone,
dashed outline when unresolved; every picture is drawn locally from bundled shapes (no network, no
favicons) and cached by everything that changes its pixels.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QPixmap

from composer_app.ui.composer.chip_icons import draw_glyph
from composer_app.ui.composer.chip_style import tone
from composer_app.ui.composer.editor_logic import ChipLook

MAX_CHIP_LABEL = 240.0
_PAD = 6.0
_cache: dict[tuple[object, ...], QPixmap] = {}


def _canvas(width: float, height: float, dpr: float) -> tuple[QPixmap, QPainter]:
    if len(_cache) > 2048:
        _cache.clear()
    pix = QPixmap(max(1, round(width * dpr)), max(1, round(height * dpr)))
    pix.setDevicePixelRatio(dpr)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    return pix, painter


def _small(font: QFont) -> QFont:
    small = QFont(font)
    if font.pointSizeF() > 0:
        small.setPointSizeF(font.pointSizeF() * 0.9)
    return small


def chip_pixmap(look: ChipLook, label: str, font: QFont, *, dark: bool, dpr: float) -> QPixmap:
    """A chip the height of one text line: tone fill, glyph, elided label."""
    key = ("chip", look.state, look.tone, look.glyph, label, font.key(), dark, dpr)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    small = _small(font)
    line_h = QFontMetricsF(font).height()
    height = max(10.0, round(line_h) + 1)
    advance = min(QFontMetricsF(small).horizontalAdvance(label), MAX_CHIP_LABEL)
    width = round(_PAD + height * 0.8 + 3 + advance + _PAD)
    pix, p = _canvas(width, height, dpr)
    fill, border, text = (QColor(c) for c in tone(look.tone, dark=dark))
    box = QRectF(0.5, 0.5, width - 1, height - 1)
    pen = QPen(border, 1.0)
    if look.state in ("unresolved", "expired"):
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setDashPattern([3.0, 2.0])
    p.setPen(pen)
    p.setBrush(fill)
    radius = min(6.0, box.height() / 2.6)
    p.drawRoundedRect(box, radius, radius)
    icon = QRectF(_PAD - 1, 0, height * 0.8, height)
    draw_glyph(p, look.glyph, icon, text, small)
    p.setFont(small)
    p.setPen(text)
    label_x = icon.right() + 3
    room = width - label_x - _PAD + 1
    elided = p.fontMetrics().elidedText(label, Qt.TextElideMode.ElideMiddle, int(room))
    p.drawText(
        QRectF(label_x, 0, room + 2, height),
        int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
        elided,
    )
    p.end()
    _cache[key] = pix
    return pix


def token_pixmap(
    number: int, font: QFont, *, dark: bool, dpr: float, active: bool = False
) -> QPixmap:
    """The quiet citation pill: a small muted rounded box with the entry's number."""
    key = ("token", number, font.key(), dark, dpr, active)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    small = QFont(font)
    if font.pointSizeF() > 0:
        small.setPointSizeF(max(6.5, font.pointSizeF() * 0.78))
    small.setBold(True)
    metrics = QFontMetricsF(small)
    height = round(metrics.height() + 3)
    width = max(height + 2, round(metrics.horizontalAdvance(str(number)) + 10))
    pix, p = _canvas(width, height, dpr)
    if active:
        fill, text = ("#1d4ed8", "#ffffff") if not dark else ("#60a5fa", "#0b1220")
    else:
        fill, text = ("#e5e7eb", "#4b5563") if not dark else ("#374151", "#d1d5db")
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(fill))
    p.drawRoundedRect(QRectF(0, 0, width, height), height / 2, height / 2)
    p.setPen(QColor(text))
    p.setFont(small)
    p.drawText(QRectF(0, 0, width, height), int(Qt.AlignmentFlag.AlignCenter), str(number))
    p.end()
    _cache[key] = pix
    return pix


_SOURCE_GLYPH = {"connector-file": "file", "item": "review-comment"}


def source_icon(source_type: str, size: int, color: QColor, dpr: float) -> QPixmap:
    """The bundled icon of a source type (never fetched)."""
    key = ("source", source_type, size, color.name(), dpr)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    pix, p = _canvas(size, size, dpr)
    rect = QRectF(0, 0, size, size)
    if source_type in _SOURCE_GLYPH:
        draw_glyph(p, _SOURCE_GLYPH[source_type], rect.adjusted(-2, -2, 2, 2), color, QFont())
    else:
        pen = QPen(color, max(1.0, size / 11))
        p.setPen(pen)
        b = rect.adjusted(size * 0.14, size * 0.18, -size * 0.14, -size * 0.18)
        if source_type == "email":
            p.drawRoundedRect(b, 1.5, 1.5)
            p.drawLine(b.topLeft(), QPointF(b.center().x(), b.center().y() + 1))
            p.drawLine(QPointF(b.center().x(), b.center().y() + 1), b.topRight())
        elif source_type == "calendar-event":
            p.drawRoundedRect(b, 1.5, 1.5)
            p.drawLine(
                QPointF(b.left(), b.top() + b.height() * 0.32),
                QPointF(b.right(), b.top() + b.height() * 0.32),
            )
        elif source_type == "contact":
            p.drawEllipse(QPointF(rect.center().x(), size * 0.36), size * 0.16, size * 0.16)
            p.drawArc(QRectF(size * 0.22, size * 0.58, size * 0.56, size * 0.5), 0, 180 * 16)
        else:  # external-link: a globe
            p.drawEllipse(b.center(), b.height() / 2, b.height() / 2)
            p.drawEllipse(b.center(), b.height() / 5, b.height() / 2)
            p.drawLine(
                QPointF(b.center().x() - b.height() / 2, b.center().y()),
                QPointF(b.center().x() + b.height() / 2, b.center().y()),
            )
    p.end()
    _cache[key] = pix
    return pix
