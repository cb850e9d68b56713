"""What a workspace lists: ``git ls-files`` in a repository, else a walk honouring ``.gitignore``.

Invariants: paths are relative POSIX paths; ``.git`` is never listed; in a repository the files
are exactly ``git ls-files --cached --others --exclude-standard``; outside one every
``.gitignore`` on the way down applies to its own subtree (matched by ``pathspec``'s gitignore
rules; the deepest file with a matching rule decides, so a nested ``!pattern`` re-includes);
folders are listed as entries of their own; symlinks are listed but never followed; files are not
stat'ed here (the index reads modification times in a later pass), folders are, and their
modification times are what a later freshness check compares.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import pathspec

GIT_TIMEOUT_SECONDS = 30.0


class Entry(NamedTuple):
    """One listed path: relative POSIX path and ``file`` or ``directory``."""

    path: str
    kind: str


@dataclass
class Listing:
    """Listed paths (files and folders) and the folders among them, as plain strings (a large
    workspace lists 100,000 of them: no object per path)."""

    paths: list[str] = field(default_factory=list)
    directories: set[str] = field(default_factory=set)
    watched: dict[str, float] = field(default_factory=dict)
    """Absolute paths (directories, git's index) -> modification time when listed."""


def _mtime(path: str) -> float:
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return -1.0


def _ls_files(root: Path, *options: str) -> set[str] | None:
    try:
        done = subprocess.run(["git", "-C", str(root), "ls-files", "-z", *options],
                              capture_output=True, timeout=GIT_TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return {n for n in done.stdout.decode("utf-8", "surrogateescape").split("\0") if n}


def git_files(root: Path) -> list[str] | None:
    """``git ls-files`` of ``root`` (relative to it), or None when ``root`` is not in a
    repository. Tracked files deleted from the working tree are still listed: the index drops
    them from its answers (checking 100,000 files here would cost seconds)."""
    names = _ls_files(root, "--cached", "--others", "--exclude-standard")
    if names is None:
        return None
    return sorted(n for n in names if not n.startswith(".git/"))


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
    listing.paths.extend(names)
    for name in names:
        parent = name.rpartition("/")[0]
        while parent and parent not in folders:
            folders.add(parent)
            parent = parent.rpartition("/")[0]
    for folder in sorted(folders):
        listing.paths.append(folder)
        listing.directories.add(folder)
        listing.watched[os.path.join(base, folder)] = _mtime(os.path.join(base, folder))
    listing.watched[base] = _mtime(base)
    found = git_dir(root)
    if found is not None:
        index = str(found / "index")
        listing.watched[index] = _mtime(index)
    return listing


def _walk(root: Path) -> Listing:
    listing = Listing()
    specs: _Specs = []
    _walk_dir(str(root), "", specs, listing)
    return listing


_Specs = list[tuple[str, pathspec.GitIgnoreSpec, re.Pattern[str]]]


def _ignored(relative: str, is_dir: bool, specs: _Specs) -> bool:
    for prefix, spec, quick in reversed(specs):  # the deepest .gitignore that decides wins
        inner = relative[len(prefix):] if prefix else relative
        if is_dir:
            inner += "/"
        if quick.search(inner) is None:
            continue  # no rule of this file matches: it does not decide
        decision = spec.check_file(inner).include
        if decision is not None:
            return bool(decision)
    return False


def _quick_pattern(spec: pathspec.GitIgnoreSpec) -> re.Pattern[str]:
    """One regex matching where any rule of ``spec`` matches (a cheap test before the exact
    one; a rule of unknown shape makes it match everything)."""
    found = []
    for pattern in spec.patterns:
        regex = getattr(pattern, "regex", None)
        if getattr(pattern, "include", None) is None:
            continue
        if not isinstance(regex, re.Pattern):
            return re.compile("")
        found.append("(?:" + re.sub(r"\(\?P<[A-Za-z_0-9]+>", "(?:", regex.pattern) + ")")
    try:
        return re.compile("|".join(found)) if found else re.compile(r"(?!)")
    except re.error:
        return re.compile("")


def _walk_dir(full: str, relative: str, specs: _Specs, listing: Listing) -> None:
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
            specs.append((relative + "/" if relative else "", spec, _quick_pattern(spec)))
            added = True
    for item in items:  # order does not matter: the index sorts
        if item.name == ".git":
            continue
        path = f"{relative}/{item.name}" if relative else item.name
        try:
            is_dir = item.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if _ignored(path, is_dir, specs):
            continue
        listing.paths.append(path)
        if is_dir:
            listing.directories.add(path)
            _walk_dir(item.path, path, specs, listing)
    if added:
        specs.pop()
