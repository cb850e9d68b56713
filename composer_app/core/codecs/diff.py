"""Reading ``git diff`` output into file changes with numbered hunk lines (pure; no I/O).

Invariants: ``parse_git_diff`` accepts what ``git diff --no-color -U<n>`` prints and never raises on
malformed input (unknown lines are skipped); every hunk line carries the old and new line numbers it
has (``None`` on the side it does not exist); ``\\ No newline at end of file`` markers are dropped;
a binary change has no hunks; ``untracked_change`` shows a new file as one hunk of ``+`` lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_QUOTED_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
                   "f": "\f", "r": "\r", "v": "\v"}


@dataclass(frozen=True)
class HunkLine:
    kind: str  # " ", "+" or "-"
    text: str
    old_line: int | None
    new_line: int | None

    def to_wire(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "oldLine": self.old_line,
                "newLine": self.new_line}


@dataclass(frozen=True)
class Hunk:
    header: str
    old_start: int
    old_lines: int
    new_start: int
    new_lines: int
    lines: tuple[HunkLine, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        return {"header": self.header, "oldStart": self.old_start, "oldLines": self.old_lines,
                "newStart": self.new_start, "newLines": self.new_lines,
                "lines": [line.to_wire() for line in self.lines]}


@dataclass(frozen=True)
class FileChange:
    path: str
    status: str  # modified | added | deleted | renamed | untracked
    hunks: tuple[Hunk, ...] = ()
    old_path: str | None = None

    @property
    def title(self) -> str:
        """The file as a section title (``old → new`` for a rename)."""
        return f"{self.old_path} → {self.path}" if self.old_path else self.path

    def to_wire(self) -> dict[str, Any]:
        data: dict[str, Any] = {"path": self.path}
        if self.old_path is not None:
            data["oldPath"] = self.old_path
        data["status"] = self.status
        data["hunks"] = [hunk.to_wire() for hunk in self.hunks]
        return data


def _unquote(path: str) -> str:
    """A path as git prints it (C-quoted when it holds special characters)."""
    if len(path) < 2 or not (path.startswith('"') and path.endswith('"')):
        return path
    body, out, i = path[1:-1], bytearray(), 0
    while i < len(body):
        char = body[i]
        if char == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in "01234567" and i + 3 < len(body) + 1 and body[i + 1 : i + 4].isdigit():
                out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
                i += 4
                continue
            out.extend(_QUOTED_ESCAPES.get(nxt, nxt).encode("utf-8"))
            i += 2
            continue
        out.extend(char.encode("utf-8"))
        i += 1
    return out.decode("utf-8", errors="replace")


def _strip_prefix(path: str) -> str:
    path = _unquote(path.split("\t", 1)[0])
    return path[2:] if path.startswith(("a/", "b/")) else path


@dataclass
class _File:
    header_path: str
    old: str | None = None
    new: str | None = None
    status: str = "modified"
    hunks: list[Hunk] = field(default_factory=list)
    rename_from: str | None = None
    rename_to: str | None = None

    def change(self) -> FileChange:
        if self.rename_from is not None and self.rename_to is not None:
            return FileChange(self.rename_to, "renamed", tuple(self.hunks), self.rename_from)
        path = self.new if self.new is not None else self.old
        return FileChange(path or self.header_path, self.status, tuple(self.hunks))


def _header_path(rest: str) -> str:
    """The path of ``diff --git a/X b/X`` (the unambiguous same-path form; else the b side)."""
    if rest.startswith('"'):
        end = rest.find('" ', 1)
        return _strip_prefix(rest[end + 2:]) if end > 0 else _strip_prefix(rest)
    half = (len(rest) - 1) // 2
    if len(rest) % 2 == 1 and rest[:half][2:] == rest[half + 1:][2:]:
        return rest[half + 1:][2:]
    index = rest.rfind(" b/")
    return rest[index + 3:] if index >= 0 else rest


def parse_git_diff(text: str) -> list[FileChange]:
    """The file changes of a ``git diff`` (see the module invariants)."""
    files: list[_File] = []
    current: _File | None = None
    hunk: dict[str, Any] | None = None
    old_no = new_no = 0

    def close_hunk() -> None:
        nonlocal hunk
        if hunk is not None and current is not None:
            current.hunks.append(Hunk(hunk["header"], hunk["os"], hunk["ol"], hunk["ns"],
                                      hunk["nl"], tuple(hunk["lines"])))
        hunk = None

    for line in text.split("\n"):
        if line.startswith("diff --git "):
            close_hunk()
            current = _File(_header_path(line[len("diff --git "):]))
            files.append(current)
            continue
        if current is None:
            continue
        match = _HUNK.match(line)
        if match is not None:
            close_hunk()
            old_start, new_start = int(match.group(1)), int(match.group(3))
            old_lines = int(match.group(2)) if match.group(2) is not None else 1
            new_lines = int(match.group(4)) if match.group(4) is not None else 1
            hunk = {"header": line, "os": old_start, "ol": old_lines, "ns": new_start,
                    "nl": new_lines, "lines": []}
            old_no, new_no = old_start, new_start
            continue
        if hunk is not None and line[:1] in (" ", "+", "-") and (
            old_no < hunk["os"] + hunk["ol"] or new_no < hunk["ns"] + hunk["nl"]
        ):
            kind = line[0]
            if kind == " ":
                hunk["lines"].append(HunkLine(" ", line[1:], old_no, new_no))
                old_no, new_no = old_no + 1, new_no + 1
            elif kind == "+":
                hunk["lines"].append(HunkLine("+", line[1:], None, new_no))
                new_no += 1
            else:
                hunk["lines"].append(HunkLine("-", line[1:], old_no, None))
                old_no += 1
            continue
        if line.startswith("\\"):
            continue
        close_hunk()
        if line.startswith("new file mode"):
            current.status = "added"
        elif line.startswith("deleted file mode"):
            current.status = "deleted"
        elif line.startswith("rename from "):
            current.rename_from = _unquote(line[len("rename from "):])
        elif line.startswith("rename to "):
            current.rename_to = _unquote(line[len("rename to "):])
        elif line.startswith("--- "):
            current.old = None if line[4:].startswith("/dev/null") else _strip_prefix(line[4:])
        elif line.startswith("+++ "):
            current.new = None if line[4:].startswith("/dev/null") else _strip_prefix(line[4:])
    close_hunk()
    return [f.change() for f in files]


def untracked_change(path: str, text: str | None) -> FileChange:
    """A new, untracked file: all its lines as ``+`` (no hunk when ``text`` is None or empty)."""
    if not text:
        return FileChange(path, "untracked")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    count = len(lines)
    hunk = Hunk(f"@@ -0,0 +1,{count} @@", 0, 0, 1, count,
                tuple(HunkLine("+", line, None, n) for n, line in enumerate(lines, 1)))
    return FileChange(path, "untracked", (hunk,))


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def file_change_from_wire(data: Any) -> FileChange | None:
    """A ``FileChange`` of the changes route's JSON (None when it is not one)."""
    if not isinstance(data, dict) or not isinstance(data.get("path"), str):
        return None
    hunks = []
    for raw in data.get("hunks") or []:
        if not isinstance(raw, dict):
            continue
        lines = tuple(
            HunkLine(str(line.get("kind", " "))[:1] or " ", str(line.get("text", "")),
                     _int_or_none(line.get("oldLine")), _int_or_none(line.get("newLine")))
            for line in raw.get("lines") or [] if isinstance(line, dict))
        hunks.append(Hunk(str(raw.get("header", "")), _int_or_none(raw.get("oldStart")) or 0,
                          _int_or_none(raw.get("oldLines")) or 0,
                          _int_or_none(raw.get("newStart")) or 0,
                          _int_or_none(raw.get("newLines")) or 0, lines))
    old = data.get("oldPath")
    return FileChange(data["path"], str(data.get("status", "modified")), tuple(hunks),
                      old if isinstance(old, str) else None)
