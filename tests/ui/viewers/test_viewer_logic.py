"""Zoom steps, editor command lines and review diffs."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.ui.viewers.viewer_logic import (
    ZOOM_STEPS,
    ReviewDiffLine,
    editor_argv,
    fit_factor,
    is_commented,
    parse_review_diff,
    zoom_step,
)


def test_zoom_steps() -> None:
    assert zoom_step(1.0, 1) == 1.1
    assert zoom_step(1.0, -1) == 0.9
    assert zoom_step(1.05, -1) == 1.0
    assert zoom_step(8.0, 1) == 8.0
    assert zoom_step(0.1, -1) == 0.1


@given(st.floats(min_value=0.01, max_value=20), st.sampled_from([1, -1]))
def test_zoom_stays_in_range(current: float, direction: int) -> None:
    assert ZOOM_STEPS[0] <= zoom_step(current, direction) <= ZOOM_STEPS[-1]


def test_fit() -> None:
    assert fit_factor(2000, 1000, 1000, 1000) == 0.5
    assert fit_factor(10, 10, 1000, 1000) == 1.0
    assert fit_factor(0, 10, 100, 100) == 1.0


def test_editor_argv_substitutes_without_a_shell() -> None:
    path = "/home/u/my project/a'b;rm -rf ~.py"
    assert editor_argv("code -g {path}:{line}", path, 12) == ["code", "-g", f"{path}:12"]
    assert editor_argv("'/opt/My Editor/ed' +{line}", "/x", None) == ["/opt/My Editor/ed", "+1",
                                                                       "/x"]
    assert editor_argv("", "/x", 1) is None
    assert editor_argv("code 'unclosed", "/x", 1) is None


def test_parse_review_diff_numbers_lines() -> None:
    diff = "@@ -10,3 +10,4 @@ def f():\n a\n-b\n+c\n+d\n e\nnot a hunk line"
    lines = parse_review_diff(diff)
    assert lines == [
        ReviewDiffLine("@", "@@ -10,3 +10,4 @@ def f():"),
        ReviewDiffLine(" ", "a", 10, 10),
        ReviewDiffLine("-", "b", 11, None),
        ReviewDiffLine("+", "c", None, 11),
        ReviewDiffLine("+", "d", None, 12),
        ReviewDiffLine(" ", "e", 12, 13),
        ReviewDiffLine("?", "not a hunk line"),
    ]
    marked = [line.text for line in lines if is_commented(line, 11, 12)]
    assert marked == ["c", "d"]
    assert [line.text for line in lines if is_commented(line, 11, 11, before=True)] == ["b"]
    assert parse_review_diff("") == [ReviewDiffLine("?", "")]
