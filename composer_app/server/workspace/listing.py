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
from collections.abc import Callable
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
    git_dir: str | None = None
    """git's folder of a repository (absolute), else None."""


def _mtime(path: str) -> float:
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return -1.0


def _git(root: Path, *arguments: str) -> subprocess.Popen[bytes] | None:
    try:
        return subprocess.Popen(["git", "-C", str(root), *arguments], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return None


def _output(process: subprocess.Popen[bytes] | None) -> bytes | None:
    """What a git command printed, or None when it failed or timed out."""
    if process is None:
        return None
    try:
        out, _ = process.communicate(timeout=GIT_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return None
    return out if process.returncode == 0 else None


def _git_names(out: bytes) -> list[str]:
    # git prints sorted paths; dict.fromkeys drops the repeats of unmerged entries, keeping order
    names = dict.fromkeys(out.decode("utf-8", "surrogateescape").split("\0"))
    names.pop("", None)
    return [n for n in names if not n.startswith(".git/")]


def git_files(root: Path) -> list[str] | None:
    """``git ls-files`` of ``root`` (relative to it), or None when ``root`` is not in a
    repository. Tracked files deleted from the working tree are still listed: the index drops
    them from its answers (checking 100,000 files here would cost seconds)."""
    out = _output(_git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"))
    return None if out is None else _git_names(out)


def git_dir(root: Path) -> Path | None:
    """git's folder of the repository holding ``root``, or None."""
    out = _output(_git(root, "rev-parse", "--absolute-git-dir"))
    return None if out is None else Path(out.decode("utf-8", "surrogateescape").strip())


def list_workspace(root: Path) -> Listing:
    """The entries of ``root`` (see the module invariants)."""
    # both git commands run at once; outside a repository both fail fast
    files = _git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    where = _git(root, "rev-parse", "--absolute-git-dir")
    out, found = _output(files), _output(where)
    if out is None:
        return _walk(root)
    names = _git_names(out)
    listing = Listing()
    folders: dict[str, None] = {}
    base = str(root)
    listing.paths.extend(names)
    last = ""
    for name in names:  # sorted: a run of names shares its parent
        parent = name.rpartition("/")[0]
        if parent == last:
            continue
        last = parent
        while parent and parent not in folders:
            folders[parent] = None
            parent = parent.rpartition("/")[0]
    for folder in folders:
        listing.paths.append(folder)
        listing.directories.add(folder)
        listing.watched[os.path.join(base, folder)] = _mtime(os.path.join(base, folder))
    listing.watched[base] = _mtime(base)
    if found is not None:
        listing.git_dir = found.decode("utf-8", "surrogateescape").strip()
        index = os.path.join(listing.git_dir, "index")
        listing.watched[index] = _mtime(index)
    return listing


def _walk(root: Path) -> Listing:
    listing = Listing()
    specs: _Specs = []
    _walk_dir(str(root), "", specs, listing)
    return listing


_ANY_FOLDER = "^(?:.+/)?"


class _Prefilter:
    """A cheap test that is False only where no rule of a ``.gitignore`` matches, run before
    ``pathspec``'s exact rules. Rules without an inner ``/`` (``*.log``, ``build/``) match a base
    name at any depth, so they are tested on the entry's name alone; the others on its path
    below the ``.gitignore``'s folder. Every ``pathspec`` rule is anchored at the start, so both
    tests are ``match`` (no scan over every position); a rule of unknown shape makes the test
    always True."""

    def __init__(self, spec: pathspec.GitIgnoreSpec) -> None:
        by_name: list[str] = []
        by_path: list[str] = []
        self.always = False
        self._name: Callable[[str], object] | None = None
        self._path: Callable[[str], object] | None = None
        for pattern in spec.patterns:
            if getattr(pattern, "include", None) is None:
                continue
            regex = getattr(pattern, "regex", None)
            text = getattr(pattern, "pattern", None)
            if not isinstance(regex, re.Pattern) or not isinstance(text, str) or not (
                    regex.pattern.startswith("^")):
                self.always = True
                return
            source = re.sub(r"\(\?P<[A-Za-z_0-9]+>", "(?:", regex.pattern)
            if source.startswith(_ANY_FOLDER) and "/" not in text.lstrip("!").rstrip("/"):
                by_name.append("(?:^" + source[len(_ANY_FOLDER):] + ")")
            else:
                by_path.append("(?:" + source + ")")
        try:
            self._name = re.compile("|".join(by_name)).match if by_name else None
            self._path = re.compile("|".join(by_path)).match if by_path else None
        except re.error:
            self.always = True

    def __call__(self, inner: str, name: str) -> bool:
        if self.always:
            return True
        if self._name is not None and self._name(name) is not None:
            return True
        return self._path is not None and self._path(inner) is not None


_Specs = list[tuple[str, pathspec.GitIgnoreSpec, _Prefilter]]


def _ignored(relative: str, name: str, is_dir: bool, specs: _Specs) -> bool:
    if is_dir:
        name += "/"
    for prefix, spec, quick in reversed(specs):  # the deepest .gitignore that decides wins
        inner = relative[len(prefix):] if prefix else relative
        if is_dir:
            inner += "/"
        if not quick(inner, name):
            continue  # no rule of this file matches: it does not decide
        decision = spec.check_file(inner).include
        if decision is not None:
            return bool(decision)
    return False


def _read_spec(path: str) -> pathspec.GitIgnoreSpec | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return pathspec.GitIgnoreSpec.from_lines(handle)
    except (OSError, ValueError):
        return None


def _walk_dir(full: str, relative: str, specs: _Specs, listing: Listing) -> None:
    try:
        listing.watched[full] = os.stat(full).st_mtime
        with os.scandir(full) as scan:
            items = list(scan)
    except OSError:
        return
    prefix = relative + "/" if relative else ""
    added = False
    for item in items:
        if item.name == ".gitignore" and item.is_file():
            spec = _read_spec(item.path)
            if spec is not None:
                specs.append((prefix, spec, _Prefilter(spec)))
                added = True
            break
    paths = listing.paths
    folders: list[tuple[str, str]] = []
    for item in items:  # order does not matter: the index sorts
        name = item.name
        if name == ".git":
            continue
        path = prefix + name
        try:
            is_dir = item.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if specs and _ignored(path, name, is_dir, specs):
            continue  # an ignored folder is not entered at all
        paths.append(path)
        if is_dir:
            folders.append((item.path, path))
    for child, path in folders:
        listing.directories.add(path)
        _walk_dir(child, path, specs, listing)
    if added:
        specs.pop()
