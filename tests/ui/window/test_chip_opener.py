"""Chips open what they point at, in the composer and the transcript, against a real embedded
server: images (local copy and signed asset URL), files, workspace mentions, threads, review
comments, pull requests and terminal excerpts."""

from __future__ import annotations

import dataclasses
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from composer_app.core.codecs.diff import FileChange, Hunk, HunkLine
from composer_app.core.codecs.workspace_records import review_comment_record, terminal_record
from composer_app.core.contracts.records import decode_record
from composer_app.ui.viewers.image_viewer import ImageViewer
from composer_app.ui.viewers.review_comment_viewer import ReviewCommentViewer
from composer_app.ui.viewers.text_viewer import TextViewer
from composer_app.ui.window.main_window import MainWindow

from .window_support import WAIT_MS, Backend, running_backend


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


@pytest.fixture
def backend(tmp_path: Path, home: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


def picture(path: Path) -> Path:
    image = QImage(16, 12, QImage.Format.Format_RGB32)
    image.fill(0x22AA44)
    assert image.save(str(path), "PNG")
    return path


def click_chip(window: MainWindow, qtbot: QtBot) -> None:
    """Click the first chip of the composer."""
    editor = window.editor
    text = editor.toPlainText()
    cursor = editor.textCursor()
    cursor.setPosition(text.index("\ufffc"))
    rect = editor.cursorRect(cursor)
    qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.left() + 6, rect.center().y()))


def test_clicking_an_image_chip_opens_its_bytes(backend: Backend, qtbot: QtBot,
                                                tmp_path: Path) -> None:
    window = backend.window(qtbot)
    window.editor.attach_paths([str(picture(tmp_path / "shot.png"))])
    click_chip(window, qtbot)
    viewer = window.chip_opener.viewer
    assert isinstance(viewer, ImageViewer) and viewer.valid
    assert viewer.isVisible()


def test_a_text_file_opens_in_the_text_viewer(backend: Backend, qtbot: QtBot,
                                              tmp_path: Path) -> None:
    window = backend.window(qtbot)
    notes = tmp_path / "notes.txt"
    notes.write_text("one\ntwo\n")
    record = window.editor.attach_paths([str(notes)])[0]
    assert window.editor.activate_chip(record.context_id)
    viewer = window.chip_opener.viewer
    assert isinstance(viewer, TextViewer)
    assert viewer.text.toPlainText() == "one\ntwo\n"
    assert viewer.open_button.isEnabled()


def test_open_in_editor_runs_the_editor_command_of_the_settings(
        backend: Backend, qtbot: QtBot, tmp_path: Path) -> None:
    window = backend.window(qtbot)
    out = tmp_path / "editor-args.txt"
    script = f"import sys; open({str(out)!r}, 'w').write('|'.join(sys.argv[1:]))"
    window.session.settings = dataclasses.replace(
        window.session.settings,
        editor_command=f"{shlex.quote(sys.executable)} -c {shlex.quote(script)} {{path}} {{line}}")
    notes = tmp_path / "my notes.txt"
    notes.write_text("one\ntwo\n")
    record = window.editor.attach_paths([str(notes)])[0]
    assert window.editor.activate_chip(record.context_id)
    viewer = window.chip_opener.viewer
    assert isinstance(viewer, TextViewer)
    assert viewer.open_in_editor()
    qtbot.waitUntil(lambda: out.exists() and out.read_text() != "", timeout=WAIT_MS)
    path, line = out.read_text().split("|")
    assert Path(path).read_text() == "one\ntwo\n" and line == "1"


def test_a_mention_opens_the_workspace_file(backend: Backend, qtbot: QtBot, home: Path) -> None:
    project = home / "project"
    project.mkdir()
    (project / "main.py").write_text("print('hi')\n")
    window = backend.window(qtbot)
    window.context.choose_folder = lambda *_: str(project)  # type: ignore[assignment]
    window.context.workspace_action.trigger()
    qtbot.waitUntil(lambda: window.context.workspace == str(project), timeout=WAIT_MS)
    record = decode_record({"version": 1, "kind": "mention", "contextId": "mention_main",
                            "label": "main.py", "path": "main.py"})
    assert window.chip_opener.open_record(record)
    qtbot.waitUntil(lambda: isinstance(window.chip_opener.viewer, TextViewer), timeout=WAIT_MS)
    viewer = window.chip_opener.viewer
    assert isinstance(viewer, TextViewer)
    assert viewer.text.toPlainText() == "print('hi')\n"
    assert viewer.local_path == str(project / "main.py")


def test_a_thread_chip_switches_to_the_thread(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    window.new_thread("Other")
    qtbot.waitUntil(lambda: window.current_thread not in ("", first), timeout=WAIT_MS)
    record = decode_record({"version": 1, "kind": "thread", "contextId": "thread_first",
                            "label": "First", "environmentId": "env", "threadId": first,
                            "title": "First"})
    window.editor.insert_context(record)
    assert window.editor.activate_chip(record.context_id)
    assert window.current_thread == first


def _change() -> FileChange:
    hunk = Hunk("@@ -1 +1 @@", 1, 1, 1, 1,
                (HunkLine("-", "a = 1", 1, None), HunkLine("+", "a = 2", None, 1)))
    return FileChange("src/a.py", "modified", (hunk,))


def test_review_comments_pull_requests_and_terminal_excerpts(backend: Backend,
                                                             qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    opener = window.chip_opener
    comment = review_comment_record(_change(), 1, 1, "Why?")
    assert opener.open_record(comment)
    assert isinstance(opener.viewer, ReviewCommentViewer)
    opened: list[str] = []
    opener.url_opener = opened.append  # type: ignore[assignment]
    wire = comment.model_dump(by_alias=True, exclude_none=True)
    wire["pullRequest"] = {"number": 3, "title": "T", "url": "https://github.com/o/r/pull/3",
                           "headBranch": "h", "baseBranch": "main", "state": "open",
                           "isDraft": False}
    assert opener.open_record(decode_record(wire))
    assert opened == ["https://github.com/o/r/pull/3"]
    run = terminal_record("run_1", "ls", {"text": "a\nb\n", "lineCount": 2})
    assert opener.open_record(run)
    assert isinstance(opener.viewer, TextViewer)
    assert opener.viewer.text.toPlainText() == "a\nb\n"
    skill = decode_record({"version": 1, "kind": "skill", "contextId": "skill_x", "label": "x",
                           "name": "x"})
    assert not opener.open_record(skill)  # the caller shows its details instead


def test_a_sent_image_opens_from_the_transcript_through_its_asset_url(
        backend: Backend, qtbot: QtBot, tmp_path: Path) -> None:
    window = backend.window(qtbot)
    shot = picture(tmp_path / "sent.png")
    window.editor.attach_paths([str(shot)])
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_Return)

    def answered() -> bool:
        roles = [(m.role, m.streaming) for m in window.transcript.messages]
        return roles == [("user", False), ("assistant", False)]

    qtbot.waitUntil(answered, timeout=WAIT_MS)
    message = window.transcript.messages[0]
    record = next(iter(message.resolved()[1].values()))
    shot.unlink()  # no local copy: the bytes come through the signed asset URL
    window.uploads.source_path = lambda _id: None  # type: ignore[method-assign]
    assert window.transcript.activate_chip(message, record.context_id) == "opened"
    qtbot.waitUntil(lambda: isinstance(window.chip_opener.viewer, ImageViewer), timeout=WAIT_MS)
    viewer = window.chip_opener.viewer
    assert isinstance(viewer, ImageViewer) and viewer.valid
