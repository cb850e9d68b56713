"""Chips as inline text objects: the char format, and the one handler that paints every kind.

Invariants: a chip is one U+FFFC whose format has ``objectType() == CHIP_OBJECT_TYPE`` and four
string properties (reference id, kind, context id, label); the reference id is fresh for every
occurrence, so identical neighbours never merge; the renderer subclasses ``QPyTextObject`` (a
``QTextObjectInterface`` mix-in is silently ignored) and never raises out of a virtual; a chip
sits on the text baseline and its pill fits in ``line_minimum``, the height every line of the editor
gets, so lines with and without chips are equally tall and never jump.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable

from PySide6.QtCore import QObject, QPointF, QRect, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QPainter,
    QPen,
    QPixmap,
    QPyTextObject,
    QTextCharFormat,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QWidget

from composer_app.ui.composer.chip_icons import draw_glyph
from composer_app.ui.composer.chip_style import tone
from composer_app.ui.composer.editor_logic import ChipLook

_log = logging.getLogger(__name__)

CHIP_OBJECT_TYPE = int(QTextFormat.ObjectTypes.UserObject.value) + 1
_USER = int(QTextFormat.Property.UserProperty.value)
REFERENCE_ID = _USER + 1
KIND = _USER + 2
CONTEXT_ID = _USER + 3
LABEL = _USER + 4
CHIP_PROPERTIES = (REFERENCE_ID, KIND, CONTEXT_ID, LABEL)
MAX_LABEL_WIDTH = 240.0
_PAD = 6.0


def new_reference_id() -> str:
    """A fresh per-occurrence id ``ref_<32 hex>`` (128 random bits, like a version 4 UUID)."""
    return "ref_" + os.urandom(16).hex()


def new_reference_ids(count: int) -> list[str]:
    """``count`` fresh reference ids at once (one call for the random bits of a whole load)."""
    bits = os.urandom(16 * count).hex()
    return ["ref_" + bits[start : start + 32] for start in range(0, 32 * count, 32)]


def small_font(font: QFont) -> QFont:
    """The chip label font: 90 % of the editor font."""
    small = QFont(font)
    if font.pointSizeF() > 0:
        small.setPointSizeF(font.pointSizeF() * 0.9)
    else:
        small.setPixelSize(max(8, round(font.pixelSize() * 0.9)))
    return small


def chip_extent(font: QFont) -> tuple[float, float]:
    """How far a chip's pill reaches above and below the text baseline in ``font``.

    The chip object sits on the baseline (its layout height is the part above); the pill is
    painted a little into the descent, so the label shares the baseline of the text around it.
    """
    fm = QFontMetricsF(small_font(font))
    return float(math.ceil(fm.capHeight() + 3.5)), float(math.ceil(fm.descent() + 1.5))


def line_minimum(font: QFont) -> float:
    """The height every line gets, so lines with chips and lines without are equally tall."""
    fm = QFontMetricsF(font)
    above, below = chip_extent(font)
    return float(math.ceil(max(fm.ascent(), above) + max(fm.descent(), below)) + 4)


def chip_format(kind: str, context_id: str, label: str, base: QTextCharFormat) -> QTextCharFormat:
    """The char format of one chip occurrence (a fresh reference id every call)."""
    fmt = QTextCharFormat(base)
    fmt.setObjectType(CHIP_OBJECT_TYPE)
    fmt.setProperty(REFERENCE_ID, new_reference_id())
    fmt.setProperty(KIND, kind)
    fmt.setProperty(CONTEXT_ID, context_id)
    fmt.setProperty(LABEL, label)
    return fmt


def is_chip(fmt: QTextFormat) -> bool:
    """True for the format of a chip object."""
    return fmt.objectType() == CHIP_OBJECT_TYPE


LookFn = Callable[[str, str, str], ChipLook]
SelectedFn = Callable[[int], bool]

_string_property = QTextFormat.stringProperty
"""Called unbound on the hot paths: looking a method up on a Qt wrapper costs more than the call."""


class _RendererState:
    """What the renderer keeps between calls, in a plain object.

    Qt calls the renderer about forty times per keystroke; reading an attribute of a Qt wrapper
    costs several times a plain object's, and setting one about 3 µs, so the hot paths read one
    attribute of the wrapper (this object) and everything else from here.
    """

    __slots__ = ("at", "dark", "fonts", "look", "painted", "pixmaps", "placed", "selected",
                 "sizes")

    def __init__(self, look: LookFn, selected: SelectedFn, dark: Callable[[], bool]) -> None:
        self.look = look
        self.selected = selected
        self.dark = dark
        self.sizes: dict[str, QSizeF] = {}
        # the size of the chip at each document position, until the document changes
        self.at: dict[int, QSizeF] = {}
        # keyed by (kind, context id, label, selected, device pixel ratio)
        self.pixmaps: dict[tuple[str, str, str, bool, float], QPixmap] = {}
        # the picture each chip occurrence last painted with, keyed by (reference id, selected):
        # a repaint reads one property of the chip and makes no other call into Qt
        self.placed: dict[tuple[str, bool], QPixmap] = {}
        self.fonts: tuple[QFont, QFont] | None = None
        self.painted = 0


class ChipRenderer(QPyTextObject):
    """Measures and paints chips; looks state up through ``look(kind, context_id, label)``.

    Sizes are cached by label (and by position until the document changes: ``forget_positions``)
    and pictures by what the chip is (each occurrence remembers its picture by reference id); the
    caches belong to one document, one editor font and one device pixel ratio, so the editor calls
    ``invalidate`` whenever one of them changes (a new document, a font change, a move to a screen
    of another ratio) and ``forget_pictures`` when looks change.
    """

    def __init__(self, look: LookFn, selected: SelectedFn, dark: Callable[[], bool],
                 parent: QObject) -> None:
        super().__init__(parent)
        self._state = _RendererState(look, selected, dark)

    @property
    def paint_count(self) -> int:
        """How many chips were painted (a health check for tests)."""
        return self._state.painted

    def invalidate(self) -> None:
        """Forget cached sizes and pictures (theme, font or document changed)."""
        state = self._state
        state.sizes.clear()
        state.at.clear()
        state.pixmaps.clear()
        state.placed.clear()
        state.fonts = None

    def forget_positions(self) -> None:
        """The document changed, so chips may sit elsewhere: call before Qt lays the change out.

        The editor calls it first thing on every ``contentsChange`` (its chip tracker's slot hands
        the change over), which Qt emits before it lays out what changed.
        """
        self._state.at.clear()

    def forget_pictures(self) -> None:
        """Forget painted chips (their looks changed: records, states or uploads)."""
        self._state.pixmaps.clear()
        self._state.placed.clear()

    @staticmethod
    def _fonts(state: _RendererState, fmt: QTextFormat, doc: object) -> tuple[QFont, QFont]:
        fonts = state.fonts
        if fonts is None:
            font = QFont(fmt.toCharFormat().font())
            if isinstance(doc, QTextDocument):
                font = font.resolve(doc.defaultFont())
            fonts = state.fonts = (font, small_font(font))
        return fonts

    def intrinsicSize(self, doc: object, pos: int, fmt: QTextFormat) -> QSizeF:
        # Chip formats carry the editor font (from the base format), so the size depends on the
        # label only (every kind has the same icon width) until ``invalidate``. Qt asks again for
        # every chip of a line each time it walks the line (layout, cursor, painting), about forty
        # times per keystroke: a hit is one dict look-up by position (no call into Qt), the first
        # ask after an edit one property read and one more look-up.
        state = self._state
        try:
            size = state.at.get(pos)
            if size is None:
                label = _string_property(fmt, LABEL)
                size = state.sizes.get(label)
                if size is None:
                    size = state.sizes[label] = self._measure(state, fmt, doc, label)
                state.at[pos] = size
            return size
        except Exception:
            _log.exception("chip measure failed")
            return QSizeF(16, 12)

    def _measure(self, state: _RendererState, fmt: QTextFormat, doc: object,
                 label: str) -> QSizeF:
        font, small = self._fonts(state, fmt, doc)
        above, below = chip_extent(font)
        advance = QFontMetricsF(small).horizontalAdvance(label)
        width = _PAD + (above + below) * 0.8 + 3 + min(advance, MAX_LABEL_WIDTH) + _PAD
        return QSizeF(round(width), above)

    def drawObject(self, painter: QPainter, area: QRectF | QRect, doc: object, pos: int,
                   fmt: QTextFormat) -> None:
        # Painting asks for every chip of a repainted line on every keystroke: a hit is one
        # property read (the reference id) and one dict look-up. A miss finds the picture by what
        # the chip is, drawn at the painter's device pixel ratio; pictures are forgotten when
        # looks, theme, font or ratio change (``forget_pictures``, ``invalidate``).
        state = self._state
        try:
            state.painted += 1
            key = (_string_property(fmt, REFERENCE_ID), state.selected(pos))
            pix = state.placed.get(key)
            if pix is None:
                pix = self._picture(state, painter, area, doc, fmt, key[1])
                if key[0]:  # a chip without its reference id is looked up by what it is
                    if len(state.placed) > 8192:
                        state.placed.clear()
                    state.placed[key] = pix
            painter.drawPixmap(area.topLeft(), pix)
        except Exception:
            _log.exception("chip paint failed")
            painter.save()
            painter.setPen(QColor("#94a3b8"))
            painter.drawRect(QRectF(area).adjusted(0.5, 0.5, -0.5, -0.5))
            painter.restore()

    def _picture(self, state: _RendererState, painter: QPainter, area: QRectF | QRect,
                 doc: object, fmt: QTextFormat, selected: bool) -> QPixmap:
        kind = _string_property(fmt, KIND)
        context_id = _string_property(fmt, CONTEXT_ID)
        label = _string_property(fmt, LABEL)
        device = painter.device()
        dpr = device.devicePixelRatioF() if device is not None else 1.0
        key = (kind, context_id, label, selected, dpr)
        pix = state.pixmaps.get(key)
        if pix is None:
            if len(state.pixmaps) > 1024:
                state.pixmaps.clear()
            look = state.look(kind, context_id, label)
            font, small = self._fonts(state, fmt, doc)
            above, below = chip_extent(font)
            size = QSizeF(area.width(), above + below)
            pix = state.pixmaps[key] = self._render(look, label, selected, size, dpr, small, above)
        return pix

    def _render(self, look: ChipLook, label: str, selected: bool, size: QSizeF, dpr: float,
                font: QFont, baseline: float) -> QPixmap:
        pix = QPixmap(max(1, round(size.width() * dpr)), max(1, round(size.height() * dpr)))
        pix.setDevicePixelRatio(dpr)
        pix.fill(Qt.GlobalColor.transparent)
        p = QPainter(pix)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        fill, border, text = (QColor(c) for c in tone(look.tone, dark=self._state.dark()))
        if selected:
            owner = self.parent()
            palette = owner.palette() if isinstance(owner, QWidget) else QGuiApplication.palette()
            fill = palette.highlight().color()
            border = fill.darker(115)
            text = palette.highlightedText().color()
        box = QRectF(0.5, 0.5, size.width() - 1, size.height() - 1)
        radius = min(6.0, box.height() / 2.6)
        pen = QPen(border, 1.0)
        if look.state == "unresolved":
            pen.setStyle(Qt.PenStyle.DashLine)
            pen.setDashPattern([3.0, 2.0])
        elif look.state == "expired":
            pen.setWidthF(1.4)
            pen.setStyle(Qt.PenStyle.DashLine)
            pen.setDashPattern([3.0, 2.0])
        p.setPen(pen)
        p.setBrush(fill)
        p.drawRoundedRect(box, radius, radius)
        icon_w = size.height() * 0.8
        icon = QRectF(_PAD - 1, 0, icon_w, size.height())
        if look.state == "pending":
            draw_glyph(p, "@pending", icon, text, font)
        else:
            draw_glyph(p, look.glyph, icon, text, font)
        p.setFont(font)
        p.setPen(text)
        label_x = icon.right() + 3
        width = size.width() - label_x - _PAD + 1
        elided = p.fontMetrics().elidedText(label, Qt.TextElideMode.ElideMiddle, int(width))
        p.drawText(QPointF(label_x, baseline), elided)
        p.end()
        return pix
