"""The Sources panel's Open for knowledge-folder and workspace files: the app's viewer at the cited
lines, *Open with default app*, and nothing outside the folder. Real files, a real offline
assistant answer, the real panel offscreen."""

from __future__ import annotations

import concurrent.futures
import os
import re
import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from composer_app.core.contracts.sources import SourceEntry, decode_sources
from composer_app.server.providers.local import LocalProvider
from composer_app.sync.workspace import WorkspaceFile
from composer_app.ui.transcript.sources_panel import SourcesPanel
from composer_app.ui.viewers.source_file_opener import SourceFileOpener
from tests.server.providers.support import request, run_turn

HANDBOOK = """# Employee handbook

## Time off

All employees receive 25 days of paid vacation per calendar year, and
unused days can be carried over until the end of March.

## Probation

The probation period for new hires lasts six months. During probation
either side can end the contract with two weeks' notice.
"""


@pytest.fixture
def knowledge(tmp_path: Path) -> Path:
    root = tmp_path / "knowledge"
    (root / "policies").mkdir(parents=True)
    (root / "policies" / "handbook.md").write_text(HANDBOOK, encoding="utf-8")
    return root


def _answer(knowledge: Path, data: Path, question: str) -> list[SourceEntry]:
    provider = LocalProvider(knowledge, data)
    try:
        outcome = run_turn(provider, request(question))
    finally:
        provider.close()
    return list(outcome.entries())


class Harness:
    def __init__(self, qtbot: QtBot, *, knowledge: Path | None, workspace: Path | None = None,
                 fetch: Any = None, read_workspace: Any = None, cache: Path | None = None
                 ) -> None:
        self.window = QWidget()
        qtbot.addWidget(self.window)
        self.defaults: list[str] = []
        self.messages: list[str] = []
        self.opener = SourceFileOpener(
            self.window, knowledge_root=lambda: knowledge,
            workspace_root=lambda thread: workspace if thread == "thr_1" else None,
            fetch=fetch, read_workspace=read_workspace, cache=cache,
            open_default=lambda path: self.defaults.append(path) is None)
        self.opener.status_message.connect(self.messages.append)
        self.panel = SourcesPanel()
        qtbot.addWidget(self.panel)
        self.panel.file_opener = self.opener

    def show(self, entries: list[SourceEntry], *, public: bool = False) -> None:
        numbers = {e.id: n for n, e in enumerate(
            (e for e in entries if e.source_usage == "used"), start=1)}
        self.panel.show_message("msg_1", "thr_1", entries, numbers, "source-backed",
                                public=public)


def _entry(file_id: str, metadata: dict[str, Any] | None = None) -> SourceEntry:
    raw: dict[str, Any] = {"id": "kb:x", "type": "connector-file",
                           "sourceLabel": "Knowledge folder", "sourceUsage": "used",
                           "availableActions": ["download"], "title": "file", "fileId": file_id}
    if metadata:
        raw["metadata"] = metadata
    return decode_sources({"version": 1, "entries": [raw]})[0]


def test_knowledge_folder_files_have_open_at_the_cited_lines_and_a_readable_date(
        qtbot: QtBot, knowledge: Path, tmp_path: Path) -> None:
    entries = _answer(knowledge, tmp_path / "data", "How long is the probation period?")
    used = [e for e in entries if e.source_usage == "used"]
    assert [e.title for e in used] == ["handbook.md"]
    harness = Harness(qtbot, knowledge=knowledge)
    harness.show(entries)
    row = harness.panel.rows[used[0].id]
    modified = [text for label, text in row.model.details if label == "Modified"]
    assert len(modified) == 1 and re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}", modified[0])
    assert row.buttons["open-file"].text() == "Open"
    assert row.buttons["open-file"].toolTip().startswith(
        "Show policies/handbook.md at lines 8–11")  # the cited section
    row.buttons["open-file"].click()
    viewer = harness.opener.viewer
    assert viewer is not None and viewer.isVisible()
    assert viewer.text.toPlainText() == HANDBOOK
    assert viewer.windowTitle() == "policies/handbook.md — lines 8–11"
    assert viewer.marked_lines == (8, 11)
    assert viewer.text.textCursor().blockNumber() == 7
    assert viewer.text.textCursor().block().text() == "## Probation"
    marked = [m.cursor.block().text() for m in viewer.text.extraSelections()]
    assert any("probation period for new hires" in line for line in marked)
    assert viewer.default_button.isEnabled()
    viewer.default_button.click()
    assert harness.defaults == [str((knowledge / "policies" / "handbook.md").resolve())]
    assert harness.messages == []


def test_a_public_thread_offers_no_file_open(qtbot: QtBot, knowledge: Path,
                                            tmp_path: Path) -> None:
    entries = _answer(knowledge, tmp_path / "data", "How long is the probation period?")
    harness = Harness(qtbot, knowledge=knowledge)
    harness.show(entries, public=True)
    assert all("open-file" not in row.buttons for row in harness.panel.rows.values())


