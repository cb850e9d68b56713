"""Answer HTML: tokens after their block, labels before it, raw HTML shown as text."""

from __future__ import annotations

from composer_app.core.codecs.sources import enumerate_blocks
from composer_app.ui.transcript.markdown_logic import MarkdownTheme, answer_html
from composer_app.ui.transcript.samples import SOURCED_TEXT


def test_token_sits_after_the_last_character_of_its_block() -> None:
    html = answer_html(SOURCED_TEXT, tokens={1: [(1, "src_1")]})
    paragraph = next(p for p in html.split("\n") if "48,000" in p)
    assert (
        paragraph.index("from Q2.") < paragraph.index('href="cite:src_1"') < paragraph.index("</p>")
    )
    assert html.count("cite:") == 1


def test_group_is_in_number_order_and_table_token_follows_the_table() -> None:
    text = "| a | b |\n|---|---|\n| 1 | 2 |\n\nafter"
    assert [b.type for b in enumerate_blocks(text)] == ["table", "paragraph"]
    html = answer_html(text, tokens={0: [(1, "x"), (2, "y")]})
    assert html.index("</table>") < html.index("cite:x") < html.index("cite:y")
    assert "<td>" in html and "cite:" not in html[: html.index("</table>")]


def test_code_blocks_never_carry_tokens() -> None:
    text = "```\ncode\n```\n\npara"
    html = answer_html(text, tokens={0: [(1, "x")], 1: [(2, "y")]})
    assert "cite:x" not in html and "cite:y" in html


def test_section_labels_come_before_their_block() -> None:
    html = answer_html(SOURCED_TEXT, labels={0: "Source-backed", 3: "General knowledge"})
    assert html.index("Source-backed") < html.index("<h2>")
    assert (
        html.index("budgets tighten") > html.index("General knowledge") > html.index("14 October")
    )


def test_label_before_a_list_item_stays_inside_the_list() -> None:
    html = answer_html("- one\n- two", labels={1: "General knowledge"})
    assert (
        html.index("<li>", html.index("one")) < html.index("General knowledge") < html.index("two")
    )


def test_raw_html_and_images_are_not_interpreted() -> None:
    html = answer_html('<img src="http://x/y.png"> and ![pic](http://x/p.png)')
    assert '<img src="http' not in html
    assert "&lt;img" in html and '<a href="http://x/p.png">pic</a>' in html


def test_highlight_marks_the_supported_block() -> None:
    html = answer_html(SOURCED_TEXT, highlight=[2])
    line = next(p for p in html.split("\n") if "14 October" in p)
    assert "background-color" in line
    assert "background-color" not in next(p for p in html.split("\n") if "48,000" in p)


def test_streaming_renders_the_open_tail_as_plain_text() -> None:
    html = answer_html("# Title\n\n**bold** tail", streaming=True)
    assert "<h1>Title</h1>" in html
    assert "**bold** tail" in html and "<strong>" not in html
    done = answer_html("# Title\n\n**bold** tail")
    assert "<strong>bold</strong>" in done


def test_a_closing_note_in_emphasis_is_muted_and_other_emphasis_is_not() -> None:
    theme = MarkdownTheme()
    body = answer_html("The answer.\n\n*I'm an offline retrieval assistant.*", theme=theme)
    assert body.count(f"color:{theme.muted}") == 1
    assert "<em>I'm an offline retrieval assistant.</em>" in body
    for text in ("*Not* a note.", "*a* and *b*", "The answer.\n\n> *quoted*", "*x*\n\nlast"):
        assert f"color:{theme.muted}" not in answer_html(text, theme=theme), text
