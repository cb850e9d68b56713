"""Command mode on a real editor with a runner standing in for the workspace route."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QTextEdit
from pytestqt.qtbot import QtBot

from composer_app.core.contracts.records import TerminalRecord, decode_record
from composer_app.ui.context.command_mode import CommandMode
from composer_app.ui.context.command_mode_logic import CommandPhase


class Runs:
    """Records runs; the test finishes them."""

    def __init__(self) -> None:
        self.commands: list[str] = []
        self.output: list[Callable[[str], None]] = []
        self.done: list[Callable[[object], None]] = []
        self.cancelled = 0

    def __call__(self, command: str, on_output: Callable[[str], None],
                 on_done: Callable[[object], None]) -> Callable[[], None]:
        self.commands.append(command)
        self.output.append(on_output)
        self.done.append(on_done)

        def cancel() -> None:
            self.cancelled += 1
            on_done("Cancelled.")

        return cancel


def terminal(command: str, text: str) -> TerminalRecord:
    record = decode_record({"version": 1, "contextId": "terminal_run_1", "kind": "terminal",
                            "label": command, "terminalId": "run_1", "terminalLabel": command,
                            "lineStart": 1, "lineEnd": 1, "text": text})
    assert isinstance(record, TerminalRecord)
    return record


class CommandEditor(QTextEdit):
    def __init__(self) -> None:
        super().__init__()
        self.commands = CommandMode(self)
        self.sent = 0

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.commands.handle_key(event):
            return
        if event.key() == Qt.Key.Key_Return:
            self.sent += 1
            return
        super().keyPressEvent(event)


@pytest.fixture
def editor(qtbot: QtBot) -> CommandEditor:
    editor = CommandEditor()
    qtbot.addWidget(editor)
    qtbot.addWidget(editor.commands.indicator)
    editor.show()
    qtbot.waitExposed(editor)
    editor.setFocus()
    return editor


def test_bang_in_empty_composer_switches_visibly(qtbot: QtBot, editor: CommandEditor) -> None:
    runs = Runs()
    editor.commands.set_runner(runs)
    qtbot.keyClicks(editor, "!")
    assert editor.commands.phase is CommandPhase.EDITING
    assert editor.toPlainText() == ""
    assert editor.commands.indicator.objectName() == "commandModeIndicator"
    assert not editor.commands.indicator.isHidden()
    assert "Enter runs" in editor.commands.indicator.text.text()
    qtbot.keyClicks(editor, "echo hi")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert runs.commands == ["echo hi"]
    assert editor.sent == 0
    assert editor.isReadOnly()
    assert not editor.commands.indicator.cancel.isHidden()
    runs.output[0]("hi\n")
    record = terminal("echo hi", "hi")
    with qtbot.waitSignal(editor.commands.record_ready) as ready:
        runs.done[0](record)
    assert ready.args == [record]
    assert editor.commands.phase is CommandPhase.OFF
    assert editor.toPlainText() == "" and not editor.isReadOnly()
    assert editor.commands.indicator.isHidden()


def test_bang_inside_text_is_just_text(qtbot: QtBot, editor: CommandEditor) -> None:
    qtbot.keyClicks(editor, "hey!")
    assert editor.commands.phase is CommandPhase.OFF
    assert editor.toPlainText() == "hey!"


def test_escape_and_backspace_leave_command_mode(qtbot: QtBot, editor: CommandEditor) -> None:
    qtbot.keyClicks(editor, "!ls")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert editor.commands.phase is CommandPhase.OFF
    assert editor.toPlainText() == "ls"
    editor.clear()
    qtbot.keyClicks(editor, "!")
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    assert editor.commands.phase is CommandPhase.OFF
    assert editor.commands.indicator.isHidden()


def test_escape_cancels_and_keeps_the_command(qtbot: QtBot, editor: CommandEditor) -> None:
    runs = Runs()
    editor.commands.set_runner(runs)
    notices: list[str] = []
    editor.commands.notice.connect(notices.append)
    qtbot.keyClicks(editor, "!sleep 100")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert runs.cancelled == 1
    assert notices == ["Cancelled."]
    assert editor.commands.phase is CommandPhase.EDITING
    assert editor.toPlainText() == "sleep 100" and not editor.isReadOnly()
    runs.done[0](terminal("late", "x"))  # a late answer of a finished run is ignored
    assert editor.commands.phase is CommandPhase.EDITING


def test_no_workspace_says_so(qtbot: QtBot, editor: CommandEditor) -> None:
    notices: list[str] = []
    editor.commands.notice.connect(notices.append)
    qtbot.keyClicks(editor, "!ls")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert notices == ["Commands need a workspace on this thread."]
    assert editor.commands.phase is CommandPhase.EDITING


def test_cancel_button(qtbot: QtBot, editor: CommandEditor) -> None:
    runs = Runs()
    editor.commands.set_runner(runs)
    qtbot.keyClicks(editor, "!make")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.mouseClick(editor.commands.indicator.cancel, Qt.MouseButton.LeftButton)
    assert runs.cancelled == 1


def test_menu_entry_starts_command_mode_only_when_empty(editor: CommandEditor) -> None:
    assert editor.commands.start()
    assert editor.commands.phase is CommandPhase.EDITING
    assert not editor.commands.start()
    editor.commands.leave()
    editor.insertPlainText("draft")
    assert not editor.commands.start()
    assert editor.commands.phase is CommandPhase.OFF