def test_hostile_sources_never_open_anything_outside_the_folder(qtbot: QtBot, knowledge: Path,
                                                               tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("password=hunter2\n", encoding="utf-8")
    os.symlink(secret, knowledge / "notes.txt")
    harness = Harness(qtbot, knowledge=knowledge)
    for file_id in ("knowledge:../secret.txt", "knowledge:notes.txt",
                    f"knowledge:{secret}", "knowledge:policies/../../secret.txt"):
        entry = _entry(file_id)
        harness.show([entry])
        harness.opener(entry, "thr_1", "msg_1")
        assert harness.opener.viewer is None
    assert harness.defaults == []
    assert len(harness.messages) == 4
    assert all("secret" not in m or "no longer" in m or "does not name" in m
               for m in harness.messages)


def test_documents_are_shown_as_the_assistant_reads_them(qtbot: QtBot, knowledge: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Bicycle policy", 1)
    document.add_paragraph("Employees can lease one bicycle every three years.")
    document.save(str(knowledge / "bikes.docx"))
    (knowledge / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    harness = Harness(qtbot, knowledge=knowledge)
    harness.opener(_entry("knowledge:bikes.docx", {"lineStart": 3}), "thr_1", "msg_1")
    viewer = harness.opener.viewer
    assert viewer is not None
    assert viewer.text.toPlainText() == (
        "# Bicycle policy\n\nEmployees can lease one bicycle every three years.")
    assert viewer.marked_lines == (3, 3)
    harness.opener(_entry("knowledge:logo.png"), "thr_1", "msg_1")  # no text: the desktop's app
    assert harness.defaults == [str((knowledge / "logo.png").resolve())]


def test_a_plain_text_file_is_shown_as_written(qtbot: QtBot, knowledge: Path) -> None:
    written = ("SALON PRICES\n\nWomen's cut, short hair ........ 42 euros\n"
               "Beard trim ..................... 12 euros\n" + "x" * 90 + "\n")
    (knowledge / "salon.txt").write_text(written, encoding="utf-8")
    harness = Harness(qtbot, knowledge=knowledge)
    harness.opener(_entry("knowledge:salon.txt", {"lineStart": 4}), "thr_1", "msg_1")
    viewer = harness.opener.viewer
    assert viewer is not None
    assert viewer.text.toPlainText().rstrip("\n") == written.rstrip("\n")  # no "#" or "- " added
    assert viewer.marked_lines == (4, 4)


def test_a_missing_file_says_so(qtbot: QtBot, knowledge: Path) -> None:
    harness = Harness(qtbot, knowledge=knowledge)
    assert not harness.opener(_entry("knowledge:gone.md"), "thr_1", "msg_1")
    assert harness.messages == ["gone.md is no longer in the knowledge folder."]


def test_a_remote_knowledge_file_is_fetched_through_the_download_route(
        qtbot: QtBot, knowledge: Path, tmp_path: Path) -> None:
    routes: list[str] = []

    def fetch(route: str, folder: Path) -> concurrent.futures.Future[Path]:
        routes.append(route)
        folder.mkdir(parents=True, exist_ok=True)
        future: concurrent.futures.Future[Path] = concurrent.futures.Future()
        target = folder / "handbook.md"
        shutil.copy(knowledge / "policies" / "handbook.md", target)
        future.set_result(target)
        return future

    cache = tmp_path / "cache"
    harness = Harness(qtbot, knowledge=None, fetch=fetch, cache=cache)
    entry = _entry("knowledge:policies/handbook.md", {"lineStart": 5, "lineEnd": 6})
    harness.show([entry])
    harness.panel.rows[entry.id].buttons["open-file"].click()
    qtbot.waitUntil(lambda: harness.opener.viewer is not None)
    viewer = harness.opener.viewer
    assert viewer is not None and viewer.marked_lines == (5, 6)
    assert len(routes) == 1 and routes[0].startswith("/api/threads/thr_1/messages/msg_1/sources/")
    assert routes[0].endswith("/download")
    assert viewer.local_path is not None and Path(viewer.local_path).is_relative_to(cache)


def test_a_failed_fetch_says_why(qtbot: QtBot, tmp_path: Path) -> None:
    def fetch(route: str, folder: Path) -> concurrent.futures.Future[Path]:
        future: concurrent.futures.Future[Path] = concurrent.futures.Future()
        future.set_exception(RuntimeError("The server could not be reached."))
        return future

    harness = Harness(qtbot, knowledge=None, fetch=fetch, cache=tmp_path / "cache")
    harness.opener(_entry("knowledge:a.md"), "thr_1", "msg_1")
    qtbot.waitUntil(lambda: bool(harness.messages))
    assert harness.messages == ["Could not open a.md: The server could not be reached."]
    assert harness.opener.viewer is None


def test_a_workspace_file_opens_from_the_local_workspace_or_the_server(
        qtbot: QtBot, tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    (workspace / "src").mkdir(parents=True)
    (workspace / "src" / "app.py").write_text(textwrap.dedent("""\
        import os


        def main():
            return os.getcwd()
        """), encoding="utf-8")
    local = Harness(qtbot, knowledge=None, workspace=workspace)
    local.opener(_entry("workspace:src/app.py", {"lineStart": 4, "lineEnd": 5}), "thr_1", "m")
    assert local.opener.viewer is not None and local.opener.viewer.marked_lines == (4, 5)
    assert local.opener.viewer.local_path == str((workspace / "src" / "app.py").resolve())

    reads: list[tuple[str, str]] = []

    def read(thread: str, path: str,
             then: Callable[[WorkspaceFile | None, str], None]) -> None:
        reads.append((thread, path))
        then(WorkspaceFile(path=path, text="line one\nline two\n", start_line=1, end_line=2,
                           line_count=2, modified_at="2026-12-01T10:00:00Z"), "")

    remote = Harness(qtbot, knowledge=None, read_workspace=read)
    remote.opener(_entry("workspace:src/app.py", {"lineStart": 2}), "thr_2", "m")
    viewer = remote.opener.viewer
    assert reads == [("thr_2", "src/app.py")]
    assert viewer is not None and viewer.marked_lines == (2, 2)
    assert not viewer.default_button.isEnabled()
    assert "on the server" in viewer.default_button.toolTip()
