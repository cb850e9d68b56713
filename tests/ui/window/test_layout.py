"""The window's panes: the thread list beside the centre, the empty page while a thread has no
messages (or none is open), the composer usable only with a thread open, Sources on the right."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from composer_app.ui.window.layout import EMPTY_HINT, EMPTY_TITLE
from tests.ui.window.window_support import WAIT_MS, Backend, answered, new_thread, running_backend


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


def test_with_no_thread_open_the_empty_page_shows_and_the_composer_is_off(
        backend: Backend, qtbot: QtBot) -> None:
    window = backend.empty_window(qtbot)
    assert window.current_thread == ""
    empty = window.transcript_stack.empty_page
    assert window.transcript_stack.currentWidget() is empty
    assert empty.isVisible()
    assert (empty.title.text(), empty.hint.text()) == (EMPTY_TITLE, EMPTY_HINT)
    assert not window.editor.isEnabled() and not window.composer_area.send_button.isEnabled()
    new_thread(window, qtbot)
    assert window.editor.isEnabled() and window.composer_area.send_button.isEnabled()
    assert window.transcript_stack.currentWidget() is empty  # still no messages


def test_the_centre_switches_between_transcript_and_empty_page_with_the_thread(
        backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    talked = window.current_thread
    window.editor.insertPlainText("hello there")
    assert window.editor.request_send()
    qtbot.waitUntil(lambda: answered(window), timeout=WAIT_MS)
    assert window.transcript_stack.currentWidget() is window.transcript
    new_thread(window, qtbot)
    assert window.transcript_stack.currentWidget() is window.transcript_stack.empty_page
    window.open_thread(talked)
    qtbot.waitUntil(lambda: window.transcript_stack.currentWidget() is window.transcript,
                    timeout=WAIT_MS)
    assert window.transcript.messages[0].text == "hello there"


def test_thread_list_is_left_of_the_centre_and_sources_dock_on_the_right(
        backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.sources_dock.show()
    assert window.dockWidgetArea(window.sources_dock) == Qt.DockWidgetArea.RightDockWidgetArea
    list_right = window.thread_pane.mapTo(window, window.thread_pane.rect().topRight()).x()
    centre_left = window.centre.mapTo(window, window.centre.rect().topLeft()).x()
    dock_left = window.sources_dock.mapTo(window, window.sources_dock.rect().topLeft()).x()
    assert list_right < centre_left < dock_left
    transcript_bottom = window.transcript_stack.mapTo(
        window, window.transcript_stack.rect().bottomLeft()).y()
    assert transcript_bottom < window.editor.mapTo(window, window.editor.rect().topLeft()).y()
