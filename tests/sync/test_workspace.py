"""The engine's workspace calls against the real server on loopback: setting a thread's folder,
search, reading, changes, skills, and command runs with streamed output and cancel."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from pathlib import Path

import pytest

from composer_app.core.codecs.workspace_records import review_comment_record, terminal_record
from composer_app.sync.engine import SyncEngine
from composer_app.sync.workspace import WorkspaceError
from tests.sync.conftest import WAIT, LoopbackServer, Recorder

Make = Callable[..., tuple[SyncEngine, Recorder]]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root" / "project"
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def served(tmp_path: Path, root: Path) -> Iterator[LoopbackServer]:
    srv = LoopbackServer(tmp_path / "server", workspace_roots=(root.parent,),
                         allow_commands=True).start()
    yield srv
    srv.stop()


def _thread_with_workspace(srv: LoopbackServer, engine: SyncEngine, folder: Path) -> str:
    thread = engine.create_thread("Work").result(WAIT)
    engine.set_thread_workspace(thread, str(folder)).result(WAIT)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if not engine.outbox_items().result(WAIT):
            break
        time.sleep(0.02)
    return thread


def test_search_read_changes_and_skills(served: LoopbackServer, make_engine: Make,
                                       root: Path) -> None:
    (root / "ui").mkdir()
    (root / "ui" / "main_window.py").write_text("a\nb\nc\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "-c", "user.name=T", "-c", "user.email=t@x",
                    "add", "."], check=True)
    subprocess.run(["git", "-C", str(root), "-c", "user.name=T", "-c", "user.email=t@x",
                    "commit", "-qm", "i"], check=True)
    (root / "ui" / "main_window.py").write_text("a\nB\nc\n")
    skills = served.data_dir / "skills" / "review"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text("---\nname: review\ndescription: Review it\n---\nBody\n")
    engine, _ = make_engine(served.base_url, served.token())
    thread = _thread_with_workspace(served, engine, root)
    found = engine.search_files(thread, "mwin").result(WAIT)
    assert found[0].path == "ui/main_window.py" and found[0].kind == "file"
    text = engine.read_file(thread, "ui/main_window.py", 2, 2).result(WAIT)
    assert (text.text, text.start_line, text.line_count) == ("B\n", 2, 3)
    changes = engine.changes(thread).result(WAIT)
    assert changes.revision is not None and changes.files[0].path == "ui/main_window.py"
    record = review_comment_record(changes.files[0], 2, 2, "Why upper case?",
                                   source_revision=changes.revision)
    assert record.range_label == "L2" and "+B" in record.diff
    assert [s.name for s in engine.skills(thread).result(WAIT)] == ["review"]
    with pytest.raises(WorkspaceError) as refused:
        engine.read_file(thread, "../outside.txt").result(WAIT)
    assert refused.value.code == "path_outside_workspace"


def test_run_streams_output_and_makes_a_terminal_record(served: LoopbackServer,
                                                        make_engine: Make, root: Path) -> None:
    engine, _ = make_engine(served.base_url, served.token())
    thread = _thread_with_workspace(served, engine, root)
    seen: list[str] = []
    exit_line = engine.run_command(thread, "echo hello; echo world", 10,
                                   on_output=seen.append).result(WAIT)
    assert "".join(seen) == "hello\nworld\n"
    assert exit_line["exitCode"] == 0
    record = terminal_record(exit_line["runId"], "echo hello; echo world", exit_line)
    assert (record.line_start, record.line_end, record.text) == (1, 2, "hello\nworld\n")


def test_cancel_ends_the_run_and_its_processes(served: LoopbackServer, make_engine: Make,
                                               root: Path) -> None:
    engine, _ = make_engine(served.base_url, served.token())
    thread = _thread_with_workspace(served, engine, root)
    started = threading.Event()
    future = engine.run_command(thread, "sleep 300 & echo $! > child.pid; echo go; wait", 300,
                                on_output=lambda _text: started.set())
    assert started.wait(WAIT)
    future.cancel()
    with pytest.raises(CancelledError):
        future.result(WAIT)
    pid = int((root / "child.pid").read_text())
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the command's child process outlived the cancelled run")


def test_commands_disabled_is_reported(tmp_path: Path, make_engine: Make, root: Path) -> None:
    srv = LoopbackServer(tmp_path / "locked", workspace_roots=(root.parent,)).start()
    try:
        engine, _ = make_engine(srv.base_url, srv.token(), name="locked-client")
        thread = _thread_with_workspace(srv, engine, root)
        with pytest.raises(WorkspaceError) as refused:
            engine.run_command(thread, "true").result(WAIT)
        assert refused.value.code == "commands_disabled"
    finally:
        srv.stop()


def _row_workspace(engine: SyncEngine, thread: str, want: str | None) -> str | None:
    deadline = time.monotonic() + WAIT
    folder: str | None = "unset"
    while time.monotonic() < deadline:
        row = next((r for r in engine.threads().result(WAIT) if r.thread_id == thread), None)
        folder = row.workspace if row is not None else "missing"
        if folder == want:
            break
        time.sleep(0.02)
    return folder


def test_the_thread_list_keeps_each_threads_workspace(served: LoopbackServer, make_engine: Make,
                                                      root: Path) -> None:
    engine, _ = make_engine(served.base_url, served.token())
    thread = _thread_with_workspace(served, engine, root)
    assert _row_workspace(engine, thread, str(root)) == str(root)
    engine.rename_thread(thread, "Renamed").result(WAIT)  # a rename keeps the folder
    later, _ = make_engine(served.base_url, served.token(), name="second-client")
    assert _row_workspace(later, thread, str(root)) == str(root)  # from the snapshot
    engine.set_thread_workspace(thread, None).result(WAIT)
    assert _row_workspace(engine, thread, None) is None
    assert _row_workspace(later, thread, None) is None
