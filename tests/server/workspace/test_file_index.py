"""File search: git listing or .gitignore walk, folders as entries, quick-open ranking."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from composer_app.server.workspace import file_index
from composer_app.server.workspace.file_index import FileIndex, match_score
from tests.server.workspace.support import Workspaces, git, write, ws

__all__ = ["ws"]


def paths(ws: Workspaces, query: str, limit: int | None = None) -> list[str]:
    tail = f"files?q={query}" + (f"&limit={limit}" if limit is not None else "")
    response = ws.get(ws.url(tail))
    assert response.status_code == 200, response.text
    return [f["path"] for f in response.json()["files"]]


def test_quick_open_prefers_name_matches_word_starts_and_short_paths(ws: Workspaces) -> None:
    write(ws.folder, {"ui/main_window.py": "", "ui/window_manager.py": "", "docs/mwin.md": "",
                      "main/w/i/n.txt": "", "tests/ui/test_main_window.py": ""})
    found = paths(ws, "mwin")
    assert found[:2] == ["docs/mwin.md", "ui/main_window.py"]
    assert found.index("ui/main_window.py") < found.index("tests/ui/test_main_window.py")
    assert found.index("tests/ui/test_main_window.py") < found.index("main/w/i/n.txt")
    assert "ui/window_manager.py" not in found  # characters out of order


def test_folders_are_entries_and_the_answer_has_the_issue_shape(ws: Workspaces) -> None:
    write(ws.folder, {"src/app/core.py": ""})
    files = ws.get(ws.url("files?q=src")).json()["files"]
    assert {"path": "src", "kind": "directory"} in files
    assert all(set(f) == {"path", "kind"} for f in files)
    assert {"path": "src/app/core.py", "kind": "file"} in ws.get(
        ws.url("files?q=core")).json()["files"]


def test_a_folder_outside_git_honours_nested_gitignore_files(ws: Workspaces) -> None:
    write(ws.folder, {".gitignore": "*.log\nbuild/\n", "app.log": "", "keep.py": "",
                      "build/out.py": "", "sub/.gitignore": "secret.txt\n!important.log\n",
                      "sub/secret.txt": "", "sub/important.log": "", "sub/open.txt": "",
                      "other/secret.txt": "", ".git-not-really/x": ""})
    listed = set(paths(ws, "", 200))
    assert {"keep.py", "sub/open.txt", "other/secret.txt", "sub/important.log"} <= listed
    assert not listed & {"app.log", "build", "build/out.py", "sub/secret.txt"}


def test_a_repository_lists_git_ls_files_including_untracked_but_not_ignored(
        ws: Workspaces) -> None:
    git(ws.folder, "init", "-q")
    write(ws.folder, {".gitignore": "ignored/\n", "tracked.py": "", "ignored/x.py": "",
                      "new.py": ""})
    git(ws.folder, "add", "tracked.py", ".gitignore")
    git(ws.folder, "commit", "-qm", "init")
    listed = set(paths(ws, "", 200))
    assert {"tracked.py", "new.py", ".gitignore"} <= listed
    assert not any(p.startswith((".git/", "ignored")) for p in listed)


def test_empty_query_lists_recent_files_first_and_limit_is_bounded(ws: Workspaces) -> None:
    write(ws.folder, {"old.txt": "", "new.txt": "", "mid.txt": ""})
    now = time.time()
    for name, age in (("old.txt", 300), ("mid.txt", 200), ("new.txt", 100)):
        os.utime(ws.folder / name, (now - age, now - age))
    assert paths(ws, "")[:3] == ["new.txt", "mid.txt", "old.txt"]
    assert len(paths(ws, "", 2)) == 2
    for bad in ("0", "201", "x", "-1"):
        assert ws.get(ws.url(f"files?limit={bad}")).status_code == 400


def test_a_new_file_is_found_by_the_next_search(ws: Workspaces) -> None:
    write(ws.folder, {"a.txt": ""})
    assert paths(ws, "zebra") == []
    write(ws.folder, {"deep/zebra.txt": ""})
    assert paths(ws, "zebra") == ["deep/zebra.txt"]


def test_symlinks_are_listed_but_not_followed(ws: Workspaces, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, {"secret_plans.txt": ""})
    os.symlink(outside, ws.folder / "linked")
    found = paths(ws, "", 200)
    assert "linked" in found and "linked/secret_plans.txt" not in found


def test_match_score_rewards_segment_starts_and_contiguous_runs() -> None:
    start = len("ui/")
    assert match_score("mwin", "ui/main_window.py", "ui/main_window.py", start, start) is not None
    assert match_score("xyz", "ui/main_window.py", "ui/main_window.py", 0, start) is None
    contiguous = match_score("main", "main.py", "main.py", 0, 0)
    scattered = match_score("main", "mxaxixn.py", "mxaxixn.py", 0, 0)
    assert contiguous is not None and scattered is not None and contiguous > scattered


def test_a_search_during_the_first_build_waits_for_it(tmp_path: Path) -> None:
    write(tmp_path, {f"d{i}/f{i}.txt": "" for i in range(300)})
    index = FileIndex(tmp_path)
    index.start()
    assert index.search("f299", 5)[0].path == "d299/f299.txt"


def _wait_until(condition: Callable[[], bool], seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_watched_index_stats_no_folder_per_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {f"d{i}/f{i}.txt": "" for i in range(50)})
    index = FileIndex(tmp_path)
    assert index.search("f7", 5)[0].path == "d7/f7.txt"
    assert _wait_until(lambda: index.watching)
    index.search("", 1)  # waits for the background pass of file modification times to end
    calls: list[str] = []
    real = file_index._mtime
    mine = str(tmp_path)  # an earlier test's index may still be finishing its own pass
    monkeypatch.setattr(file_index, "_mtime",
                        lambda path: (calls.append(path) if path.startswith(mine) else None)
                        or real(path))
    for query in ("f", "f1", "f12", "d4", ""):
        index.search(query, 5)
    assert calls == []  # freshness came from folder events, not from a stat per folder
    write(tmp_path, {"d3/zebra.txt": ""})
    assert [e.path for e in index.search("zebra", 5)] == ["d3/zebra.txt"]
    index.close()


def test_a_large_index_answers_at_once_and_takes_in_a_change_in_the_background(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_index, "SYNC_REBUILD_MAX", 10)
    write(tmp_path, {f"d{i}/f{i}.txt": "" for i in range(40)})
    index = FileIndex(tmp_path)
    assert index.search("zebra", 5) == []
    write(tmp_path, {"new/zebra.txt": ""})
    assert _wait_until(lambda: [e.path for e in index.search("zebra", 5)] == ["new/zebra.txt"])
    write(tmp_path, {"new/deeper/zebra2.txt": ""})  # a folder that did not exist when watched
    assert _wait_until(lambda: "new/deeper/zebra2.txt" in [
        e.path for e in index.search("zebra2", 5)])
    index.close()


def test_without_folder_events_modification_times_keep_the_index_fresh(tmp_path: Path) -> None:
    write(tmp_path, {"a.txt": ""})
    index = FileIndex(tmp_path)
    assert index.search("zebra", 5) == []
    index.close()
    assert not index.watching
    write(tmp_path, {"deep/zebra.txt": ""})
    assert [e.path for e in index.search("zebra", 5)] == ["deep/zebra.txt"]


def test_a_repository_index_follows_git_add_and_new_untracked_files(tmp_path: Path) -> None:
    write(tmp_path, {"tracked.py": "x\n", "ignored.log": "", ".gitignore": "*.log\n"})
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "tracked.py", ".gitignore")
    index = FileIndex(tmp_path)
    assert [e.path for e in index.search("tracked", 5)] == ["tracked.py"]
    write(tmp_path, {"src/fresh_module.py": "", "more.log": ""})
    assert [e.path for e in index.search("freshmodule", 5)] == ["src/fresh_module.py"]
    assert index.search("more.log", 5) == []
    index.close()
