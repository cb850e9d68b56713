"""Details popovers and the media viewer show supplied content only."""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from composer_app.ui.transcript.popovers import DetailsPopover, MediaViewer
from composer_app.ui.transcript.presentation import Details


def _png() -> bytes:
    image = QImage(8, 6, QImage.Format.Format_ARGB32)
    image.fill(QColor("#3366ff"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def test_popover_shows_rows_body_and_pull_request_link(qtbot: QtBot) -> None:
    opened: list[str] = []
    details = Details(
        "Open pull request #42 · Fix",
        [("State", "Open")],
        "please look",
        False,
        "pr-open",
        "https://github.com/a/b/pull/42",
    )
    popover = DetailsPopover(details, open_link=opened.append)
    qtbot.addWidget(popover)
    assert popover.body is not None and popover.body.toPlainText() == "please look"
    assert popover.link_button is not None
    qtbot.mouseClick(popover.link_button, Qt.MouseButton.LeftButton)
    assert opened == ["https://github.com/a/b/pull/42"]


def test_popover_without_opener_has_no_link_button(qtbot: QtBot) -> None:
    popover = DetailsPopover(Details("t", [], "", True, "terminal", "https://x.org"))
    qtbot.addWidget(popover)
    assert popover.link_button is None and popover.body is None


def test_media_viewer_shows_supplied_image_bytes(qtbot: QtBot) -> None:
    viewer = MediaViewer("chart.png", _png())
    qtbot.addWidget(viewer)
    assert viewer.loaded and viewer.picture.pixmap().width() == 8
    broken = MediaViewer("clip.mp4", b"not an image", open_asset=lambda: None)
    qtbot.addWidget(broken)
    assert not broken.loaded and broken.open_button is not None
