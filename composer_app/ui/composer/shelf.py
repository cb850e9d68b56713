"""``AttachmentShelf``: the thumbnail shelf under the composer (a real list view over a model).

Invariants: it shows every image of the draft (with its name and upload state) and, after them,
every other context item that has chips, so each chip is reachable by keyboard and screen reader; it
is keyboard reachable (Tab), Delete or Backspace removes the current item and Enter or Space does
what a click on its chip does (retries a failed upload, else opens what it points at); each item has
a remove button; removing an item that chips still reference asks ``Remove {name} from the
message?`` / ``Removing it also removes every reference.`` first, and then removes the item and
every chip pointing at it in one undo step; thumbnails are decoded off the GUI thread; the shelf
hides itself when it is empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QHelpEvent,
    QImage,
    QImageReader,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QListView,
    QMessageBox,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolTip,
    QWidget,
)

from composer_app.ui.composer.attachments_logic import (
    Notice,
    ShelfRow,
    removal_confirmation,
    row_detail,
    shelf_rows,
)
from composer_app.ui.composer.chip_icons import draw_glyph
from composer_app.ui.composer.chip_style import tone
from composer_app.ui.composer.shelf_model import ROW_ROLE, THUMBNAIL_ROLE, ShelfModel

if TYPE_CHECKING:
    from PySide6.QtCore import QAbstractItemModel

    from composer_app.ui.composer.editor import ComposerEditor

THUMBNAIL_SIZE = 56
"""Side of an image tile (and height of every tile), in device-independent pixels."""
CARD_WIDTH = 160
"""Width of a mirrored context item (file, excerpt, review…): icon, name and kind."""
SPACING = 4
_REMOVE_SIZE = 18
_BADGE_HEIGHT = 16
_RADIUS = 6.0
_Index = QModelIndex | QPersistentModelIndex


def confirmation_box(parent: QWidget | None, notice: Notice) -> QMessageBox:
    """The removal question as a message box (Remove / Cancel, Cancel by default)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("Remove attachment")
    box.setText(notice.title)
    box.setInformativeText(notice.detail)
    remove = box.addButton("Remove", QMessageBox.ButtonRole.DestructiveRole)
    remove.setObjectName("remove")
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    return box


def ask(parent: QWidget | None, notice: Notice) -> bool:
    """Ask ``notice`` modally; True when the user chose Remove."""
    box = confirmation_box(parent, notice)
    box.exec()
    clicked = box.clickedButton()
    return clicked is not None and clicked.objectName() == "remove"


def load_thumbnail(path: str, size: int = 2 * THUMBNAIL_SIZE) -> QImage:
    """A thumbnail covering a ``size`` square (safe on a worker thread; null on failure).

    Scaled so the short side is ``size`` (twice the tile, sharp on HiDPI screens); the tile
    shows its centre.
    """
    reader = QImageReader(path)
    reader.setAutoTransform(True)
    full = reader.size()
    if full.isValid() and (full.width() > size or full.height() > size):
        reader.setScaledSize(full.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatioByExpanding))
    return reader.read()


def tile_size(row: ShelfRow | None) -> QSize:
    """An image is a square thumbnail; any other item a card of the same height."""
    width = THUMBNAIL_SIZE if row is None or row.is_image else CARD_WIDTH
    return QSize(width, THUMBNAIL_SIZE)


def remove_rect(tile: QRect) -> QRect:
    """The remove button of a tile: a small circle inside its top-right corner."""
    return QRect(tile.right() - _REMOVE_SIZE - 2, tile.top() + 3, _REMOVE_SIZE, _REMOVE_SIZE)


def badge_text(row: ShelfRow) -> str:
    """The text badge of a tile: ``Retry`` (failed upload), ``Missing`` (unresolved) or ``""``.

    Bytes in transit (queued, uploading, a pasted attachment still arriving) show a progress ring
    instead (``transit_progress``); the spoken name says the same in words.
    """
    upload = row.upload
    if upload is not None and upload.failed:
        return "Retry"
    if row.state == "unresolved":
        return "Missing"
    return ""


