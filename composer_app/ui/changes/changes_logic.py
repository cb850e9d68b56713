"""The workspace's changes as the Changes pane shows them (Qt-free).

``decode_changes`` reads the server's changes JSON (``{"revision", "files": [{"path", "oldPath"?,
"status", "hunks": [{"header", "oldStart", "oldLines", "newStart", "newLines", "lines": [{"kind",
"text", "oldLine", "newLine"}]}]}]}``) into core's frozen diff values (``FileChange``, ``Hunk``,
``HunkLine``); ``diff_rows`` flattens them into the
pane's rows (a file row, then per hunk a header row and its line rows); ``selected_range`` turns
a row selection into the lines a comment is about.

Invariants: decoding never raises anything but ``ChangesError``; a malformed file or hunk entry
is skipped and the rest kept; a selection is confined to the file of its first row; a range's
``start <= end``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from composer_app.core.codecs.diff import FileChange, Hunk, HunkLine

STATUSES = ("modified", "added", "deleted", "renamed", "untracked")
LINE_KINDS = (" ", "+", "-")


class ChangesError(ValueError):
    """The changes answer is not the expected shape at all."""


@dataclass(frozen=True)
class Changes:
    """Every change of the workspace against ``revision`` (None before the first commit)."""

    revision: str | None
    files: tuple[FileChange, ...]


def _int_or_none(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise ValueError("not an integer")
    return int(value)


def _line(raw: Any) -> HunkLine:
    kind = raw["kind"]
    text = raw["text"]
    if kind not in LINE_KINDS or not isinstance(text, str):
        raise ValueError("bad line")
    return HunkLine(kind, text, _int_or_none(raw.get("oldLine")), _int_or_none(raw.get("newLine")))


def _hunk(raw: Any) -> Hunk:
    header = raw["header"]
    if not isinstance(header, str) or not isinstance(raw["lines"], list):
        raise ValueError("bad hunk")
    numbers = [_int_or_none(raw[key]) for key in ("oldStart", "oldLines", "newStart", "newLines")]
    if any(n is None for n in numbers):
        raise ValueError("bad hunk numbers")
    old_start, old_lines, new_start, new_lines = (int(n or 0) for n in numbers)
    return Hunk(header, old_start, old_lines, new_start, new_lines,
                tuple(_line(line) for line in raw["lines"]))


def _file(raw: Any) -> FileChange:
    path = raw["path"]
    status = raw["status"]
    old_path = raw.get("oldPath")
    if not isinstance(path, str) or not path or status not in STATUSES:
        raise ValueError("bad file")
    if old_path is not None and not isinstance(old_path, str):
        raise ValueError("bad oldPath")
    hunks: list[Hunk] = []
    for entry in raw.get("hunks") or []:
        try:
            hunks.append(_hunk(entry))
        except (KeyError, TypeError, ValueError):
            continue
    return FileChange(path, status, tuple(hunks), old_path or None)


def decode_changes(data: Any) -> Changes:
    """Read the changes answer; malformed entries are skipped, a wrong shape raises
    ``ChangesError``."""
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        raise ChangesError("The changes answer has no file list.")
    revision = data.get("revision")
    if revision is not None and not isinstance(revision, str):
        raise ChangesError("The changes answer has a malformed revision.")
    files: list[FileChange] = []
    for entry in data["files"]:
        try:
            files.append(_file(entry))
        except (KeyError, TypeError, ValueError):
            continue
    return Changes(revision or None, tuple(files))


class RowKind(StrEnum):
    """What a row of the pane shows."""

    FILE = "file"
    HUNK = "hunk"
    LINE = "line"


@dataclass(frozen=True)
class DiffRow:
    """One row of the pane; ``hunk`` and ``line`` are -1 where they do not apply."""

    kind: RowKind
    file: int
    hunk: int = -1
    line: int = -1


def diff_rows(changes: Changes) -> list[DiffRow]:
    """The pane's rows, in order."""
    rows: list[DiffRow] = []
    for f, change in enumerate(changes.files):
        rows.append(DiffRow(RowKind.FILE, f))
        for h, hunk in enumerate(change.hunks):
            rows.append(DiffRow(RowKind.HUNK, f, h))
            rows.extend(DiffRow(RowKind.LINE, f, h, n) for n in range(len(hunk.lines)))
    return rows


@dataclass(frozen=True)
class LineRange:
    """The lines a comment is about, in one file: ``(hunk, line)`` positions, in order."""

    file: int
    positions: tuple[tuple[int, int], ...]


def selected_range(rows: Sequence[DiffRow], selected: Sequence[int]) -> LineRange | None:
    """The diff lines of the selected rows, confined to the first selected row's file. A file or
    hunk row selects all its lines. None when nothing commentable is selected."""
    picked = sorted(i for i in selected if 0 <= i < len(rows))
    if not picked:
        return None
    file = rows[picked[0]].file
    positions: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for index in picked:
        row = rows[index]
        if row.file != file:
            continue
        if row.kind is RowKind.LINE:
            members = [row]
        else:
            members = [r for r in rows if r.kind is RowKind.LINE and r.file == file
                       and (row.kind is RowKind.FILE or r.hunk == row.hunk)]
        for member in members:
            key = (member.hunk, member.line)
            if key not in seen:
                seen.add(key)
                positions.append(key)
    positions.sort()
    return LineRange(file, tuple(positions)) if positions else None


def describe_line(line: HunkLine) -> str:
    """A row as a screen reader says it."""
    if line.kind == "+":
        return f"Line {line.new_line} added: {line.text}"
    if line.kind == "-":
        return f"Line {line.old_line} removed: {line.text}"
    return f"Line {line.new_line}: {line.text}"
