"""Folder events tell the index when a listing may have changed, and only then."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from composer_app.server.workspace.folder_watch import (
    IN_CLOSE_WRITE,
    IN_CREATE,
    IN_DELETE_SELF,
    IN_MOVED_TO,
    IN_Q_OVERFLOW,
    FolderWatch,
    relevant,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


def settled(watch: FolderWatch) -> bool:
    """``changed()`` after the kernel had a moment to queue the events."""
    time.sleep(0.05)
    return watch.changed()


def test_entries_created_deleted_or_moved_count_and_are_reported_once(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    watch = FolderWatch()
    assert watch.add([str(tmp_path), str(tmp_path / "sub")])
    assert not settled(watch)
    (tmp_path / "sub" / "new.txt").write_text("x")
    assert settled(watch)
    assert not settled(watch)  # reported once
    os.rename(tmp_path / "sub" / "new.txt", tmp_path / "moved.txt")
    assert settled(watch)
    (tmp_path / "moved.txt").unlink()
    assert settled(watch)
    watch.close()


def test_writing_a_file_does_not_count_but_writing_a_gitignore_does(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one")
    (tmp_path / ".gitignore").write_text("*.log\n")
    watch = FolderWatch()
    assert watch.add([str(tmp_path)])
    (tmp_path / "a.txt").write_text("two")
    assert not settled(watch)
    (tmp_path / ".gitignore").write_text("*.tmp\n")
    assert settled(watch)
    watch.close()


def test_in_git_s_folder_only_the_index_counts(tmp_path: Path) -> None:
    git_dir = tmp_path / ".git"
    git_dir.mkdir()
    watch = FolderWatch()
    assert watch.add([str(tmp_path)], git_dir=str(git_dir))
    (git_dir / "ORIG_HEAD").write_text("x")
    (git_dir / "index.lock").write_text("x")
    assert not settled(watch)
    os.rename(git_dir / "index.lock", git_dir / "index")
    assert settled(watch)
    watch.close()


def test_a_folder_gone_before_it_is_watched_counts_and_a_closed_watch_always_answers_yes(
        tmp_path: Path) -> None:
    watch = FolderWatch()
    assert watch.add([str(tmp_path / "gone")])
    assert watch.changed()
    watch.close()
    watch.close()
    assert watch.changed() and not watch.add([str(tmp_path)])


def test_which_events_are_relevant() -> None:
    assert relevant(IN_CREATE, "x.py", False) and relevant(IN_MOVED_TO, "x", False)
    assert not relevant(IN_CLOSE_WRITE, "x.py", False)
    assert relevant(IN_CLOSE_WRITE, ".gitignore", False)
    assert relevant(IN_Q_OVERFLOW, "", False) and relevant(IN_DELETE_SELF, "", True)
    assert not relevant(IN_CREATE, "index.lock", True) and relevant(IN_MOVED_TO, "index", True)


def test_a_watch_dropped_without_close_frees_its_descriptor(tmp_path: Path) -> None:
    import gc

    before = len(os.listdir("/proc/self/fd"))
    watches = [FolderWatch() for _ in range(20)]
    for watch in watches:
        watch.add([str(tmp_path)])
    assert len(os.listdir("/proc/self/fd")) >= before + 20
    del watches, watch
    gc.collect()
    assert len(os.listdir("/proc/self/fd")) <= before + 1
