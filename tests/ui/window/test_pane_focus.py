"""F6 and Shift+F6 walk the keyboard focus through the panes — thread list, centre page, composer,
Sources — skipping the ones hidden or disabled."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from composer_app.ui.window.main_window import MainWindow
from tests.ui.window.window_support import WAIT_MS, Backend, answered, running_backend


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


def _press(qtbot: QtBot, key: Qt.Key, shift: bool = False) -> QWidget:
    """Press ``key`` where the focus is; the widget that has the focus afterwards."""
    focus = QApplication.focusWidget()
    assert focus is not None
    modifiers = (Qt.KeyboardModifier.ShiftModifier if shift
                 else Qt.KeyboardModifier.NoModifier)
    qtbot.keyClick(focus, key, modifiers)
    after = QApplication.focusWidget()
    assert after is not None
    return after


def _pane_of(window: MainWindow, widget: QWidget) -> str:
    named = {"list": window.thread_pane.list, "centre": window.transcript_stack,
             "composer": window.editor, "sources": window.sources_dock.panel}
    for name, pane in named.items():
        if widget is pane or pane.isAncestorOf(widget):
            return name
    return widget.objectName() or type(widget).__name__


def test_without_a_thread_f6_skips_the_disabled_composer(backend: Backend,
                                                        qtbot: QtBot) -> None:
    window = backend.empty_window(qtbot)
    window.activateWindow()
    window.thread_pane.list.setFocus()
    first = _press(qtbot, Qt.Key.Key_F6)
    assert first is window.transcript_stack.empty_page.hint  # the empty page's text takes the focus
    assert _pane_of(window, _press(qtbot, Qt.Key.Key_F6)) == "list"


def test_shift_f6_walks_backwards_through_every_visible_pane(backend: Backend,
                                                            qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.editor.insertPlainText("hello")
    assert window.editor.request_send()
    qtbot.waitUntil(lambda: answered(window), timeout=WAIT_MS)
    window.window_actions.sources_action.setChecked(True)
    window.activateWindow()
    window.thread_pane.list.setFocus()
    walked = [_pane_of(window, _press(qtbot, Qt.Key.Key_F6, shift=True)) for _ in range(4)]
    assert walked == ["sources", "composer", "centre", "list"]
    window.thread_pane.list.setFocus()
    _press(qtbot, Qt.Key.Key_F6)
    focus = QApplication.focusWidget()
    assert focus is window.transcript or window.transcript.isAncestorOf(focus)


def test_a_hidden_pane_is_skipped(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.activateWindow()
    window.thread_pane.hide()
    window.editor.setFocus()
    walked = [_pane_of(window, _press(qtbot, Qt.Key.Key_F6)) for _ in range(2)]
    assert walked == ["centre", "composer"]


def test_f6_focus_is_clearly_visible_as_a_frame_on_the_focused_pane(backend: Backend,
                                                                    qtbot: QtBot) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QPalette

    window = backend.window(qtbot)
    window.activateWindow()
    window.editor.setFocus()
    qtbot.waitUntil(window.editor.hasFocus, timeout=WAIT_MS)
    _press(qtbot, Qt.Key.Key_F6)  # composer -> Sources (hidden) -> thread list
    frame = window.pane_focus.frame
    assert frame is not None and frame.isVisible()
    view = window.thread_pane.list
    assert frame.geometry().topLeft() == view.mapTo(window, QPoint(0, 0))
    assert frame.size() == view.size()
    qtbot.wait(20)
    image = window.grab().toImage()
    edge = view.mapTo(window, QPoint(0, view.height() // 2))
    highlight = window.palette().color(QPalette.ColorRole.Highlight)
    assert image.pixelColor(edge * window.devicePixelRatio()).name() == highlight.name()
    _press(qtbot, Qt.Key.Key_F6)
    assert frame.pane is not view and frame.isVisible()  # it moved to the next pane
    window.editor.setFocus()  # a click in the composer: the frame goes
    qtbot.waitUntil(lambda: not frame.isVisible() or frame.pane is window.editor,
                    timeout=WAIT_MS)
