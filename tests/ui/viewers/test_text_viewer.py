"""The text viewer: numbers, scroll-to-line and Open in editor."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from composer_app.ui.viewers.text_viewer import TextViewer

TEXT = "\n".join(f"line {n}" for n in range(1, 501))


def make(qtbot: QtBot, **kwargs: Any) -> TextViewer:
    viewer = TextViewer(TEXT, "src/app.py", **kwargs)
    qtbot.addWidget(viewer)
    viewer.show()
    qtbot.waitExposed(viewer)
    return viewer


def test_read_only_with_numbers_and_scroll_to_line(qtbot: QtBot) -> None:
    viewer = make(qtbot, first_line=101)
    assert viewer.objectName() == "textViewer"
    assert viewer.text.isReadOnly()
    assert viewer.text.gutter.width() > 0
    assert viewer.scroll_to_line(300)
    cursor = viewer.text.textCursor()
    assert cursor.block().text() == "line 200"  # file line 300 is the 200th line shown
    assert viewer.text.cursorRect().top() > 0  # scrolled: the line is in view
    assert len(viewer.text.extraSelections()) == 1
    assert not viewer.scroll_to_line(50)
    assert not viewer.scroll_to_line(10_000)
    assert not viewer.text.grab().isNull()


def test_open_in_editor_uses_the_command(qtbot: QtBot) -> None:
    launched: list[list[str]] = []
    viewer = make(qtbot, local_path="/home/ana/my project/app.py",
                  editor_command="code -g {path}:{line}",
                  launch=lambda argv: launched.append(argv) or True)
    viewer.scroll_to_line(42)
    qtbot.mouseClick(viewer.open_button, Qt.MouseButton.LeftButton)
    assert launched == [["code", "-g", "/home/ana/my project/app.py:42"]]


def test_open_in_editor_falls_back_to_the_desktop(qtbot: QtBot) -> None:
    opened: list[str] = []
    viewer = make(qtbot, local_path="/x/app.py", open_default=lambda p: opened.append(p) or True)
    assert viewer.open_in_editor()
    assert opened == ["/x/app.py"]


def test_no_local_path_disables_the_button(qtbot: QtBot) -> None:
    viewer = make(qtbot)
    assert not viewer.open_button.isEnabled()
    assert "on the server" in viewer.open_button.toolTip()
    assert not viewer.open_in_editor()
