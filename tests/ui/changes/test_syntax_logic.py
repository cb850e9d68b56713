"""Pygments spans per diff line."""

from __future__ import annotations

from composer_app.ui.changes import syntax_logic
from composer_app.ui.changes.syntax_logic import has_lexer, highlight_lines


def test_spans_follow_multi_line_strings() -> None:
    lines = ["def f(x):", '    """doc', 'still doc"""', "    return 1"]
    spans = highlight_lines("pkg/mod.py", lines)
    assert spans[0][0][:2] == (0, 3) and spans[0][0][2].bold  # the keyword `def`
    doc_style = spans[1][-1][2]
    assert spans[2] == [(0, 12, doc_style)]  # the second line is still inside the string
    for row, line_spans in zip(lines, spans, strict=True):
        ends = [0]
        for start, end, _ in line_spans:
            assert ends[-1] <= start < end <= len(row)
            ends.append(end)


def test_dark_style_differs() -> None:
    light = highlight_lines("a.py", ["def f(): pass"])[0][0][2]
    dark = highlight_lines("a.py", ["def f(): pass"], dark=True)[0][0][2]
    assert light.color != dark.color


def test_unknown_type_and_huge_text_are_plain(monkeypatch: object) -> None:
    assert not has_lexer("notes.zzzz")
    assert highlight_lines("notes.zzzz", ["x"]) == [[]]
    assert highlight_lines("a.py", []) == []
    big = ["x = 1" * 100] * 1000
    assert highlight_lines("a.py", big) == [[] for _ in big]
    assert sum(len(b) for b in big) > syntax_logic.MAX_HIGHLIGHT_CHARS
