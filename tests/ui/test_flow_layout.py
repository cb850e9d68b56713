"""FlowLayout: reading order, wrapping at the width, heights that match the placed lines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from composer_app.ui.flow_layout import FlowLayout


@settings(max_examples=40, deadline=None)
@given(widths=st.lists(st.integers(10, 200), min_size=1, max_size=8),
       available=st.integers(60, 600))
def test_items_wrap_in_order_within_the_width(qapp: QApplication, widths: list[int],
                                              available: int) -> None:
    host = QWidget()
    layout = FlowLayout(host, spacing=4)
    buttons = []
    for width in widths:
        button = QPushButton("x", host)
        button.setFixedSize(width, 20)
        layout.addWidget(button)
        buttons.append(button)
    height = layout.heightForWidth(available)
    layout.setGeometry(QRect(0, 0, available, height))
    places = [(b.geometry().y(), b.geometry().x()) for b in buttons]
    assert places == sorted(places)  # reading order: line by line, left to right
    for button in buttons:
        g = button.geometry()
        assert g.width() == button.width() and g.bottom() < height
        assert g.right() < available or g.x() == 0  # only an item wider than a line overflows
    lines = len({y for y, _ in places})
    assert height == lines * 20 + (lines - 1) * 4
    host.deleteLater()


def test_one_line_when_everything_fits(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    layout = FlowLayout(host, spacing=4)
    for _ in range(3):
        button = QPushButton("x", host)
        button.setFixedSize(50, 20)
        layout.addWidget(button)
    assert layout.sizeHint().width() == 3 * 50 + 2 * 4
    assert layout.heightForWidth(158) == 20
    assert layout.heightForWidth(157) == 44
    assert layout.minimumSize().width() == 50
    assert layout.takeAt(5) is None and layout.itemAt(-1) is None
