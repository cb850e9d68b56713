"""Thread titles made from a first message."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.references import format_reference
from composer_app.core.codecs.titles import TITLE_MAX_CHARS, title_from_message


@pytest.mark.parametrize(("text", "title"), [
    ("Why does the build fail?", "Why does the build fail?"),
    ("\n\n  fix the   login page  \nsecond line", "fix the login page"),
    ("# Release notes\nbody", "Release notes"),
    ("> quoted question", "quoted question"),
    ("- first item\n- second", "first item"),
    ("1. step one", "step one"),
    ("**bold** and `code`", "bold and code"),
    (f"Look at {format_reference('file', 'f1', 'report.pdf')} please",
     "Look at report.pdf please"),
    ("![shot](t3-context://v1/image/i1) what is this?", "shot what is this?"),
    (f"Found it!{format_reference('file', 'f1', 'notes.txt')} ", "Found it! notes.txt"),
    (f"see {format_reference('file', 'f1', 'a.md')}.", "see a.md."),
    (f"({format_reference('file', 'f1', 'a.md')})", "(a.md)"),
    (f"{format_reference('file', 'f1', 'a')}{format_reference('file', 'f2', 'b')}", "a b"),
    ("   \n\t\n", None),
    ("", None),
    ("--- ... !!!", None),
])
def test_title_from_message(text: str, title: str | None) -> None:
    assert title_from_message(text) == title


def test_a_long_first_line_is_cut_at_a_word_and_marked() -> None:
    text = "Please summarise the quarterly infrastructure report and list every open risk item"
    title = title_from_message(text)
    assert title is not None
    assert title == "Please summarise the quarterly infrastructure report and…"
    assert len(title) <= TITLE_MAX_CHARS


def test_a_long_word_is_cut_inside_the_word() -> None:
    title = title_from_message("x" * 200)
    assert title == "x" * (TITLE_MAX_CHARS - 1) + "…"


@given(st.text())
def test_titles_are_short_single_lines_or_none(text: str) -> None:
    title = title_from_message(text)
    if title is None:
        return
    assert 0 < len(title) <= TITLE_MAX_CHARS
    assert title == title.strip()
    assert "\n" not in title and "\r" not in title
    assert len(title.splitlines()) == 1


@given(st.text(alphabet=st.characters(categories=("L", "N")), min_size=1, max_size=40))
def test_a_single_word_is_its_own_title(word: str) -> None:
    assert title_from_message(word) == word
