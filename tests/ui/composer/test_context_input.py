"""The composer's typed context: ``set_context_catalog`` triggers, Esc, undo, command mode without
a workspace, and a pasted pull-request URL (a fake ``gh`` on ``PATH``)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QListView
from pytestqt.qtbot import QtBot

from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.context.command_mode import NO_RUNNER
from tests.ui.context.catalog_support import ListCatalog

FILES = ["src/main.py", "src/maths.py", "docs/guide.md"]
SKILLS = [("review", "Review the diff"), ("explain", "Explain the code")]
THREADS = [("thr_recent", "Release notes"), ("thr_old", "Kick-off")]


@pytest.fixture
def editor(composer: ComposerEditor) -> ComposerEditor:
    composer.environment_id = "env_test"
    composer.set_context_catalog(ListCatalog(FILES, SKILLS, THREADS))
    return composer


def popup(editor: ComposerEditor) -> QListView:
    found = editor.window().findChild(QListView, "contextCompletion")
    assert found is not None
    return found


@pytest.mark.parametrize(("typed", "kind", "label"), [
    ("@math", "mention", "maths.py"),
    ("/rev", "skill", "review"),
    ("#rel", "thread", "Release notes"),
])
def test_each_trigger_completes_into_a_chip(editor: ComposerEditor, qtbot: QtBot, typed: str,
                                            kind: str, label: str) -> None:
    qtbot.keyClicks(editor, "see " + typed)
    assert popup(editor).isVisible()
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    records = list(editor.records().values())
    assert [r.kind for r in records] == [kind]
    assert records[0].label == label
    assert editor.markdown().startswith(f"see [{label}](t3-context://v1/{kind}/")
    assert not popup(editor).isVisible()
    editor.undo()
    assert editor.toPlainText() == "see " + typed  # one undo step brings the typed text back


def test_down_moves_and_tab_inserts_the_highlighted_row(editor: ComposerEditor,
                                                        qtbot: QtBot) -> None:
    qtbot.keyClicks(editor, "@src")
    qtbot.keyClick(editor, Qt.Key.Key_Down)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert [r.path for r in editor.records().values()] == ["src/maths.py"]
    assert editor.hasFocus()


def test_esc_closes_and_keeps_the_text_then_enter_sends(editor: ComposerEditor,
                                                        qtbot: QtBot) -> None:
    sent: list[str] = []
    editor.send_requested.connect(lambda text, _context: sent.append(text))
    qtbot.keyClicks(editor, "@main")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert not popup(editor).isVisible()
    assert editor.toPlainText() == "@main"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert sent == ["@main"]


def test_without_a_catalog_triggers_stay_text(composer: ComposerEditor, qtbot: QtBot) -> None:
    qtbot.keyClicks(composer, "@main")
    assert composer.window().findChild(QListView, "contextCompletion") is None
    assert composer.toPlainText() == "@main"


def test_command_mode_without_a_workspace_says_why(editor: ComposerEditor, qtbot: QtBot) -> None:
    notices: list[str] = []
    editor.notice_posted.connect(lambda title, _detail: notices.append(title))
    qtbot.keyClicks(editor, "!ls")
    assert editor.toPlainText() == "ls"
    assert str(editor.context_input.command_mode.phase) == "editing"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert notices == [NO_RUNNER]
    assert editor.toPlainText() == "ls"
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert str(editor.context_input.command_mode.phase) == "off"


def test_a_runner_result_becomes_a_terminal_chip(editor: ComposerEditor, qtbot: QtBot) -> None:
    from composer_app.core.codecs.workspace_records import terminal_record

    def runner(command: str, on_output: Any, on_done: Any) -> Any:
        on_output("hi\n")
        on_done(terminal_record("run_1", command, {"text": "hi\n", "lineCount": 1}))
        return lambda: None

    editor.context_input.set_command_runner(runner)
    qtbot.keyClicks(editor, "!echo hi")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    records = list(editor.records().values())
    assert [r.kind for r in records] == ["terminal"] and records[0].text == "hi\n"


GH = """#!/bin/sh
if [ "$1" = "auth" ]; then exit 0; fi
cat <<'JSON'
{answer}
JSON
"""


def test_a_pasted_pull_request_url_is_offered_and_attached(
        editor: ComposerEditor, qtbot: QtBot, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gh = bin_dir / "gh"
    gh.write_text(GH.format(answer=json.dumps({
        "number": 42, "title": "Add the pane", "url": "https://github.com/octo/app/pull/42",
        "headRefName": "pane", "baseRefName": "main", "state": "OPEN", "isDraft": False})))
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    qtbot.keyClicks(editor, "look: ")
    mime = QMimeData()
    mime.setText("https://github.com/octo/app/pull/42")
    QGuiApplication.clipboard().setMimeData(mime)
    editor.paste()
    offer = editor.context_input.pull_requests
    assert offer.offered is not None and offer.offered.number == 42
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(editor.records()), timeout=10_000)
    record = next(iter(editor.records().values()))
    assert record.kind == "review-comment" and record.pull_request.number == 42
    assert "github.com" not in editor.toPlainText()


def test_esc_keeps_a_pasted_pull_request_url_as_text(editor: ComposerEditor,
                                                     qtbot: QtBot) -> None:
    mime = QMimeData()
    mime.setText("https://github.com/octo/app/pull/42")
    QGuiApplication.clipboard().setMimeData(mime)
    editor.paste()
    assert editor.context_input.pull_requests.offered is not None
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert editor.context_input.pull_requests.offered is None
    assert editor.toPlainText() == "https://github.com/octo/app/pull/42"
    assert not editor.records()


def test_a_clicked_thread_row_names_the_current_environment(composer: ComposerEditor,
                                                            qtbot: QtBot) -> None:
    composer.set_context_catalog(ListCatalog(FILES, SKILLS, THREADS))
    composer.environment_id = "env_later"  # the window learns it after the catalog is set
    qtbot.keyClicks(composer, "#kick")
    view = popup(composer)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.visualRect(view.model().index(0, 0)).center())
    record = next(iter(composer.records().values()))
    assert record.kind == "thread" and record.environment_id == "env_later"
