"""Drops on the transcript or the empty-thread page attach to the composer, which is outlined
while anything it accepts is dragged (synthetic drag events, a real embedded server)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from .window_support import Backend, running_backend

COPY = Qt.DropAction.CopyAction
LEFT = Qt.MouseButton.LeftButton
NONE = Qt.KeyboardModifier.NoModifier
POINT = QPointF(10, 10)


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


def files(*paths: Path) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def drag(target: QWidget, mime: QMimeData) -> bool:
    enter = QDragEnterEvent(POINT, COPY, mime, LEFT, NONE)
    QApplication.sendEvent(target, enter)
    move = QDragMoveEvent(POINT, COPY, mime, LEFT, NONE)
    QApplication.sendEvent(target, move)
    return enter.isAccepted() and move.isAccepted()


def test_a_drop_on_the_empty_page_attaches_to_the_composer(backend: Backend, qtbot: QtBot,
                                                           tmp_path: Path) -> None:
    window = backend.window(qtbot)
    page = window.transcript_stack.empty_page
    assert window.transcript_stack.currentWidget() is page
    note = tmp_path / "note.txt"
    note.write_text("hello")
    mime = files(note)
    highlight = window.drop_relay.highlight
    assert drag(page, mime)
    assert highlight.isVisible() and highlight.objectName() == "composerDropHighlight"
    QApplication.sendEvent(page, QDropEvent(POINT, COPY, mime, LEFT, NONE))
    assert not highlight.isVisible()
    assert [r.kind for r in window.editor.records().values()] == ["file"]


def test_a_drop_on_the_transcript_attaches_and_leaving_clears_the_outline(
        backend: Backend, qtbot: QtBot, tmp_path: Path) -> None:
    window = backend.window(qtbot)
    viewport = window.transcript.viewport()
    note = tmp_path / "a.md"
    note.write_text("# A")
    mime = files(note)  # the events point at it: keep it alive
    assert drag(viewport, mime)
    QApplication.sendEvent(viewport, QEvent(QEvent.Type.DragLeave))
    assert not window.drop_relay.highlight.isVisible()
    assert drag(viewport, mime)
    QApplication.sendEvent(viewport, QDropEvent(POINT, COPY, mime, LEFT, NONE))
    assert [r.kind for r in window.editor.records().values()] == ["file"]


def test_a_drag_the_composer_refuses_is_refused_without_an_outline(
        backend: Backend, qtbot: QtBot, tmp_path: Path) -> None:
    window = backend.window(qtbot)
    empty = QMimeData()
    assert not drag(window.transcript_stack.empty_page, empty)
    assert not window.drop_relay.highlight.isVisible()


def test_dragging_over_the_composer_outlines_it(backend: Backend, qtbot: QtBot,
                                                tmp_path: Path) -> None:
    window = backend.window(qtbot)
    note = tmp_path / "b.txt"
    note.write_text("b")
    mime = files(note)
    assert drag(window.editor.viewport(), mime)
    assert window.drop_relay.highlight.isVisible()
    QApplication.sendEvent(window.editor.viewport(), QDropEvent(POINT, COPY, mime, LEFT, NONE))
    assert not window.drop_relay.highlight.isVisible()
    assert [r.kind for r in window.editor.records().values()] == ["file"]
