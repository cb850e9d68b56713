"""The Changes pane: rows, selection by mouse and keyboard, the inline comment flow."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow
from pytestqt.qtbot import QtBot

from composer_app.core.contracts.records import ReviewCommentRecord
from composer_app.ui.changes.changes_pane import ChangesDock
from tests.support.sample_changes import sample


@pytest.fixture
def dock(qtbot: QtBot) -> ChangesDock:
    window = QMainWindow()
    qtbot.addWidget(window)
    dock = ChangesDock(window, new_id=lambda: "n1")
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.resize(900, 700)
    window.show()
    qtbot.waitExposed(window)
    dock.host = window  # type: ignore[attr-defined]  # keep the window alive
    assert dock.set_changes(sample())
    return dock


def test_dock_shows_files_and_hunks(dock: ChangesDock) -> None:
    assert dock.host.findChild(QDockWidget, "changesDock") is dock  # type: ignore[attr-defined]
    assert dock.summary.text() == "3 changed files against 0123456789"
    model = dock.model
    texts = [model.data(model.index(r, 0)) for r in range(4)]
    assert texts == ["src/app.py (modified)", "@@ -10,4 +10,5 @@ def main():", "    start()",
                     "    run(1)"]
    spoken = model.data(model.index(4, 0), Qt.ItemDataRole.AccessibleTextRole)
    assert spoken == "Line 11 added:     run(2)"
    assert not dock.comment_button.isEnabled()
    image = dock.view.grab()  # paints every visible row without error
    assert not image.isNull()


def test_keyboard_selection_and_c_comment(qtbot: QtBot, dock: ChangesDock) -> None:
    dock.view.setFocus()
    dock.view.setCurrentIndex(dock.model.index(4, 0))
    qtbot.keyClick(dock.view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    lines = dock.selected_lines()
    assert lines is not None and lines.positions == ((0, 2), (0, 3))
    assert dock.comment_button.isEnabled()
    qtbot.keyClick(dock.view, Qt.Key.Key_C)
    assert dock.editor.isVisible()
    assert dock.editor.title.text() == "Comment on app.py L11-L12"
    qtbot.keyClicks(dock.editor.edit, "Log level?")
    qtbot.keyClick(dock.editor.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(dock.editor.edit, "Use debug.")
    with qtbot.waitSignal(dock.comment_created) as created:
        qtbot.keyClick(dock.editor.edit, Qt.Key.Key_Return)
    [record] = created.args
    assert isinstance(record, ReviewCommentRecord)
    assert (record.file_path, record.range_label, record.text) == (
        "src/app.py", "L11-L12", "Log level?\nUse debug.")
    assert record.section_id == "change:src/app.py"
    assert record.source_revision == "0123456789abcdef0123456789abcdef01234567"
    assert not dock.editor.isVisible()
    assert ("src/app.py", 11) in dock.model.commented


def test_mouse_selection_then_comment_button(qtbot: QtBot, dock: ChangesDock) -> None:
    view = dock.view
    first = view.visualRect(dock.model.index(9, 0)).center()
    last = view.visualRect(dock.model.index(10, 0)).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=first)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.ShiftModifier, pos=last)
    lines = dock.selected_lines()
    assert lines is not None and lines.positions == ((1, 1), (1, 2))
    qtbot.mouseClick(dock.comment_button, Qt.MouseButton.LeftButton)
    assert dock.editor.isVisible()
    assert dock.editor.title.text() == "Comment on app.py L41-L42"


def test_escape_cancels_and_empty_comment_is_not_sent(qtbot: QtBot, dock: ChangesDock) -> None:
    created: list[object] = []
    dock.comment_created.connect(created.append)
    dock.select_rows(3, 3)
    assert dock.open_comment()
    qtbot.keyClick(dock.editor.edit, Qt.Key.Key_Return)  # nothing typed: stays open
    assert dock.editor.isVisible()
    qtbot.keyClick(dock.editor.edit, Qt.Key.Key_Escape)
    assert not dock.editor.isVisible()
    assert created == []


def test_unavailable_and_malformed(dock: ChangesDock) -> None:
    assert not dock.set_changes({"files": "nope"})
    assert dock.summary.text() == "The changes could not be read."
    assert dock.model.rowCount() == 0
    dock.set_unavailable("This thread has no workspace.")
    assert dock.summary.text() == "This thread has no workspace."
    assert not dock.open_comment()
    assert dock.set_changes({"revision": None, "files": []})
    assert dock.summary.text() == "No changes"


def test_refresh_asks_the_window(qtbot: QtBot, dock: ChangesDock) -> None:
    with qtbot.waitSignal(dock.refresh_requested):
        qtbot.mouseClick(dock.refresh_button, Qt.MouseButton.LeftButton)
