"""Records made from a workspace: a review comment on a change, a command run as a terminal excerpt.

Pure functions (no I/O); the one place such records are built (the Changes pane and the sync
client call these). Invariants: every record returned is contract-valid (it is built through
``decode_record``); long text is cut to the contract's limits in UTF-16 units
(``REVIEW_TEXT_MAX_CHARS`` and ``REVIEW_DIFF_MAX_CHARS`` with the truncation marker,
``TERMINAL_TEXT_MAX_CHARS``, 255 for names); context ids follow the producers table
(``to_kind_scoped_context_id``).

A review comment's ``filePath`` is the file's path; ``sectionId`` is ``change:<path>``;
``sectionTitle`` is the file (``old → new`` for a rename); ``startIndex``/``endIndex`` are new-file
line numbers (for removed lines only: the new-file line where they were; for a deleted file: the
old line numbers, and the range label says "(before)"); ``rangeLabel`` is ``L12`` or ``L12-L14``;
``diff`` is every hunk the range touches, whole: its header, then its lines with their
``+``/``-``/space prefix; ``fenceLanguage`` comes from the file name (omitted when unknown);
``sourceRevision`` is the revision (omitted when there is none). A blank file path or an empty or
reversed range raises ``ValueError``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from typing import Any

from composer_app.core.codecs.diff import FileChange
from composer_app.core.codecs.ids import to_kind_scoped_context_id
from composer_app.core.codecs.labels import clamp_with_marker, review_comment_label
from composer_app.core.contracts.records import ReviewCommentRecord, TerminalRecord, decode_record
from composer_app.core.limits import (
    LABEL_MAX_CHARS,
    NAME_MAX_CHARS,
    PATH_MAX_CHARS,
    REVIEW_DIFF_MAX_CHARS,
    REVIEW_TEXT_MAX_CHARS,
    SHORT_STRING_MAX_CHARS,
    SOURCE_REVISION_MAX_CHARS,
    TERMINAL_TEXT_MAX_CHARS,
)
from composer_app.core.text import cut_utf16, trim

FENCE_LANGUAGES: dict[str, str] = {
    "py": "python", "pyi": "python", "js": "javascript", "mjs": "javascript", "cjs": "javascript",
    "jsx": "jsx", "ts": "typescript", "tsx": "tsx", "rs": "rust", "go": "go", "java": "java",
    "kt": "kotlin", "swift": "swift", "c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "hpp": "cpp",
    "cs": "csharp", "rb": "ruby", "php": "php", "sh": "bash", "bash": "bash", "zsh": "bash",
    "sql": "sql", "html": "html", "css": "css", "scss": "scss", "json": "json", "yaml": "yaml",
    "yml": "yaml", "toml": "toml", "md": "markdown", "xml": "xml", "lua": "lua", "r": "r",
    "dart": "dart", "scala": "scala", "vue": "vue", "svelte": "svelte", "ini": "ini",
}
FENCE_FILE_NAMES = {"Dockerfile": "dockerfile", "Makefile": "makefile"}


def fence_language(path: str) -> str | None:
    """The Markdown fence language of a file path (from its name or extension), or None."""
    name = posixpath.basename(path)
    if name in FENCE_FILE_NAMES:
        return FENCE_FILE_NAMES[name]
    _, dot, ext = name.rpartition(".")
    return FENCE_LANGUAGES.get(ext.lower()) if dot and ext else None


def range_label(start: int, end: int, *, before: bool = False) -> str:
    """``L12`` or ``L12-L14`` (with `` (before)`` for old-file lines)."""
    label = f"L{start}" if start == end else f"L{start}-L{end}"
    return f"{label} (before)" if before else label


def _excerpt(change: FileChange, hunk_indices: Iterable[int]) -> str:
    parts: list[str] = []
    for index in sorted(set(hunk_indices)):
        hunk = change.hunks[index]
        parts.append(hunk.header)
        parts.extend(line.kind + line.text for line in hunk.lines)
    return "\n".join(parts)


def _covering(change: FileChange, start: int, end: int) -> list[int]:
    found = []
    for index, hunk in enumerate(change.hunks):
        numbers = [line.new_line for line in hunk.lines if line.new_line is not None]
        low = min(numbers, default=hunk.new_start)
        high = max(numbers, default=hunk.new_start)
        if low <= end and high >= start:
            found.append(index)
    return found


def hunk_excerpt(change: FileChange, start: int, end: int) -> str:
    """The hunks covering new-file lines ``start..end``, each with its header, as diff text."""
    return _excerpt(change, _covering(change, start, end))


def change_excerpt(change: FileChange, positions: Sequence[tuple[int, int]]) -> str:
    """Every hunk the ``(hunk, line)`` positions touch: its header, then all its lines."""
    return _excerpt(change, (h for h, _ in positions))


def positions_range(change: FileChange,
                    positions: Sequence[tuple[int, int]]) -> tuple[int, int, bool]:
    """``(start, end, before)`` of non-empty ``(hunk, line)`` positions: their new-file lines;
    removed lines only: the new-file line where they were; a deleted file: the old lines."""
    lines = [change.hunks[h].lines[n] for h, n in positions]
    news = [line.new_line for line in lines if line.new_line is not None]
    if news:
        return min(news), max(news), False
    h, n = positions[0]
    hunk = change.hunks[h]
    if change.status != "deleted":
        following = [line.new_line for line in hunk.lines[n:] if line.new_line is not None]
        at = following[0] if following else hunk.new_start + hunk.new_lines
        return max(at, 0), max(at, 0), False
    olds = [line.old_line for line in lines if line.old_line is not None] or [hunk.old_start]
    return min(olds), max(olds), True


def _review_comment(change: FileChange, start: int, end: int, before: bool, diff: str,
                    comment: str, source_revision: str | None,
                    context_id: str | None) -> ReviewCommentRecord:
    if not trim(change.path):
        raise ValueError("a review comment needs a file path")
    section = f"change:{change.path}"
    data: dict[str, Any] = {
        "version": 1, "kind": "review-comment",
        "contextId": context_id or to_kind_scoped_context_id(
            "review-comment", f"{section}:{start}-{end}"),
        "label": "",
        "sectionId": cut_utf16(section, NAME_MAX_CHARS).strip(),
        "sectionTitle": cut_utf16(change.title, SHORT_STRING_MAX_CHARS),
        "filePath": cut_utf16(change.path, PATH_MAX_CHARS),
        "startIndex": start, "endIndex": end,
        "rangeLabel": range_label(start, end, before=before),
        "text": clamp_with_marker(comment, REVIEW_TEXT_MAX_CHARS),
        "diff": clamp_with_marker(diff, REVIEW_DIFF_MAX_CHARS),
    }
    language = fence_language(change.path)
    if language is not None:
        data["fenceLanguage"] = language
    if source_revision:
        data["sourceRevision"] = cut_utf16(source_revision, SOURCE_REVISION_MAX_CHARS)
    data["label"] = cut_utf16(review_comment_label(decode_record(data)), LABEL_MAX_CHARS)
    record = decode_record(data)
    assert isinstance(record, ReviewCommentRecord)
    return record


def review_comment_record(change: FileChange, start: int, end: int, comment: str, *,
                          source_revision: str | None = None,
                          context_id: str | None = None) -> ReviewCommentRecord:
    """A ``review-comment`` record on new-file lines ``start..end`` of ``change``."""
    if start < 0 or end < start:
        raise ValueError("the line range must satisfy 0 <= start <= end")
    return _review_comment(change, start, end, False, hunk_excerpt(change, start, end), comment,
                           source_revision, context_id)


def review_comment_for_lines(change: FileChange, positions: Sequence[tuple[int, int]],
                             comment: str, *, source_revision: str | None = None,
                             context_id: str | None = None) -> ReviewCommentRecord:
    """A ``review-comment`` record on the selected ``(hunk, line)`` positions of ``change`` (as
    the Changes pane selects them; removed lines included)."""
    if not positions:
        raise ValueError("a comment needs at least one line")
    start, end, before = positions_range(change, positions)
    return _review_comment(change, start, end, before, change_excerpt(change, positions),
                           comment, source_revision, context_id)


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
