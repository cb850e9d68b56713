"""Records made from a workspace: a review comment on a change, a command run as a terminal excerpt.

Pure functions (no I/O). Invariants: every record returned is contract-valid (it is built through
``decode_record``); text is cut to the contract's limits (``REVIEW_TEXT_MAX_CHARS``,
``REVIEW_DIFF_MAX_CHARS``, ``TERMINAL_TEXT_MAX_CHARS``, 255 for names) in UTF-16 units; line
numbers are new-file numbers; context ids follow the producers table
(``to_kind_scoped_context_id``).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from composer_app.core.codecs.diff import FileChange, Hunk
from composer_app.core.codecs.ids import to_kind_scoped_context_id
from composer_app.core.contracts.records import ReviewCommentRecord, TerminalRecord, decode_record
from composer_app.core.limits import (
    LABEL_MAX_CHARS,
    REVIEW_DIFF_MAX_CHARS,
    REVIEW_TEXT_MAX_CHARS,
    TERMINAL_TEXT_MAX_CHARS,
)
from composer_app.core.text import cut_utf16, trim

NAME_MAX_CHARS = 255
SHORT_MAX_CHARS = 2048
_FENCES = {
    ".py": "python", ".js": "javascript", ".ts": "typescript", ".tsx": "tsx", ".jsx": "jsx",
    ".rs": "rust", ".go": "go", ".java": "java", ".kt": "kotlin", ".c": "c", ".h": "c",
    ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp", ".sh": "bash", ".json": "json",
    ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".sql": "sql", ".html": "html",
    ".css": "css", ".rb": "ruby", ".md": "markdown", ".php": "php", ".swift": "swift",
}


def fence_language(path: str) -> str | None:
    """The fence info string of a file's extension (None when unknown)."""
    return _FENCES.get(PurePosixPath(path).suffix.lower())


def range_label(start: int, end: int) -> str:
    """``L12`` or ``L12-L14``."""
    return f"L{start}" if start == end else f"L{start}-L{end}"


def _covering(hunks: tuple[Hunk, ...], start: int, end: int) -> list[Hunk]:
    found = []
    for hunk in hunks:
        numbers = [line.new_line for line in hunk.lines if line.new_line is not None]
        low = min(numbers, default=hunk.new_start)
        high = max(numbers, default=hunk.new_start)
        if low <= end and high >= start:
            found.append(hunk)
    return found


def hunk_excerpt(change: FileChange, start: int, end: int) -> str:
    """The hunks covering new-file lines ``start..end``, each with its header, as diff text."""
    parts = []
    for hunk in _covering(change.hunks, start, end):
        parts.append(hunk.header)
        parts.extend(line.kind + line.text for line in hunk.lines)
    return "\n".join(parts)


def review_comment_record(change: FileChange, start: int, end: int, comment: str, *,
                          source_revision: str | None = None,
                          context_id: str | None = None) -> ReviewCommentRecord:
    """A ``review-comment`` record on new-file lines ``start..end`` of ``change``."""
    if start < 0 or end < start:
        raise ValueError("the line range must satisfy 0 <= start <= end")
    if not trim(change.path):
        raise ValueError("a review comment needs a file path")
    path = change.path
    label = range_label(start, end)
    section = f"change:{path}"
    name = PurePosixPath(path).name or path
    data: dict[str, Any] = {
        "version": 1, "kind": "review-comment",
        "contextId": context_id or to_kind_scoped_context_id(
            "review-comment", f"{section}:{start}-{end}"),
        "label": cut_utf16(f"{name} {label}", LABEL_MAX_CHARS),
        "sectionId": cut_utf16(section, NAME_MAX_CHARS).strip() or "change",
        "sectionTitle": cut_utf16(path, SHORT_MAX_CHARS),
        "filePath": cut_utf16(path, SHORT_MAX_CHARS),
        "startIndex": start, "endIndex": end, "rangeLabel": label,
        "text": cut_utf16(comment, REVIEW_TEXT_MAX_CHARS),
        "diff": cut_utf16(hunk_excerpt(change, start, end), REVIEW_DIFF_MAX_CHARS),
    }
    language = fence_language(path)
    if language is not None:
        data["fenceLanguage"] = language
    if source_revision:
        data["sourceRevision"] = cut_utf16(source_revision, 64)
    record = decode_record(data)
    assert isinstance(record, ReviewCommentRecord)
    return record


def terminal_record(run_id: str, command: str, exit_line: dict[str, Any], *,
                    context_id: str | None = None) -> TerminalRecord:
    """A ``terminal`` record of a finished command run (its NDJSON ``exit`` line)."""
    text = str(exit_line.get("text", ""))
    count = exit_line.get("lineCount", 0)
    line_count = count if isinstance(count, int) and not isinstance(count, bool) else 0
    label = command.strip() or "command"
    data = {
        "version": 1, "kind": "terminal",
        "contextId": context_id or to_kind_scoped_context_id("terminal", run_id),
        "label": cut_utf16(label, LABEL_MAX_CHARS),
        "terminalId": cut_utf16(run_id, NAME_MAX_CHARS).strip() or "run",
        "terminalLabel": cut_utf16(label, NAME_MAX_CHARS).strip() or "command",
        "lineStart": 1, "lineEnd": max(1, line_count),
        "text": cut_utf16(text, TERMINAL_TEXT_MAX_CHARS),
    }
    record = decode_record(data)
    assert isinstance(record, TerminalRecord)
    return record
