"""Source snippets shown as clean text: heading breadcrumb, no Markdown markup, one paragraph."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.ui.transcript.snippet_logic import SnippetText, display_snippet


def test_leading_headings_become_a_breadcrumb() -> None:
    shown = display_snippet(
        "# Employee handbook\n## Probation\nNew employees have a\nsix-month probation."
    )
    assert shown == SnippetText(
        "Employee handbook › Probation", "New employees have a six-month probation."
    )


def test_markdown_markup_is_stripped_and_words_kept() -> None:
    shown = display_snippet(
        "Read **the  policy** and _notes_, see [the guide](https://example.org/g) or `cfg.ini`.\n\n"
        "- first item\n- second *item*\n\n> quoted line\n\n![chart](c.png)"
    )
    assert shown.path is None
    assert shown.text == (
        "Read the policy and notes, see the guide or cfg.ini. first item second item "
        "quoted line chart"
    )


def test_table_cells_and_rows_are_separated_readably() -> None:
    shown = display_snippet("## Prices\n| Plan | Price |\n| --- | --- |\n| Pro | 49 € |\n")
    assert shown == SnippetText("Prices", "Plan · Price; Pro · 49 €")


def test_a_later_heading_keeps_its_words_in_the_text() -> None:
    shown = display_snippet("Intro text.\n\n## Details\nMore text.")
    assert shown == SnippetText(None, "Intro text. Details More text.")


def test_plain_text_and_heading_only_snippets_are_never_empty() -> None:
    assert display_snippet("Travel: 48,000 (Q2: 54,500)").text == "Travel: 48,000 (Q2: 54,500)"
    assert display_snippet("# Only a title") == SnippetText(None, "Only a title")
    assert display_snippet("5 * 3 = 15, a_b_c").text == "5 * 3 = 15, a_b_c"


@given(st.text(min_size=1).filter(lambda s: s.strip()))
def test_any_snippet_displays_as_collapsed_non_empty_text(snippet: str) -> None:
    shown = display_snippet(snippet)
    assert shown.text == " ".join(shown.text.split())
    assert "\n" not in (shown.path or "")
    assert shown.text or shown.path
