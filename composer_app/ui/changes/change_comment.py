"""A review comment on lines of a workspace change: the pure record builder.

``review_comment_for_change`` turns a file's change, a range of its diff lines and the user's
comment into a contract-valid ``review-comment`` record.

Invariants: ``filePath`` is the file's path; ``sectionId`` is ``change:<path>``; ``sectionTitle``
is the file (``old → new`` for a rename); ``startIndex``/``endIndex`` are new-file line numbers
(for a range of removed lines only: the new-file line where they were; for a deleted file: the old
line numbers, and the label says "(before)"); ``rangeLabel`` is ``L12`` or ``L12-L14``; ``diff``
is every hunk the range touches, whole: its header, then its lines with their ``+``/``-``/space
prefix (so a reader can number the lines and mark the commented ones), cut with the contract's
marker to 32,000 units; ``text`` is cut to 16,000 units;
``fenceLanguage`` comes from the file extension (omitted when unknown); ``sourceRevision`` is the
revision (omitted when there is none). Pure: the context id comes from ``new_id``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence

from composer_app.core.codecs.ids import to_kind_scoped_context_id
from composer_app.core.codecs.labels import clamp_with_marker, review_comment_label
from composer_app.core.contracts.records import ReviewCommentRecord, decode_record
from composer_app.core.limits import (
    LABEL_MAX_CHARS,
    REVIEW_DIFF_MAX_CHARS,
    REVIEW_TEXT_MAX_CHARS,
    SHORT_STRING_MAX_CHARS,
    SOURCE_REVISION_MAX_CHARS,
)
from composer_app.core.text import cut_utf16
from composer_app.ui.changes.changes_logic import DiffLine, FileChange

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
    """The Markdown fence language of a file path, or None."""
    name = posixpath.basename(path)
    if name in FENCE_FILE_NAMES:
        return FENCE_FILE_NAMES[name]
    _, dot, ext = name.rpartition(".")
    return FENCE_LANGUAGES.get(ext.lower()) if dot and ext else None


def _anchor(change: FileChange, positions: Sequence[tuple[int, int]]) -> tuple[int, int, bool]:
    """(start, end, before): new-file lines of the range, or old lines for a deleted file."""
    lines = [change.hunks[h].lines[n] for h, n in positions]
    news = [line.new_line for line in lines if line.new_line is not None]
    if news:
        return min(news), max(news), False
    h, n = positions[0]
    hunk = change.hunks[h]
    following = [line.new_line for line in hunk.lines[n:] if line.new_line is not None]
    if change.status != "deleted":
        at = following[0] if following else hunk.new_start + hunk.new_lines
        at = max(at, 0)
        return at, at, False
    olds = [line.old_line for line in lines if line.old_line is not None] or [hunk.old_start]
    return min(olds), max(olds), True


def _range_label(start: int, end: int, before: bool) -> str:
    label = f"L{start}" if start == end else f"L{start}-L{end}"
    return f"{label} (before)" if before else label


def _prefixed(line: DiffLine) -> str:
    return line.kind + line.text


def change_excerpt(change: FileChange, positions: Sequence[tuple[int, int]]) -> str:
    """Every hunk the positions touch: its header, then all its lines with their prefixes."""
    parts: list[str] = []
    for h in sorted({h for h, _ in positions}):
        hunk = change.hunks[h]
        parts.append(hunk.header)
        parts.extend(_prefixed(line) for line in hunk.lines)
    return "\n".join(parts)


def review_comment_for_change(
    change: FileChange,
    positions: Sequence[tuple[int, int]],
    text: str,
    revision: str | None,
    new_id: Callable[[], str],
) -> ReviewCommentRecord:
    """The ``review-comment`` record of ``text`` on ``positions`` ((hunk, line) pairs, in order,
    non-empty) of ``change``; raises ``ValueError`` for an empty range."""
    if not positions:
        raise ValueError("a comment needs at least one line")
    start, end, before = _anchor(change, positions)
    wire: dict[str, object] = {
        "version": 1,
        "contextId": to_kind_scoped_context_id("review-comment", f"change:{new_id()}"),
        "kind": "review-comment",
        "label": "",
        "sectionId": cut_utf16(f"change:{change.path}", 255),
        "sectionTitle": cut_utf16(change.title, SHORT_STRING_MAX_CHARS),
        "filePath": change.path,
        "startIndex": start,
        "endIndex": end,
        "rangeLabel": _range_label(start, end, before),
        "text": clamp_with_marker(text, REVIEW_TEXT_MAX_CHARS),
        "diff": clamp_with_marker(change_excerpt(change, positions), REVIEW_DIFF_MAX_CHARS),
    }
    language = fence_language(change.path)
    if language:
        wire["fenceLanguage"] = language
    if revision:
        wire["sourceRevision"] = cut_utf16(revision, SOURCE_REVISION_MAX_CHARS)
    draft = decode_record(wire)
    wire["label"] = cut_utf16(review_comment_label(draft), LABEL_MAX_CHARS)
    record = decode_record(wire)
    assert isinstance(record, ReviewCommentRecord)
    return record
