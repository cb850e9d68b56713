"""Fixtures for transcript widget tests: a view with the sample chip prompt and sourced answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication, QMainWindow
from pytestqt.qtbot import QtBot

from composer_app.ui.transcript.samples import chip_message, sourced_message
from composer_app.ui.transcript.sources_dock import SourcesDock
from composer_app.ui.transcript.view import TranscriptView


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[QMainWindow]:
    """A window with a transcript view (chip prompt + sourced answer) and a Sources dock."""
    win = QMainWindow()
    win.resize(900, 700)
    view = TranscriptView()
    win.setCentralWidget(view)
    dock = SourcesDock(view, win)
    dock.hide()
    view.transcript_model().load([chip_message("u1"), sourced_message("a1")])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win


def view_of(win: QMainWindow) -> TranscriptView:
    """The window's transcript view."""
    view = win.centralWidget()
    assert isinstance(view, TranscriptView)
    return view


def dock_of(win: QMainWindow) -> SourcesDock:
    """The window's Sources dock."""
    dock = win.findChild(SourcesDock)
    assert dock is not None
    return dock


@pytest.fixture(autouse=True)
def clean_clipboard(qapp: QApplication) -> Iterator[None]:
    """Empty the clipboard after each test: data left on it outlives the application at exit."""
    yield
    qapp.clipboard().clear()
