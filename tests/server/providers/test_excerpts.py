"""Quoted text stays literal: excerpts never change the answer's block structure."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from composer_app.core.codecs.sources_blocks import enumerate_blocks
from composer_app.server.providers.excerpts import (
    code_excerpt,
    fenced,
    inline_markdown,
    prose_excerpt,
    sentences,
)
from composer_app.server.providers.passage_store import MARK_CLOSE, MARK_OPEN

_PARSER = MarkdownIt("commonmark").enable("table")
_MARKDOWNISH = st.text(alphabet=st.sampled_from(list("ab1. -+*_#>|`~<>[]()!&\\=\n:")), max_size=80)


def _rendered_text(markdown: str) -> str:
    tokens = _PARSER.parse(markdown)
    inline = [t for t in tokens if t.type == "inline"]
    assert len(inline) == 1
    children = inline[0].children or []
    assert all(child.type in ("text", "softbreak") for child in children), children
    return "".join(child.content for child in children)


@given(_MARKDOWNISH)
def test_inline_markdown_is_one_literal_paragraph(text: str):
    escaped = inline_markdown("**t**: " + text) if text.strip() else "x"
    blocks = enumerate_blocks(escaped)
    assert [b.type for b in blocks] == ["paragraph"]


@given(_MARKDOWNISH.filter(lambda s: s.strip()))
def test_inline_markdown_renders_the_original_characters(text: str):
    assert _rendered_text(inline_markdown(text)) == " ".join(text.split())


@given(st.text(alphabet=st.sampled_from(list("a`~\n ")), max_size=40))
def test_fenced_content_cannot_close_its_fence(content: str):
    markdown = fenced(content, "py")
    tokens = [t for t in _PARSER.parse(markdown) if t.type == "fence"]
    assert len(tokens) == 1 and tokens[0].content == content + "\n"
    assert [b.type for b in enumerate_blocks(markdown)] == ["code"]


def _mark(word: str) -> str:
    return f"{MARK_OPEN}{word}{MARK_CLOSE}"


def test_an_extension_number_does_not_end_a_sentence():
    assert sentences("Out of hours, call the service desk on ext. 4100. Then email us.") == [
        "Out of hours, call the service desk on ext. 4100.", "Then email us."]


def test_prose_excerpt_keeps_best_sentences_in_order():
    marked = (f"# {_mark('Staging')}\n\nIntro text. The {_mark('staging')} server uses "
              f"{_mark('port')} 8443. Unrelated line.\n- Another {_mark('port')} note.")
    assert prose_excerpt(marked) == "The staging server uses port 8443. … Another port note."


def test_code_excerpt_is_the_window_around_matches_with_line_numbers():
    lines = [f"line {i}" for i in range(30)]
    lines[10] = f"def {_mark('backoff')}():"
    excerpt, first, last = code_excerpt("\n".join(lines), first_line=101)
    assert (first, last) == (109, 113)
    assert excerpt.splitlines()[2] == "def backoff():"


def test_code_excerpt_picks_the_cluster_with_most_distinct_matches():
    def mark(word: str) -> str:
        return f"{MARK_OPEN}{word}{MARK_CLOSE}"

    lines = [f"x{i} = {i}" for i in range(40)]
    lines[3] = f"import {mark('retry')}"
    lines[20] = f"def {mark('backoff')}_{mark('delay')}(attempt):"
    lines[21] = f"    return min({mark('delay')}, 30)"
    lines[35] = f"{mark('retry')}()"
    excerpt, first, last = code_excerpt("\n".join(lines), first_line=1)
    assert (first, last) == (19, 24)
    assert "def backoff_delay" in excerpt and "import retry" not in excerpt
