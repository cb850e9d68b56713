"""What a workspace lists: ``git ls-files`` in a repository, else a walk honouring ``.gitignore``.

Invariants: paths are relative POSIX paths; ``.git`` is never listed; in a repository the files are
exactly ``git ls-files --cached --others --exclude-standard`` that still exist (so deleted tracked
files drop out), outside one every ``.gitignore`` on the way down applies to its own subtree
(matched by ``pathspec``'s gitignore rules; the deepest file with a matching rule decides, so a
nested ``!pattern`` re-includes); folders are listed as entries of their own; symlinks
are listed but never followed; the returned directory modification times are what a later
freshness check compares.
"""

from __future__ import annotations

import os
import stat
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

GIT_TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class Entry:
    """One listed path: relative POSIX path, ``file`` or ``directory``, modification time."""

    path: str
    kind: str
    mtime: float


@dataclass
class Listing:
    entries: list[Entry] = field(default_factory=list)
    watched: dict[str, float] = field(default_factory=dict)
    """Absolute paths (directories, git's index) -> modification time when listed."""


def _mtime(path: str) -> float:
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return -1.0


def git_files(root: Path) -> list[str] | None:
    """``git ls-files`` of ``root`` (relative to it), or None when it is not in a repository."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"], capture_output=True, timeout=GIT_TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    names = done.stdout.decode("utf-8", "surrogateescape").split("\0")
    return sorted({n for n in names if n and not n.startswith(".git/")})


def git_dir(root: Path) -> Path | None:
    try:
        done = subprocess.run(["git", "-C", str(root), "rev-parse", "--absolute-git-dir"],
                              capture_output=True, timeout=GIT_TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return Path(done.stdout.decode("utf-8", "surrogateescape").strip())


def list_workspace(root: Path) -> Listing:
    """The entries of ``root`` (see the module invariants)."""
    names = git_files(root)
    if names is None:
        return _walk(root)
    listing = Listing()
    folders: set[str] = set()
    base = str(root)
    for name in names:
        full = os.path.join(base, name)
        try:
            info = os.lstat(full)
        except OSError:
            continue
        listing.entries.append(Entry(name, "file", info.st_mtime))
        parent = name.rpartition("/")[0]
        while parent and parent not in folders:
            folders.add(parent)
            parent = parent.rpartition("/")[0]
    for folder in folders:
        full = os.path.join(base, folder)
        mtime = _mtime(full)
        listing.entries.append(Entry(folder, "directory", mtime))
        listing.watched[full] = mtime
    listing.watched[base] = _mtime(base)
    found = git_dir(root)
    if found is not None:
        index = str(found / "index")
        listing.watched[index] = _mtime(index)
    return listing


def _walk(root: Path) -> Listing:
    listing = Listing()
    specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    _walk_dir(str(root), "", specs, listing)
    return listing


def _ignored(relative: str, is_dir: bool, specs: list[tuple[str, pathspec.GitIgnoreSpec]]) -> bool:
    for prefix, spec in reversed(specs):  # the deepest .gitignore that decides wins
        inner = relative[len(prefix):] if prefix else relative
        decision = spec.check_file(inner + "/" if is_dir else inner).include
        if decision is not None:
            return bool(decision)
    return False


def _walk_dir(full: str, relative: str, specs: list[tuple[str, pathspec.GitIgnoreSpec]],
              listing: Listing) -> None:
    try:
        listing.watched[full] = os.stat(full).st_mtime
        items = list(os.scandir(full))
    except OSError:
        return
    added = False
    ignore_file = os.path.join(full, ".gitignore")
    if os.path.isfile(ignore_file):
        try:
            with open(ignore_file, encoding="utf-8", errors="replace") as handle:
                spec = pathspec.GitIgnoreSpec.from_lines(handle)
        except OSError:
            spec = None
        if spec is not None:
            specs.append((relative + "/" if relative else "", spec))
            added = True
    for item in sorted(items, key=lambda i: i.name):
        if item.name == ".git":
            continue
        path = f"{relative}/{item.name}" if relative else item.name
        try:
            info = item.stat(follow_symlinks=False)
        except OSError:
            continue
        is_dir = stat.S_ISDIR(info.st_mode)
        if _ignored(path, is_dir, specs):
            continue
        listing.entries.append(Entry(path, "directory" if is_dir else "file", info.st_mtime))
        if is_dir:
            _walk_dir(item.path, path, specs, listing)
    if added:
        specs.pop()
