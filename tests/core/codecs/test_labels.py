"""Label functions (docs/contract.md §12)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.labels import (
    TRUNCATION_MARKER,
    clamp_with_marker,
    format_range,
    format_style_change,
    preview_annotation_label,
    pull_request_display_state,
    pull_request_kind_label,
    review_comment_label,
    target_summary,
)
from composer_app.core.text import utf16_len


def _review(**overrides: Any) -> Any:
    fields: dict[str, Any] = {
        "section_id": "diff-1",
        "file_path": "src/components/File.ts",
        "range_label": "+4",
        "diff": "+ x",
        "pull_request": None,
    }
    fields.update(overrides)
    return SimpleNamespace(**fields)


def _pr(state: str = "open", is_draft: bool = False, number: int = 42) -> Any:
    return SimpleNamespace(number=number, state=state, is_draft=is_draft)


@pytest.mark.parametrize(
    ("range_label", "expected"),
    [
        ("+4", "L4"),
        ("-4", "L4 (before)"),
        ("+12 to +14", "L12 to L14"),
        ("-12 to -14", "L12 to L14 (before)"),
        ("-5 to +7", "L5 (before) to L7"),
        ("+5 to -7", "L5 to L7 (before)"),
        ("L4-L6", "L4-L6"),
        ("line", "line"),
        ("L4", "L4"),
        ("", ""),
        ("+4 ", "+4 "),
        ("+ 4", "+ 4"),
        ("+4 to", "+4 to"),
    ],
)
def test_format_range(range_label: str, expected: str) -> None:
    assert format_range(range_label) == expected


def test_review_comment_label() -> None:
    assert review_comment_label(_review()) == "File.ts L4"
    assert review_comment_label(_review(file_path="a\\b\\c.py", range_label="-1")) == (
        "c.py L1 (before)"
    )
    assert review_comment_label(_review(file_path="c.py", range_label="L4-L6")) == "c.py L4-L6"
    assert review_comment_label(_review(pull_request=_pr(number=7))) == "#7"
    legacy = _review(section_id="pull-request:42", diff="", file_path="PR #42")
    assert review_comment_label(legacy) == "#42"
    # not quite the legacy shape: the ordinary rule applies
    assert review_comment_label(_review(section_id="pull-request:42", file_path="PR #42")) == (
        "PR #42 L4"
    )
    assert review_comment_label(_review(diff="", file_path="PR #42")) == "PR #42 L4"


def test_review_comment_label_with_records() -> None:
    from composer_app.core.contracts.records import decode_record

    base = {
        "version": 1,
        "contextId": "rc-1",
        "kind": "review-comment",
        "label": "x",
        "sectionId": "diff-1",
        "sectionTitle": "Changes",
        "filePath": "src/a.ts",
        "startIndex": 4,
        "endIndex": 4,
        "rangeLabel": "+4 to +6",
        "text": "Why?",
        "diff": "+ x",
    }
    assert review_comment_label(decode_record(base)) == "a.ts L4 to L6"
    pull_request = {
        "number": 9,
        "title": "T",
        "url": "u",
        "headBranch": "h",
        "baseBranch": "b",
        "state": "open",
        "isDraft": True,
    }
    record: Any = decode_record({**base, "pullRequest": pull_request})
    assert review_comment_label(record) == "#9"
    assert pull_request_display_state(record.pull_request) == "draft"
    assert pull_request_kind_label(record.pull_request) == "Draft pull request"


@pytest.mark.parametrize(
    ("state", "is_draft", "display", "kind_label"),
    [
        ("open", False, "open", "Open pull request"),
        ("open", True, "draft", "Draft pull request"),
        ("merged", True, "merged", "Merged pull request"),
        ("closed", False, "closed", "Closed pull request"),
        ("closed", True, "closed", "Closed pull request"),
    ],
)
def test_pull_request_states(state: str, is_draft: bool, display: str, kind_label: str) -> None:
    meta = _pr(state, is_draft)
    assert pull_request_display_state(meta) == display
    assert pull_request_kind_label(meta) == kind_label


def test_pull_request_kind_label_without_meta() -> None:
    assert pull_request_kind_label(None) == "Pull request"


@pytest.mark.parametrize(
    ("comment", "page_title", "expected"),
    [
        ("  Make   it\n bigger ", "Checkout", "Make it bigger"),
        ("x" * 48, None, "x" * 48),
        ("x" * 49, None, "x" * 47 + "…"),
        ("😀" * 25, None, "😀" * 23 + "…"),  # 50 units: cut to 47 units on a boundary (46)
        ("😀" * 24, None, "😀" * 24),  # exactly 48 units
        ("\u3000 \n", "  Checkout  ", "Checkout"),
        ("", None, "Preview annotation"),
        ("", "   ", "Preview annotation"),
    ],
)
def test_preview_annotation_label(comment: str, page_title: str | None, expected: str) -> None:
    assert preview_annotation_label(comment, page_title) == expected


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ((1, 0, 0), "1 selected element"),
        ((2, 1, 3), "2 selected elements, 1 marked region, 3 drawings"),
        ((0, 2, 1), "2 marked regions, 1 drawing"),
        ((0, 0, 0), ""),
    ],
)
def test_target_summary(counts: tuple[int, int, int], expected: str) -> None:
    assert target_summary(*counts) == expected


def test_format_style_change() -> None:
    assert format_style_change("font-size", "12px", "20px") == "font-size: 12px → 20px"
    assert format_style_change("color", "", "red") == "color: (unset) → red"
    assert format_style_change("color", None, "red") == "color: (unset) → red"


def test_clamp_with_marker() -> None:
    assert TRUNCATION_MARKER == "\n… truncated …"
    assert utf16_len(TRUNCATION_MARKER) == 14
    assert clamp_with_marker("abc", 3) == "abc"
    clamped = clamp_with_marker("x" * 100, 20)
    assert clamped == "x" * 6 + TRUNCATION_MARKER and utf16_len(clamped) == 20
    # never splits a surrogate pair: one unit short instead
    clamped = clamp_with_marker("a" + "😀" * 20, 20)
    assert clamped == "a" + "😀" * 2 + TRUNCATION_MARKER
    clamped = clamp_with_marker("😀" * 20, 21)
    assert clamped == "😀" * 3 + TRUNCATION_MARKER and utf16_len(clamped) == 20
    assert clamp_with_marker("x" * 16_001, 16_000).endswith(TRUNCATION_MARKER)
    assert utf16_len(clamp_with_marker("x" * 16_001, 16_000)) == 16_000


@given(st.text(), st.integers(0, 100))
def test_clamp_with_marker_bound(value: str, max_units: int) -> None:
    result = clamp_with_marker(value, max_units)
    assert utf16_len(result) <= max_units
    if utf16_len(value) <= max_units:
        assert result == value
    elif max_units >= 15:
        assert result.endswith(TRUNCATION_MARKER)
        assert value.startswith(result[: -len(TRUNCATION_MARKER)])
        assert utf16_len(result) >= max_units - 1


def test_clamp_smaller_than_the_marker_cuts_the_marker() -> None:
    assert clamp_with_marker("a" * 50, 1) == TRUNCATION_MARKER[:1]
    assert clamp_with_marker("a" * 50, 0) == ""
