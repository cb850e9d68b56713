"""The image viewer on real PNG bytes: zoom, fit, copy, save."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage
from pytestqt.qtbot import QtBot

from composer_app.ui.viewers.image_viewer import ImageViewer


def png(width: int, height: int) -> bytes:
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor(200, 30, 30))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data().data())


def open_viewer(qtbot: QtBot, data: bytes) -> ImageViewer:
    viewer = ImageViewer(data, "shot.png")
    qtbot.addWidget(viewer)
    viewer.show()
    qtbot.waitExposed(viewer)
    viewer.activateWindow()
    qtbot.waitUntil(viewer.isActiveWindow)
    return viewer


def test_zoom_buttons_and_keys(qtbot: QtBot) -> None:
    viewer = open_viewer(qtbot, png(200, 100))
    assert viewer.objectName() == "imageViewer"
    assert viewer.picture.size().width() == 200
    qtbot.mouseClick(viewer.buttons["zoomIn"], Qt.MouseButton.LeftButton)
    assert viewer.zoom == 1.1 and viewer.picture.width() == 220
    qtbot.keyClick(viewer, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(viewer, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert viewer.zoom == 0.9
    assert viewer.scale_label.text() == "90 %"
    qtbot.keyClick(viewer, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert viewer.zoom == 1.0


def test_fit_shrinks_a_large_image(qtbot: QtBot) -> None:
    viewer = open_viewer(qtbot, png(4000, 3000))
    qtbot.mouseClick(viewer.buttons["fit"], Qt.MouseButton.LeftButton)
    view = viewer.area.viewport().size()
    assert viewer.picture.width() <= view.width() and viewer.picture.height() <= view.height()
    assert viewer.zoom < 1.0


def test_copy_puts_the_image_on_the_clipboard(qtbot: QtBot) -> None:
    viewer = open_viewer(qtbot, png(8, 6))
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(viewer.buttons["copyImage"], Qt.MouseButton.LeftButton)
    copied = QGuiApplication.clipboard().image()
    assert (copied.width(), copied.height()) == (8, 6)


def test_save_writes_the_original_bytes(qtbot: QtBot, tmp_path: Path) -> None:
    data = png(5, 5)
    viewer = open_viewer(qtbot, data)
    target = tmp_path / "out.png"
    assert viewer.save_to(target)
    assert target.read_bytes() == data
    assert not viewer.save_to(tmp_path / "missing-dir" / "x.png")


def test_not_an_image_says_so(qtbot: QtBot) -> None:
    viewer = open_viewer(qtbot, b"<html>nope</html>")
    assert not viewer.valid
    assert viewer.picture.text() == "This image could not be shown."
    assert not viewer.buttons["zoomIn"].isEnabled()
    assert viewer.buttons["saveImage"].isEnabled()
