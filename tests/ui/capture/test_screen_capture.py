"""Screenshot flow: the window hides, the picker takes a drag or the whole screen, PNG comes out."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage, QPixmap
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from composer_app.ui.capture.screen_capture import NO_GRAB, ScreenCapture


def screen_picture() -> QPixmap:
    image = QImage(400, 300, QImage.Format.Format_ARGB32)
    image.fill(QColor(10, 120, 200))
    return QPixmap.fromImage(image)


@pytest.fixture
def window(qtbot: QtBot) -> QWidget:
    window = QWidget()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def start(qtbot: QtBot, window: QWidget, grab: object = screen_picture) -> ScreenCapture:
    capture = ScreenCapture(grab=grab, hide_delay_ms=0)  # type: ignore[arg-type]
    hidden: list[bool] = []
    capture.capture(window)
    hidden.append(window.isHidden())
    assert hidden == [True]
    return capture


def wait_selector(qtbot: QtBot, capture: ScreenCapture) -> QWidget:
    qtbot.waitUntil(lambda: capture.selector is not None and capture.selector.isVisible())
    assert capture.selector is not None
    assert capture.selector.objectName() == "screenshotSelector"
    return capture.selector


def test_drag_a_region(qtbot: QtBot, window: QWidget) -> None:
    capture = start(qtbot, window)
    selector = wait_selector(qtbot, capture)
    qtbot.mousePress(selector, Qt.MouseButton.LeftButton, pos=QPoint(20, 30))
    qtbot.mouseMove(selector, QPoint(80, 60))
    assert not selector.grab().isNull()  # paints the selection
    with qtbot.waitSignal(capture.captured) as done:
        qtbot.mouseRelease(selector, Qt.MouseButton.LeftButton, pos=QPoint(120, 70))
    image = QImage.fromData(done.args[0])
    assert (image.width(), image.height()) == (100, 40)
    assert image.pixelColor(5, 5) == QColor(10, 120, 200)
    assert done.args[0][:8] == b"\x89PNG\r\n\x1a\n"
    assert window.isVisible() and not capture.busy


def test_enter_takes_the_whole_screen(qtbot: QtBot, window: QWidget) -> None:
    capture = start(qtbot, window)
    selector = wait_selector(qtbot, capture)
    with qtbot.waitSignal(capture.captured) as done:
        qtbot.keyClick(selector, Qt.Key.Key_Return)
    image = QImage.fromData(done.args[0])
    assert (image.width(), image.height()) == (400, 300)


def test_escape_cancels_and_shows_the_window(qtbot: QtBot, window: QWidget) -> None:
    capture = start(qtbot, window)
    selector = wait_selector(qtbot, capture)
    with qtbot.waitSignal(capture.cancelled):
        qtbot.keyClick(selector, Qt.Key.Key_Escape)
    assert window.isVisible()


def test_refused_grab_fails_with_a_reason(qtbot: QtBot, window: QWidget) -> None:
    capture = ScreenCapture(grab=QPixmap, hide_delay_ms=0)
    with qtbot.waitSignal(capture.failed) as failed:
        capture.capture(window)
    assert failed.args == [NO_GRAB]
    assert window.isVisible()


def test_one_capture_at_a_time(qtbot: QtBot, window: QWidget) -> None:
    capture = start(qtbot, window)
    assert not capture.capture(window)
    selector = wait_selector(qtbot, capture)
    with qtbot.waitSignal(capture.cancelled):
        qtbot.keyClick(selector, Qt.Key.Key_Escape)
    assert not capture.busy
