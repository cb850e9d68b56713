"""Label functions (docs/contract.md §12).

Their results are raw labels and display strings; ``format_reference`` sanitizes labels. Lengths are
UTF-16 code units. The record arguments are duck-typed (any object with the snake_case attributes
of ``ReviewCommentRecord`` / ``PullRequestMetadata``).

Invariants: every function is pure and total for well-typed input; ``clamp_with_marker`` never
returns more than ``max_units`` units and never splits a surrogate pair.
"""

from __future__ import annotations

import re
from typing import Protocol

from composer_app.core.text import WS, collapse_whitespace, cut_utf16, utf16_len

__all__ = [
    "TRUNCATION_MARKER",
    "PullRequestLike",
    "ReviewCommentLike",
    "clamp_with_marker",
    "format_range",
    "format_style_change",
    "preview_annotation_label",
    "pull_request_display_state",
    "pull_request_kind_label",
    "review_comment_label",
    "target_summary",
]

TRUNCATION_MARKER = "\n… truncated …"
PREVIEW_LABEL_MAX_UNITS = 48
_ELLIPSIS = "…"

_LEGACY_PR_PATH = re.compile(r"PR #[0-9]+")
_SINGLE_RANGE = re.compile(r"([+-])([0-9]+)")
_PAIR_RANGE = re.compile(r"([+-])([0-9]+) to ([+-])([0-9]+)")
_PATH_SEPARATORS = re.compile(r"[/\\]")

_KIND_LABELS = {
    "open": "Open pull request",
    "draft": "Draft pull request",
    "merged": "Merged pull request",
    "closed": "Closed pull request",
}


class PullRequestLike(Protocol):
    """The attributes of ``PullRequestMetadata`` these helpers read."""

    @property
    def number(self) -> int: ...
    @property
    def state(self) -> str: ...
    @property
    def is_draft(self) -> bool: ...


class ReviewCommentLike(Protocol):
    """The attributes of ``ReviewCommentRecord`` these helpers read."""

    @property
    def file_path(self) -> str: ...
    @property
    def range_label(self) -> str: ...
    @property
    def section_id(self) -> str: ...
    @property
    def diff(self) -> str: ...
    @property
    def pull_request(self) -> PullRequestLike | None: ...


def _basename(path: str) -> str:
    return _PATH_SEPARATORS.split(path)[-1]


def _line(sign: str, number: str) -> str:
    return f"L{number} (before)" if sign == "-" else f"L{number}"


def format_range(range_label: str) -> str:
    """``+A`` → ``LA``; ``-A`` → ``LA (before)``; ``+A to +B`` → ``LA to LB``; ``-A to -B`` →
    ``LA to LB (before)``; a mixed pair → each side on its own; anything else unchanged."""
    single = _SINGLE_RANGE.fullmatch(range_label)
    if single is not None:
        return _line(single.group(1), single.group(2))
    pair = _PAIR_RANGE.fullmatch(range_label)
    if pair is None:
        return range_label
    sign_a, a, sign_b, b = pair.group(1, 2, 3, 4)
    if sign_a == sign_b:
        suffix = " (before)" if sign_a == "-" else ""
        return f"L{a} to L{b}{suffix}"
    return f"{_line(sign_a, a)} to {_line(sign_b, b)}"


def _is_legacy_pull_request_summary(record: ReviewCommentLike) -> bool:
    return (
        record.section_id.startswith("pull-request:")
        and record.diff == ""
        and _LEGACY_PR_PATH.fullmatch(record.file_path) is not None
    )


def review_comment_label(record: ReviewCommentLike) -> str:
    """``#<number>`` for a pull request (metadata or legacy summary), else
    ``<basename> <range>``."""
    pull_request = record.pull_request
    if pull_request is not None:
        return f"#{pull_request.number}"
    if _is_legacy_pull_request_summary(record):
        return record.file_path[3:]
    return _basename(record.file_path) + " " + format_range(record.range_label)


def pull_request_display_state(meta: PullRequestLike) -> str:
    """``"draft"`` for an open draft, else the state (``open``, ``closed``, ``merged``)."""
    if meta.state == "open" and meta.is_draft:
        return "draft"
    return meta.state


def pull_request_kind_label(meta: PullRequestLike | None) -> str:
    """``Open/Draft/Merged/Closed pull request`` by display state; ``Pull request`` without meta."""
    if meta is None:
        return "Pull request"
    return _KIND_LABELS.get(pull_request_display_state(meta), "Pull request")


def preview_annotation_label(comment: str, page_title: str | None) -> str:
    """The comment (collapsed, trimmed, at most 48 units with ``…``), else the page title, else
    ``Preview annotation``."""
    collapsed = collapse_whitespace(comment).strip(WS)
    if utf16_len(collapsed) > PREVIEW_LABEL_MAX_UNITS:
        return cut_utf16(collapsed, PREVIEW_LABEL_MAX_UNITS - 1) + _ELLIPSIS
    if collapsed:
        return collapsed
    title = (page_title or "").strip(WS)
    return title or "Preview annotation"


def _count(n: int, singular: str, plural: str) -> str:
    return f"{n} {singular if n == 1 else plural}"


def target_summary(selected_elements: int, marked_regions: int, drawings: int) -> str:
    """``N selected element(s), N marked region(s), N drawing(s)`` without the zero parts."""
    parts: list[str] = []
    if selected_elements:
        parts.append(_count(selected_elements, "selected element", "selected elements"))
    if marked_regions:
        parts.append(_count(marked_regions, "marked region", "marked regions"))
    if drawings:
        parts.append(_count(drawings, "drawing", "drawings"))
    return ", ".join(parts)


def format_style_change(property: str, previous_value: str | None, value: str) -> str:
    """``<property>: <previous or "(unset)"> → <value>``."""
    return f"{property}: {previous_value or '(unset)'} → {value}"


def clamp_with_marker(value: str, max_units: int) -> str:
    """``value`` if it fits in ``max_units`` UTF-16 units; else a prefix plus ``TRUNCATION_MARKER``
    of at most ``max_units`` units (exactly, unless a surrogate pair straddles the cut). When even
    the marker does not fit, the marker is cut to ``max_units``."""
    if utf16_len(value) <= max_units:
        return value
    room = max_units - utf16_len(TRUNCATION_MARKER)
    if room < 0:
        return cut_utf16(TRUNCATION_MARKER, max_units)
    return cut_utf16(value, room) + TRUNCATION_MARKER
