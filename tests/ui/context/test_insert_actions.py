"""The Insert entries: names, shortcuts, workspace state, the + button, typed triggers."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from composer_app.ui.context.completion_logic import trigger_text
from composer_app.ui.context.insert_actions import NO_WORKSPACE, InsertActions, type_trigger
from tests.ui.context.catalog_support import CompletingEditor, ListCatalog

NAMES = ["attachFiles", "captureScreenshot", "insertMention", "insertSkill", "insertThread",
         "runCommand", "insertPullRequest", "showChanges"]


def test_entries_menu_and_button(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    actions = InsertActions(window)
    menu = actions.menu(window)
    assert menu.objectName() == "insertMenu"
    assert [a.objectName() for a in menu.actions() if not a.isSeparator()] == NAMES
    assert actions.action("attachFiles").shortcut() == QKeySequence("Ctrl+U")
    assert actions.action("showChanges").shortcut() == QKeySequence("Ctrl+Shift+G")
    shortcuts = [actions.action(n).shortcut().toString() for n in NAMES]
    assert all(shortcuts) and len(set(shortcuts)) == len(shortcuts)
    button = actions.add_context_button(window)
    assert button.objectName() == "addContextButton"
    assert button.menu() is not None
    assert [a.objectName() for a in button.menu().actions() if not a.isSeparator()] == NAMES


def test_workspace_entries_follow_the_thread(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    actions = InsertActions(window)
    for name in ("insertMention", "runCommand", "showChanges"):
        assert not actions.action(name).isEnabled()
        assert actions.action(name).toolTip() == NO_WORKSPACE
    assert actions.action("insertSkill").isEnabled()
    actions.set_workspace_available(True)
    assert actions.action("runCommand").isEnabled()
    tip = actions.action("runCommand").toolTip()
    assert tip == "Run a command in the workspace (!) (Ctrl+Alt+R)"


def test_trigger_text() -> None:
    assert trigger_text("", "@") == "@"
    assert trigger_text("see ", "@") == "@"
    assert trigger_text("see", "#") == " #"


def test_typed_trigger_opens_the_popup(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    editor = CompletingEditor()
    window.setCentralWidget(editor)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    editor.completion.set_catalog(ListCatalog(threads=[("t1", "Plan")]))
    editor.insertPlainText("compare")
    assert type_trigger(editor, "insertThread")
    assert editor.toPlainText() == "compare #"
    assert editor.completion.is_open()
    assert not type_trigger(editor, "attachFiles")
