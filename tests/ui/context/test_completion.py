"""The completion popup on a real editor: triggers, keys, stale answers, one undo step."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QListView, QMainWindow
from pytestqt.qtbot import QtBot

from composer_app.core.contracts.records import MentionRecord, SkillRecord, ThreadRecord
from tests.ui.context.catalog_support import CompletingEditor, ListCatalog

FILES = ["src/main.py", "src/main_window.py", "docs/manual.md", "README.md"]
SKILLS = [("review", "Review a diff"), ("deploy", "Ship it"), ("rebase", "Tidy history")]
THREADS = [("thr_2", "Launch plan"), ("thr_1", "Old plan"), ("thr_0", "Groceries")]


@pytest.fixture
def editor(qtbot: QtBot) -> CompletingEditor:
    window = QMainWindow()
    qtbot.addWidget(window)
    editor = CompletingEditor()
    window.setCentralWidget(editor)
    editor.host = window  # type: ignore[attr-defined]  # keep the window alive
    window.resize(700, 400)
    window.show()
    qtbot.waitExposed(window)
    editor.setFocus()
    editor.completion.set_catalog(ListCatalog(FILES, SKILLS, THREADS))
    return editor


def popup(editor: CompletingEditor) -> QListView:
    found = editor.window().findChild(QListView, "contextCompletion")
    assert found is not None
    return found


def titles(editor: CompletingEditor) -> list[str]:
    return [item.title for item in editor.completion.items()]


def test_at_opens_workspace_files_and_typing_filters(qtbot: QtBot,
                                                     editor: CompletingEditor) -> None:
    qtbot.keyClicks(editor, "see @")
    assert popup(editor).isVisible()
    assert titles(editor) == ["main.py", "main_window.py", "manual.md", "README.md"]
    qtbot.keyClicks(editor, "main")
    assert titles(editor) == ["main.py", "main_window.py"]
    assert popup(editor).accessibleName() == "Workspace files"
    qtbot.keyClick(editor, Qt.Key.Key_Down)
    assert editor.completion.current_row() == 1
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert not popup(editor).isVisible()
    [record] = editor.inserted
    assert isinstance(record, MentionRecord)
    assert (record.path, record.label) == ("src/main_window.py", "main_window.py")
    assert editor.toPlainText() == "see [main_window.py] "


def test_popup_sits_at_the_caret_inside_the_window(qtbot: QtBot,
                                                   editor: CompletingEditor) -> None:
    editor.insertPlainText("\n\n")
    qtbot.keyClicks(editor, "words @")
    caret = editor.viewport().mapTo(editor.window(), editor.cursorRect().bottomLeft())
    geometry = popup(editor).geometry()
    assert abs(geometry.top() - caret.y()) <= 4
    assert abs(geometry.left() - caret.x()) <= 4
    assert editor.window().rect().contains(geometry)


def test_insertion_and_trigger_removal_are_one_undo_step(qtbot: QtBot,
                                                         editor: CompletingEditor) -> None:
    qtbot.keyClicks(editor, "x @READ")
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert editor.toPlainText() == "x [README.md] "
    editor.undo()
    assert editor.toPlainText() == "x @READ"


def test_escape_closes_and_keeps_the_typed_text(qtbot: QtBot, editor: CompletingEditor) -> None:
    qtbot.keyClicks(editor, "@ma")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert not popup(editor).isVisible()
    qtbot.keyClicks(editor, "n")  # same token: stays closed
    assert not popup(editor).isVisible()
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # Enter is the editor's again
    assert editor.toPlainText() == "@man\n"
    assert editor.inserted == []
    qtbot.keyClicks(editor, "@")  # a new trigger opens again
    assert popup(editor).isVisible()


def test_keys_pass_through_when_no_popup(editor: CompletingEditor) -> None:
    enter = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier)
    assert editor.completion.handle_key(enter) is False
    editor.insertPlainText("mail@host")
    assert not editor.completion.is_open()


def test_stale_file_answers_are_dropped(qtbot: QtBot, editor: CompletingEditor) -> None:
    catalog = ListCatalog(FILES, deferred=True)
    editor.completion.set_catalog(catalog)
    qtbot.keyClicks(editor, "@ma")
    assert [c for c in catalog.calls] == [("files", ""), ("files", "m"), ("files", "ma")]
    catalog.answer(2)  # the newest answers first
    assert titles(editor) == ["main.py", "main_window.py", "manual.md"]
    catalog.answer(0)  # an old query answers late: ignored
    catalog.answer(0)
    assert titles(editor) == ["main.py", "main_window.py", "manual.md"]


def test_answer_after_close_is_dropped(qtbot: QtBot, editor: CompletingEditor) -> None:
    catalog = ListCatalog(FILES, deferred=True)
    editor.completion.set_catalog(catalog)
    qtbot.keyClicks(editor, "@")
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    catalog.answer(0)
    assert not popup(editor).isVisible()
    assert editor.completion.items() == []


def test_malformed_answer_shows_nothing(qtbot: QtBot, editor: CompletingEditor) -> None:
    catalog = ListCatalog(deferred=True)
    editor.completion.set_catalog(catalog)
    qtbot.keyClicks(editor, "@")
    done, _ = catalog.pending.pop()
    done(42)
    assert not popup(editor).isVisible()


def test_slash_lists_skills_once_and_filters_locally(qtbot: QtBot,
                                                     editor: CompletingEditor) -> None:
    catalog = ListCatalog(skills=SKILLS)
    editor.completion.set_catalog(catalog)
    qtbot.keyClicks(editor, "/re")
    assert catalog.calls == [("skills", None)]
    assert titles(editor) == ["review", "rebase"]
    assert editor.completion.items()[0].detail == "Review a diff"
    qtbot.keyClick(editor, Qt.Key.Key_Up)  # wraps to the last row
    assert editor.completion.current_row() == 1
    qtbot.keyClick(editor, Qt.Key.Key_Enter)
    [record] = editor.inserted
    assert isinstance(record, SkillRecord) and record.name == "rebase"


def test_hash_lists_threads_most_recent_first(qtbot: QtBot, editor: CompletingEditor) -> None:
    qtbot.keyClicks(editor, "compare #plan")
    assert titles(editor) == ["Launch plan", "Old plan"]
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    [record] = editor.inserted
    assert isinstance(record, ThreadRecord)
    assert (record.environment_id, record.thread_id, record.title) == (
        "env_1", "thr_2", "Launch plan")


def test_no_match_hides_the_popup(qtbot: QtBot, editor: CompletingEditor) -> None:
    qtbot.keyClicks(editor, "#zzz")
    assert not popup(editor).isVisible()


def test_click_on_a_row_inserts_it(qtbot: QtBot, editor: CompletingEditor) -> None:
    qtbot.keyClicks(editor, "@docs")
    view = popup(editor)
    rect = view.visualRect(view.model().index(0, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert [r.path for r in editor.inserted] == ["docs/manual.md"]
    assert editor.hasFocus() or editor.window().focusWidget() is editor


def test_moving_the_caret_out_closes(qtbot: QtBot, editor: CompletingEditor) -> None:
    qtbot.keyClicks(editor, "hi @ma")
    assert popup(editor).isVisible()
    qtbot.keyClick(editor, Qt.Key.Key_Home)
    assert not popup(editor).isVisible()


def test_no_catalog_means_plain_text(qtbot: QtBot, editor: CompletingEditor) -> None:
    editor.completion.set_catalog(None)
    qtbot.keyClicks(editor, "@ma")
    assert not popup(editor).isVisible()
    assert editor.toPlainText() == "@ma"


def test_rows_are_announced(qtbot: QtBot, editor: CompletingEditor) -> None:
    said: list[str] = []
    editor.completion._announce = said.append
    qtbot.keyClicks(editor, "/")
    qtbot.keyClick(editor, Qt.Key.Key_Down)
    assert said == ["Skills: 3 suggestions, review, Review a diff", "deploy, Ship it, 2 of 3"]


def test_programmatic_text_without_focus_opens_nothing(qtbot: QtBot,
                                                       editor: CompletingEditor) -> None:
    editor.clearFocus()
    assert not editor.hasFocus()
    editor.setPlainText("draft ends with @ma")
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    assert not editor.completion.is_open()
