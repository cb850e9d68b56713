"""A workspace's changes against ``HEAD`` through the ``git`` command line.

Invariants: the working tree and index are compared with ``HEAD`` (``git diff --no-color -U3 -M
HEAD``; the empty tree before the first commit, with ``revision`` null); untracked files (``git
ls-files --others --exclude-standard``) are listed with status ``untracked`` and all their lines as
``+`` (binary or oversize ones without hunks); only paths inside the workspace folder are listed,
relative to it; a folder outside a repository is ``409 not_a_repository``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

from composer_app.core.codecs.diff import FileChange, parse_git_diff, untracked_change
from composer_app.server.errors import ApiError
from composer_app.server.workspace.file_reader import MAX_FILE_BYTES, is_binary

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
GIT_TIMEOUT_SECONDS = 60.0


def _git(workspace: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-c", "core.quotePath=false", "-C", str(workspace), *args],
                          capture_output=True, timeout=GIT_TIMEOUT_SECONDS, check=False,
                          env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})


def _read_untracked(path: Path) -> str | None:
    try:
        if path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    return None if is_binary(data) else data.decode("utf-8", errors="replace")


def workspace_changes(workspace: Path) -> dict[str, Any]:
    """The ``GET .../workspace/changes`` answer."""
    inside = _git(workspace, "rev-parse", "--is-inside-work-tree")
    if inside.returncode != 0 or inside.stdout.strip() != b"true":
        raise ApiError(409, "not_a_repository", "The thread's workspace is not a git repository.")
    head = _git(workspace, "rev-parse", "--verify", "-q", "HEAD")
    revision = head.stdout.decode().strip() if head.returncode == 0 else None
    diff = _git(workspace, "diff", "--no-color", "-U3", "-M", "--relative",
                revision or EMPTY_TREE, "--", ".")
    if diff.returncode not in (0, 1):
        raise ApiError(503, "unavailable", "git could not compute the changes.", retryable=True)
    changes: list[FileChange] = parse_git_diff(diff.stdout.decode("utf-8", errors="replace"))
    others = _git(workspace, "ls-files", "-z", "--others", "--exclude-standard")
    for name in sorted(n for n in others.stdout.decode("utf-8", "replace").split("\0") if n):
        changes.append(untracked_change(name, _read_untracked(workspace / name)))
    return {"revision": revision, "files": [change.to_wire() for change in changes]}