def progress_ring_rect(is_image: bool, tile: QRectF) -> QRectF:
    """Where the progress ring of a tile goes: the middle of an image, the icon's place on a
    file card — never over the file's name."""
    ring = QRectF(0, 0, 26, 26)
    ring.moveCenter(tile.center() if is_image
                    else QPointF(tile.left() + _CARD_ICON_CENTRE, tile.center().y()))
    return ring


def card_text_left(tile: QRectF) -> float:
    """Where a file card's name and detail begin (after its 22 px icon)."""
    return tile.left() + _CARD_ICON_CENTRE + 11 + 8


_CARD_ICON_CENTRE = 8 + 11
"""The icon of a file card is 22 px wide, 8 px in from the tile's left edge."""


def transit_progress(row: ShelfRow) -> float | None:
    """``None`` when nothing is in transit, else the fraction sent (0 when unknown)."""
    upload = row.upload
    if upload is not None and upload.busy:
        return upload.progress if upload.state == "uploading" else 0.0
    if row.state == "pending":
        return 0.0
    return None


class _ShelfDelegate(QStyledItemDelegate):
    """Paints each tile (thumbnail or card, remove button, upload badge); handles its clicks."""

    def __init__(self, shelf: AttachmentShelf) -> None:
        super().__init__(shelf)
        self._shelf = shelf

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        return tile_size(index.data(ROW_ROLE))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        row: ShelfRow | None = index.data(ROW_ROLE)
        if row is None:
            return
        painter.save()
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            tile = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
            palette = option.palette
            dark = palette.base().color().lightness() < 128
            clip = QPainterPath()
            clip.addRoundedRect(tile, _RADIUS, _RADIUS)
            thumb = index.data(THUMBNAIL_ROLE)
            if row.is_image and isinstance(thumb, QPixmap) and not thumb.isNull():
                painter.save()
                painter.setClipPath(clip)
                painter.drawPixmap(tile, thumb, _centre_square(thumb, tile))
                painter.restore()
            else:
                fill, _border, text = (QColor(c) for c in tone(
                    "unresolved" if row.state == "unresolved" else row.kind, dark=dark))
                painter.fillPath(clip, fill if not row.is_image else palette.alternateBase())
                self._paint_card(painter, tile, row, text, palette, option)
            self._paint_frame(painter, tile, option, palette)
            self._paint_badge(painter, tile, row, option)
            self._paint_remove(painter, remove_rect(option.rect), option)
        finally:
            painter.restore()

    def _paint_card(self, painter: QPainter, tile: QRectF, row: ShelfRow, ink: QColor,
                    palette: QPalette, option: QStyleOptionViewItem) -> None:
        font = QFont(option.font)
        if row.is_image:  # still loading: the kind's glyph, centred
            draw_glyph(painter, "image", tile.adjusted(16, 16, -16, -16), ink, font)
            return
        icon = QRectF(tile.left() + _CARD_ICON_CENTRE - 11, tile.center().y() - 11, 22, 22)
        if transit_progress(row) is None:  # while bytes travel the ring takes the icon's place
            draw_glyph(painter, row.kind, icon, ink, font)
        left = card_text_left(tile)
        width = int(tile.right() - left - _REMOVE_SIZE - 4)
        name_font = QFont(font)
        name_font.setWeight(QFont.Weight.DemiBold)
        fm = QFontMetricsF(name_font)
        painter.setFont(name_font)
        painter.setPen(palette.text().color())
        y = tile.center().y() - 2
        painter.drawText(QPointF(left, y), fm.elidedText(row.name, Qt.TextElideMode.ElideMiddle,
                                                         width))
        small = QFont(font)
        if font.pointSizeF() > 0:
            small.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        painter.setFont(small)
        muted = QColor(palette.text().color())
        muted.setAlpha(165)
        painter.setPen(muted)
        detail = row_detail(row)
        painter.drawText(QPointF(left, y + QFontMetricsF(small).height() + 1),
                         QFontMetricsF(small).elidedText(detail, Qt.TextElideMode.ElideRight,
                                                         width))

    def _paint_frame(self, painter: QPainter, tile: QRectF, option: QStyleOptionViewItem,
                     palette: QPalette) -> None:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        current = bool(option.state & QStyle.StateFlag.State_Selected) and self._shelf.hasFocus()
        if current:  # a focus ring that shows on any thumbnail: highlight outside, base inside
            painter.setPen(QPen(palette.highlight().color(), 2.0))
            painter.drawRoundedRect(tile.adjusted(0.5, 0.5, -0.5, -0.5), _RADIUS, _RADIUS)
            painter.setPen(QPen(palette.base().color(), 1.0))
            painter.drawRoundedRect(tile.adjusted(2, 2, -2, -2), _RADIUS - 2, _RADIUS - 2)
        else:
            border = QColor(palette.text().color())
            border.setAlpha(40)
            painter.setPen(QPen(border, 1.0))
            painter.drawRoundedRect(tile, _RADIUS, _RADIUS)

    def _paint_badge(self, painter: QPainter, tile: QRectF, row: ShelfRow,
                     option: QStyleOptionViewItem) -> None:
        """A progress ring in the middle while bytes travel; a pill bottom-left for trouble."""
        progress = transit_progress(row)
        if progress is not None:
            ring = progress_ring_rect(row.is_image, tile)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(15, 23, 42, 190))
            painter.drawEllipse(ring)
            track = ring.adjusted(5, 5, -5, -5)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor(255, 255, 255, 70), 2.2))
            painter.drawEllipse(track)
            pen = QPen(QColor("white"), 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            # Unknown progress (most uploads report only start and end): a quarter arc.
            span = max(progress, 0.25) if progress < 1 else 1.0
            painter.drawArc(track, 90 * 16, -round(span * 360 * 16))
        text = badge_text(row)
        if not text:
            return
        font = QFont(option.font)
        font.setPixelSize(9)
        font.setWeight(QFont.Weight.DemiBold)
        fm = QFontMetricsF(font)
        badge = QRectF(tile.left() + 3, tile.bottom() - _BADGE_HEIGHT - 3,
                       min(fm.horizontalAdvance(text) + 10, tile.width() - 6), _BADGE_HEIGHT)
        failed = row.upload is not None and row.upload.failed
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#dc2626") if failed else QColor(71, 85, 105, 230))
        painter.drawRoundedRect(badge, _BADGE_HEIGHT / 2, _BADGE_HEIGHT / 2)
        painter.setFont(font)
        painter.setPen(QColor("white"))
        painter.drawText(badge, int(Qt.AlignmentFlag.AlignCenter),
                         fm.elidedText(text, Qt.TextElideMode.ElideRight, badge.width() - 4))

    def _paint_remove(self, painter: QPainter, rect: QRect, option: QStyleOptionViewItem) -> None:
        hovered = bool(option.state & QStyle.StateFlag.State_MouseOver)
        painter.setPen(QPen(QColor(255, 255, 255, 220), 1.0))
        painter.setBrush(QColor(15, 23, 42, 240 if hovered else 205))
        circle = QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5)
        painter.drawEllipse(circle)
        inner = circle.adjusted(5.5, 5.5, -5.5, -5.5)
        painter.setPen(QPen(QColor("white"), 1.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawLine(inner.topLeft(), inner.bottomRight())
        painter.drawLine(inner.topRight(), inner.bottomLeft())

    def helpEvent(self, event: QHelpEvent, view: QAbstractItemView,
                  option: QStyleOptionViewItem, index: _Index) -> bool:
        if remove_rect(option.rect).contains(event.pos()):
            row = index.data(ROW_ROLE)
            QToolTip.showText(event.globalPos(), f"Remove {row.name}" if row else "Remove", view)
            return True
        return super().helpEvent(event, view, option, index)

    def editorEvent(self, event: QEvent, model: QAbstractItemModel,
                    option: QStyleOptionViewItem, index: _Index) -> bool:
        if (event.type() == QEvent.Type.MouseButtonRelease and isinstance(event, QMouseEvent)
                and event.button() == Qt.MouseButton.LeftButton
                and remove_rect(option.rect).contains(event.position().toPoint())):
            self._shelf.request_removal(index.row())
            return True
        return super().editorEvent(event, model, option, index)


def _centre_square(pixmap: QPixmap, tile: QRectF) -> QRectF:
    """The part of ``pixmap`` (device pixels) that covers ``tile`` when cropped to its centre."""
    w, h = pixmap.width(), pixmap.height()
    aspect = tile.width() / tile.height()
    if w / h > aspect:
        cw = h * aspect
        return QRectF((w - cw) / 2, 0, cw, h)
    ch = w / aspect
    return QRectF(0, (h - ch) / 2, w, ch)


class AttachmentShelf(QListView):
    """The composer's attachment shelf, bound to one editor."""

    def __init__(self, editor: ComposerEditor, parent: QWidget | None = None, *,
                 confirm: Callable[[Notice], bool] | None = None) -> None:
        super().__init__(parent)
        self._editor = editor
        self.confirm: Callable[[Notice], bool] = confirm or (lambda n: ask(self, n))
        self._model = ShelfModel(self)
        self._loading: set[str] = set()
        self.setModel(self._model)
        self.setItemDelegate(_ShelfDelegate(self))
        self.setAccessibleName("Attachments")
        self.setAccessibleDescription(
            "Images and context items of the message. Delete removes the selected item.")
        self.setFlow(QListView.Flow.LeftToRight)
        self.setWrapping(False)
        self.setSpacing(SPACING)
        self.setIconSize(QSize(THUMBNAIL_SIZE, THUMBNAIL_SIZE))
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.viewport().setAutoFillBackground(False)
        self.setAttribute(Qt.WidgetAttribute.WA_Hover)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)
        self._fit_height()
        # Not ``draft_changed``: that fires on every keystroke, and typing never changes the shelf.
        editor.context_changed.connect(self.refresh)
        self.refresh()

    @property
    def shelf_model(self) -> ShelfModel:
        """The model behind the view."""
        return self._model

    def refresh(self) -> None:
        """Re-read the editor's draft, chips and uploads."""
        editor = self._editor
        current = self.currentIndex().row()
        rows = shelf_rows(editor.draft, editor.chip_counts(), editor.uploads.statuses())
        self._model.set_rows(rows)
        self._fit_height()
        self.setVisible(bool(rows))
        if rows and not self.currentIndex().isValid():
            self.setCurrentIndex(self._model.index(min(max(current, 0), len(rows) - 1), 0))
        for row in rows:
            if row.is_image and not self._model.has_thumbnail(row.context_id):
                self._load_thumbnail(row.context_id)

    def _load_thumbnail(self, context_id: str) -> None:
        editor = self._editor
        record = editor.draft.records.get(context_id)
        path = editor.uploads.source_path(record.attachment_id) if record is not None else None
        if path is None or context_id in self._loading:
            return
        self._loading.add(context_id)

        def done(result: Any) -> None:
            self._loading.discard(context_id)
            if isinstance(result, QImage):
                self._model.set_thumbnail(context_id, result)

        editor.uploads.files.runner(lambda: load_thumbnail(path), done)

    def request_removal(self, row: int) -> bool:
        """Remove the item at ``row`` (asking first when chips reference it); True if removed."""
        item = self._model.row_at(row)
        if item is None:
            return False
        question = removal_confirmation(item)
        if question is not None and not self.confirm(question):
            return False
        self._editor.remove_context(item.context_id)
        self.refresh()
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        index = self.currentIndex()
        if index.isValid() and event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.request_removal(index.row())
            event.accept()
            return
        if index.isValid() and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter,
                                               Qt.Key.Key_Space):
            item = self._model.row_at(index.row())
            if item is not None:  # as a click on its chip: retry a failed upload, else open it
                self._editor.activate_chip(item.context_id)
            event.accept()
            return
        super().keyPressEvent(event)

    # -- geometry: one row, exactly as tall as the tiles (plus a scroll bar when they overflow) --
    def _content_width(self) -> int:
        rows = self._model.rows()
        return sum(tile_size(r).width() for r in rows) + 2 * SPACING * len(rows)

    def _fit_height(self) -> None:
        height = THUMBNAIL_SIZE + 2 * SPACING + 2 * self.frameWidth()
        if self._content_width() > self.width() - 2 * self.frameWidth():
            height += self.horizontalScrollBar().sizeHint().height()
        if self.height() != height or self.minimumHeight() != height:
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def sizeHint(self) -> QSize:
        return QSize(min(self._content_width(), 640), self.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(THUMBNAIL_SIZE + 2 * SPACING, self.height())

