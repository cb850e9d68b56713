"""Binary detection and passage cutting."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.passages import (
    PASSAGE_MAX_LINES,
    decode_text,
    mime_type_for,
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
