"""Binary detection and passage cutting."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.passages import (
    PASSAGE_MAX_LINES,
    decode_text,
    mime_type_for,
    passages_for,
    split_passages,
)


def test_binary_data_is_refused_and_text_is_normalised():
    assert decode_text(b"abc\x00def") is None
    assert decode_text(b"plain", "picture.PNG") is None
    assert decode_text(bytes(range(128, 256)) * 4) is None
    assert decode_text("\ufeffcaf\u00e9\r\nline\rend".encode()) == "caf\u00e9\nline\nend"


def test_mime_types_for_display():
    assert mime_type_for("a.md") == "text/markdown"
    assert mime_type_for("b.rs") == "text/x-source"
    assert mime_type_for("README") == "text/plain"


def test_markdown_passages_start_at_headings():
    text = "# A\nalpha\n## B\nbeta\n"
    assert [(p.line_start, p.line_end, p.text) for p in split_passages(text, markdown=True)] == [
        (1, 2, "# A\nalpha"), (3, 4, "## B\nbeta")
    ]


@given(st.lists(st.sampled_from(["", " ", "word", "x" * 300, "# head", "- item"]), max_size=120))
def test_passages_cover_every_non_blank_line_once_in_order(lines: list[str]):
    text = "\n".join(lines)
    passages = split_passages(text, markdown=True)
    covered: list[int] = []
    for passage in passages:
        assert passage.line_end - passage.line_start < PASSAGE_MAX_LINES
        assert passage.text == "\n".join(lines[passage.line_start - 1 : passage.line_end])
        covered.extend(range(passage.line_start, passage.line_end + 1))
    assert covered == sorted(set(covered))
    non_blank = [i + 1 for i, line in enumerate(lines) if line.strip()]
    assert set(non_blank) <= set(covered)


def test_prose_keeps_the_words_of_emphasis_and_code_spans_without_their_markers():
    text = ("# Delivery\n\n- **Standard delivery** (3 to 5 days): £4.25, or *free* on\n"
            "  orders of £50 or more.\n\n| Plan | Price |\n|---|---|\n| __Pro__ | `49 €` |\n\n"
            "Keep snake_case_names and 2 * 3 * 4 as written.\n\n1. **Middle tier.** The rate\n"
            "   becomes 3.15%.\n")
    lines = passages_for("delivery.md", text)[0].text.split("\n")
    assert lines[1] == "Standard delivery (3 to 5 days): £4.25, or free on orders of £50 or more."
    assert lines[2] == "Plan: Pro; Price: 49 €"
    assert lines[3] == "Keep snake_case_names and 2 * 3 * 4 as written."
    assert lines[4] == "Middle tier: The rate becomes 3.15%."  # a leading label stays one sentence
