"""Which file a knowledge-folder or workspace source names, and where it lies on this computer
(Qt-free).

A source of the offline assistant names its file by ``fileId``: ``knowledge:<path>`` for a file of
the knowledge folder, ``workspace:<path>`` for a file of the thread's workspace, the path relative
to that folder with ``/`` separators; ``metadata.lineStart`` / ``metadata.lineEnd`` give the cited
lines (1-based, inclusive).

Invariants: ``source_file`` accepts only those two prefixes on a ``connector-file`` entry and a
path that is relative, non-empty, without ``..``, ``.`` or empty components, without a drive,
backslash, NUL or other control character; ``resolve_inside`` returns a path only when the file
exists, is a regular file, and — with every symlink followed — lies inside the folder root, so a
hostile source can never make the app read or open anything outside the folder it names; cited
lines are whole numbers with ``1 <= start <= end`` (a missing or bad end is the start).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from composer_app.core.contracts.sources import SourceEntry

KNOWLEDGE = "knowledge"
WORKSPACE = "workspace"
FOLDER_LABELS = {KNOWLEDGE: "knowledge folder", WORKSPACE: "workspace"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file named by a source: its folder (``knowledge`` or ``workspace``), its path relative to
    that folder, and the cited lines (``None`` when the source names none)."""

    folder: str
    path: str
    line_start: int | None = None
    line_end: int | None = None

    @property
    def name(self) -> str:
        """The file's own name (the last part of its path)."""
        return PurePosixPath(self.path).name

    @property
    def where(self) -> str:
        """``lines 12–18``, ``line 4`` or ``""``."""
        if self.line_start is None:
            return ""
        end = self.line_end or self.line_start
        return f"line {self.line_start}" if end == self.line_start else \
            f"lines {self.line_start}–{end}"


def safe_relative(path: str) -> str | None:
    """``path`` when it is a safe relative path (see the module invariant), else ``None``."""
    if not path or len(path) > 4096 or _CONTROL.search(path) or "\\" in path:
        return None
    if path.startswith("/") or re.match(r"^[A-Za-z]:", path):
        return None
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    return path


def _line(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = int(value)
    return number if number == value and number >= 1 else None


def source_file(entry: SourceEntry) -> SourceFile | None:
    """The file a knowledge-folder or workspace source names, or ``None`` for any other source."""
    if entry.type != "connector-file" or not entry.file_id:
        return None
    folder, _, path = entry.file_id.partition(":")
    if folder not in FOLDER_LABELS or safe_relative(path) is None:
        return None
    metadata = entry.metadata or {}
    start = _line(metadata.get("lineStart"))
    end = _line(metadata.get("lineEnd"))
    if start is None:
        return SourceFile(folder, path)
    return SourceFile(folder, path, start, end if end is not None and end >= start else start)


def resolve_inside(root: Path, relative: str) -> Path | None:
    """The regular file ``relative`` names inside ``root`` (symlinks followed), or ``None`` when
    it does not exist or lies outside the root."""
    if safe_relative(relative) is None:
        return None
    try:
        base = Path(os.path.realpath(root))
        resolved = Path(os.path.realpath(base / relative))
        if not resolved.is_relative_to(base) or resolved == base or not resolved.is_file():
            return None
    except (OSError, ValueError):
        return None
    return resolved
