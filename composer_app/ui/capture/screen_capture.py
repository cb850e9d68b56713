"""``ScreenCapture``: hide the window, grab the screen, let the user pick a region.

``capture()`` hides the window given, waits for the desktop to repaint, grabs the screen, and
shows ``RegionSelector`` full screen over the frozen picture: drag a region (released → that
region), Enter or Space (or a click) → the whole screen, Esc → cancel. The result is PNG bytes in
``captured(bytes)``; ``cancelled()`` and ``failed(reason)`` say otherwise.

Invariants: the window is shown again whatever happens (captured, cancelled, failed); a grab
that returns nothing (e.g. a Wayland session without screen-capture permission) fails with a
reason instead of attaching an empty image; the crop is done in device pixels.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QBuffer, QIODevice, QObject, QPointF, QRect, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import QWidget

from composer_app.ui.capture.region_logic import Rect, device_region, drag_region

SELECTOR_OBJECT_NAME = "screenshotSelector"
HIDE_DELAY_MS = 250
NO_GRAB = ("The screen could not be captured. On Wayland, allow screen capture for Composer or "
           "paste a screenshot taken with your desktop's tool.")


def grab_primary_screen() -> QPixmap:
    """The primary screen's current picture (null when the platform refuses)."""
    screen = QGuiApplication.primaryScreen()
    return QPixmap() if screen is None else screen.grabWindow(0)


def png_bytes(pixmap: QPixmap) -> bytes:
    """``pixmap`` encoded as PNG."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    pixmap.save(buffer, "PNG")
    return bytes(buffer.data().data())


class RegionSelector(QWidget):
    """The full-screen overlay over the frozen screen picture."""

    chosen = Signal(object)
    """A logical region ``(x, y, w, h)``, or None for the whole screen."""
    cancelled = Signal()

    def __init__(self, picture: QPixmap) -> None:
        flags = Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint
        super().__init__(None, flags)
        self.setObjectName(SELECTOR_OBJECT_NAME)
        self.setAccessibleName("Screenshot: drag a region, Enter takes the whole screen, "
                               "Esc cancels")
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.picture = picture
        self._start: QPointF | None = None
        self._end: QPointF | None = None
        ratio = picture.devicePixelRatio() or 1.0
        self.resize(round(picture.width() / ratio), round(picture.height() / ratio))

    def region(self) -> Rect | None:
        """The dragged region so far (logical pixels)."""
        if self._start is None or self._end is None:
            return None
        return drag_region(self._start.x(), self._start.y(), self._end.x(), self._end.y(),
                           self.width(), self.height())

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._start = self._end = event.position()
            self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._start is not None:
            self._end = event.position()
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._start is not None:
            self._end = event.position()
            self.chosen.emit(self.region())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.chosen.emit(None)
        else:
            super().keyPressEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            painter.drawPixmap(self.rect(), self.picture)
            painter.fillRect(self.rect(), QColor(0, 0, 0, 90))
            region = self.region()
            if region is not None:
                area = QRect(*region)
                ratio = self.picture.devicePixelRatio() or 1.0
                painter.drawPixmap(area, self.picture, QRect(*device_region(
                    region, ratio, self.picture.width(), self.picture.height())))
                painter.setPen(QPen(QColor(255, 255, 255), 1, Qt.PenStyle.DashLine))
                painter.drawRect(area.adjusted(0, 0, -1, -1))
            painter.setPen(QColor(255, 255, 255))
            painter.drawText(self.rect().adjusted(0, 12, 0, 0), Qt.AlignmentFlag.AlignHCenter,
                             "Drag to pick a region · Enter: whole screen · Esc: cancel")
        finally:
            painter.end()


class ScreenCapture(QObject):
    """One screenshot at a time; see the module docstring."""

    captured = Signal(bytes)
    cancelled = Signal()
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None, *,
                 grab: Callable[[], QPixmap] = grab_primary_screen,
                 hide_delay_ms: int = HIDE_DELAY_MS) -> None:
        super().__init__(parent)
        self._grab = grab
        self._delay = hide_delay_ms
        self._window: QWidget | None = None
        self._picture = QPixmap()
        self.selector: RegionSelector | None = None

    @property
    def busy(self) -> bool:
        """True between ``capture()`` and its outcome."""
        return self._window is not None or self.selector is not None

    def capture(self, window: QWidget | None = None) -> bool:
        """Start a screenshot, hiding ``window`` first; False when one is already going."""
        if self.busy:
            return False
        self._window = window
        if window is not None:
            window.hide()
        QTimer.singleShot(self._delay, self._take)
        return True

    def _take(self) -> None:
        try:
            picture = self._grab()
        except Exception:  # a platform failure is a reason, not a crash
            picture = QPixmap()
        if picture.isNull() or picture.width() == 0:
            self._finish()
            self.failed.emit(NO_GRAB)
            return
        self._picture = picture
        self.selector = RegionSelector(picture)
        self.selector.chosen.connect(self._chosen)
        self.selector.cancelled.connect(self._cancel)
        screen = QGuiApplication.primaryScreen()
        if screen is not None:
            self.selector.move(screen.geometry().topLeft())
        self.selector.show()
        self.selector.activateWindow()
        self.selector.setFocus()

    def _chosen(self, region: Rect | None) -> None:
        picture = self._picture
        if region is not None:
            ratio = picture.devicePixelRatio() or 1.0
            picture = picture.copy(QRect(*device_region(region, ratio, picture.width(),
                                                        picture.height())))
        data = png_bytes(picture)
        self._finish()
        self.captured.emit(data)

    def _cancel(self) -> None:
        self._finish()
        self.cancelled.emit()

    def _finish(self) -> None:
        if self.selector is not None:
            self.selector.hide()
            self.selector.deleteLater()
            self.selector = None
        self._picture = QPixmap()
        window, self._window = self._window, None
        if window is not None:
            window.show()
            window.raise_()
            window.activateWindow()
