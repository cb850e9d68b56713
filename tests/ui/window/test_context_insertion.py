"""The window's ways of adding context, against a real embedded server with a real workspace:
the Insert menu and ``+`` button, the thread's workspace folder, typed triggers over the engine,
command mode, the Changes pane's comment flow, attaching files and pull requests."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QListView, QToolButton
from pytestqt.qtbot import QtBot

from composer_app.ui.context.insert_actions import ENTRIES, NO_WORKSPACE
from composer_app.ui.window.context_insertion import NO_FOLDER
from composer_app.ui.window.main_window import MainWindow

from .window_support import WAIT_MS, Backend, running_backend

NAMES = [entry[0] for entry in ENTRIES]
NEEDS_WORKSPACE = {entry[0] for entry in ENTRIES if entry[4]}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The embedded server accepts workspaces under the home folder: make it the test's."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


@pytest.fixture
def backend(tmp_path: Path, home: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


@pytest.fixture
def project(home: Path) -> Path:
    """A git repository with one commit and one uncommitted change."""
    root = home / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "main.py").write_text("def main():\n    return 1\n")
    (root / "README.md").write_text("# Project\n")
    git = ["git", "-C", str(root), "-c", "user.name=T", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "start"], check=True)
    (root / "src" / "main.py").write_text("def main():\n    return 2\n")
    return root


def with_workspace(window: MainWindow, qtbot: QtBot, folder: Path) -> None:
    """*Thread ▸ Workspace folder…* with the chooser answering ``folder``."""
    window.context.choose_folder = lambda _parent, _start: str(folder)  # type: ignore[assignment]
    window.context.workspace_action.trigger()
    qtbot.waitUntil(lambda: window.context.workspace == str(folder), timeout=WAIT_MS)


def kinds(window: MainWindow) -> list[str]:
    return [record.kind for record in window.editor.records().values()]


def test_insert_menu_and_plus_button_share_every_entry(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    menus = {a.menu().objectName(): a.menu() for a in window.menuBar().actions() if a.menu()}
    insert = menus["insertMenu"]
    assert [a.objectName() for a in insert.actions() if not a.isSeparator()] == NAMES
    shortcuts = {a.objectName(): a.shortcut().toString() for a in window.actions()}
    assert shortcuts["attachFiles"] == "Ctrl+U"
    assert shortcuts["showChanges"] == "Ctrl+Shift+G"
    button = window.findChild(QToolButton, "addContextButton")
    assert button is not None and button.isVisible()
    assert [a.objectName() for a in button.menu().actions() if not a.isSeparator()] == NAMES
    for action in insert.actions():
        if action.objectName() in NEEDS_WORKSPACE:
            assert not action.isEnabled()
            assert action.toolTip() == NO_WORKSPACE
    assert window.context.workspace_label.text() == NO_FOLDER


def test_workspace_folder_enables_entries_and_clears(backend: Backend, qtbot: QtBot,
                                                     project: Path) -> None:
    window = backend.window(qtbot)
    thread_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Thread")
    assert {"chooseWorkspace", "clearWorkspace"} <= {a.objectName() for a in thread_menu.actions()}
    with_workspace(window, qtbot, project)
    assert window.context.workspace_label.text() == "Workspace: project"
    assert window.context.workspace_label.toolTip() == str(project)
    for name in NEEDS_WORKSPACE:
        assert window.context.insert_actions.action(name).isEnabled()
    window.context.clear_workspace_action.trigger()
    qtbot.waitUntil(lambda: window.context.workspace is None, timeout=WAIT_MS)
    assert window.context.workspace_label.text() == NO_FOLDER
    assert not window.context.insert_actions.action("runCommand").isEnabled()


def test_remote_workspace_is_typed_as_a_path(backend: Backend, qtbot: QtBot,
                                             project: Path) -> None:
    window = backend.window(qtbot)
    window.context._embedded = False
    asked: list[str] = []

    def ask(_parent: Any, title: str, _label: str, _text: str) -> str:
        asked.append(title)
        return str(project)

    window.context.ask_text = ask  # type: ignore[assignment]
    window.context.workspace_action.trigger()
    qtbot.waitUntil(lambda: window.context.workspace == str(project), timeout=WAIT_MS)
    assert asked == ["Workspace folder"]


def _popup(window: MainWindow) -> QListView:
    popup = window.findChild(QListView, "contextCompletion")
    assert popup is not None
    return popup


@pytest.mark.parametrize(("entry", "typed", "kind"), [
    ("insertMention", "mai", "mention"),
    ("insertSkill", "", "skill"),
])
def test_entries_type_the_trigger_and_complete_from_the_engine(
        backend: Backend, qtbot: QtBot, project: Path, entry: str, typed: str, kind: str) -> None:
    skills = project / ".composer" / "skills" / "review"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text("---\nname: review\ndescription: Review the diff\n---\nGo\n")
    window = backend.window(qtbot)
    with_workspace(window, qtbot, project)
    window.activateWindow()
    window.context.insert_actions.action(entry).trigger()
    qtbot.keyClicks(window.editor, typed)
    qtbot.waitUntil(lambda: _popup(window).isVisible(), timeout=WAIT_MS)
    assert _popup(window).model().rowCount() >= 1
    qtbot.keyClick(window.editor, Qt.Key.Key_Return)
    assert kinds(window) == [kind]
    assert f"t3-context://v1/{kind}/" in window.editor.markdown()
    if kind == "mention":
        record = next(iter(window.editor.records().values()))
        assert record.path == "src/main.py"


def test_thread_trigger_lists_other_threads_most_recent_first(backend: Backend,
                                                              qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    window.navigator.rename_thread(first, "Release notes")
    qtbot.waitUntil(lambda: window.navigator.thread_title(first) == "Release notes",
                    timeout=WAIT_MS)
    window.new_thread("Second")
    qtbot.waitUntil(lambda: window.current_thread != first and bool(window.current_thread),
                    timeout=WAIT_MS)
    window.activateWindow()
    window.context.insert_actions.action("insertThread").trigger()
    qtbot.waitUntil(lambda: _popup(window).isVisible(), timeout=WAIT_MS)
    shown = [_popup(window).model().index(i, 0).data()
             for i in range(_popup(window).model().rowCount())]
    assert shown and shown[0].startswith("Release notes")
    qtbot.keyClick(window.editor, Qt.Key.Key_Tab)
    record = next(iter(window.editor.records().values()))
    assert record.kind == "thread" and record.thread_id == first


def test_run_a_command_puts_its_output_in_a_terminal_chip(backend: Backend, qtbot: QtBot,
                                                          project: Path) -> None:
    window = backend.window(qtbot)
    with_workspace(window, qtbot, project)
    window.activateWindow()
    window.context.insert_actions.action("runCommand").trigger()
    indicator = window.editor.context_input.command_mode.indicator
    assert indicator.isVisible()
    qtbot.keyClicks(window.editor, "echo hello-from-the-workspace")
    qtbot.keyClick(window.editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: kinds(window) == ["terminal"], timeout=WAIT_MS)
    record = next(iter(window.editor.records().values()))
    assert "hello-from-the-workspace" in record.text
    assert not indicator.isVisible()


def test_bang_in_an_empty_composer_runs_and_esc_cancels(backend: Backend, qtbot: QtBot,
                                                        project: Path) -> None:
    window = backend.window(qtbot)
    with_workspace(window, qtbot, project)
    window.activateWindow()
    window.editor.setFocus()
    qtbot.keyClicks(window.editor, "!sleep 20")
    command_mode = window.editor.context_input.command_mode
    assert window.editor.toPlainText() == "sleep 20"
    qtbot.keyClick(window.editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: str(command_mode.phase) == "running", timeout=WAIT_MS)
    qtbot.keyClick(window.editor, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: str(command_mode.phase) != "running", timeout=WAIT_MS)
    assert window.editor.toPlainText() == "sleep 20"
    assert kinds(window) == []


def test_changes_pane_comment_lands_at_the_composer_caret(backend: Backend, qtbot: QtBot,
                                                          project: Path) -> None:
    window = backend.window(qtbot)
    with_workspace(window, qtbot, project)
    dock = window.context.changes_dock
    window.context.insert_actions.action("showChanges").trigger()
    assert dock.isVisible() and dock.objectName() == "changesDock"
    qtbot.waitUntil(lambda: dock.model.rowCount() > 0, timeout=WAIT_MS)
    rows = dock.model.rows
    added = next(i for i, row in enumerate(rows)
                 if row.kind == "line" and dock.model.changes.files[row.file]
                 .hunks[row.hunk].lines[row.line].kind == "+")
    dock.select_rows(added, added)
    assert dock.open_comment()
    qtbot.keyClicks(dock.editor.edit, "Why 2?")
    qtbot.keyClick(dock.editor.edit, Qt.Key.Key_Return)
    assert kinds(window) == ["review-comment"]
    record = next(iter(window.editor.records().values()))
    assert record.file_path == "src/main.py" and record.text == "Why 2?"
    (project / "README.md").write_text("# Changed\n")
    dock.refresh_button.click()
    qtbot.waitUntil(lambda: "2 changed files" in dock.summary.text(), timeout=WAIT_MS)


def test_attach_files_goes_the_way_of_a_drop(backend: Backend, qtbot: QtBot,
                                             tmp_path: Path) -> None:
    window = backend.window(qtbot)
    files = [tmp_path / "a.txt", tmp_path / "b.png"]
    files[0].write_text("hello")
    picture = QImage(8, 8, QImage.Format.Format_RGB32)
    picture.fill(0x3366CC)
    assert picture.save(str(files[1]), "PNG")
    window.context.choose_files = lambda _parent: [str(f) for f in files]  # type: ignore
    window.context.insert_actions.action("attachFiles").trigger()
    assert sorted(kinds(window)) == ["file", "image"]


GH = """#!/bin/sh
if [ "$1" = "auth" ]; then exit 0; fi
cat <<'JSON'
{answer}
JSON
"""


def test_pull_request_entry_attaches_through_gh(backend: Backend, qtbot: QtBot, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    gh = bin_dir / "gh"
    gh.write_text(GH.format(answer=json.dumps({
        "number": 7, "title": "Wire the composer", "url": "https://github.com/octo/app/pull/7",
        "headRefName": "wire", "baseRefName": "main", "state": "OPEN", "isDraft": False})))
    gh.chmod(gh.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    window = backend.window(qtbot)
    window.context.ask_text = (  # type: ignore[assignment]
        lambda *_: "https://github.com/octo/app/pull/7")
    window.context.insert_actions.action("insertPullRequest").trigger()
    qtbot.waitUntil(lambda: kinds(window) == ["review-comment"], timeout=WAIT_MS)
    record = next(iter(window.editor.records().values()))
    assert record.pull_request is not None and record.pull_request.number == 7
    assert window.editor.attachments.pull_request_url(record.context_id) == (
        "https://github.com/octo/app/pull/7")


def test_an_older_file_search_answer_is_dropped(backend: Backend, qtbot: QtBot,
                                                project: Path) -> None:
    window = backend.window(qtbot)
    with_workspace(window, qtbot, project)
    got: list[tuple[str, list[str]]] = []
    catalog = window.context.catalog
    catalog.search_files("main", 10, lambda paths: got.append(("old", paths)))
    catalog.search_files("READ", 10, lambda paths: got.append(("new", paths)))
    qtbot.waitUntil(lambda: bool(got), timeout=WAIT_MS)
    qtbot.wait(200)
    assert got == [("new", ["README.md"])]
