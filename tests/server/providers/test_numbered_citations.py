"""Numbered ``[n]`` citation markers become annotations on marker-free text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.numbered_citations import (
    citation_urls,
    resolve_numbered,
    titles_by_url,
)

URLS = ["https://a.example/one", "https://b.example/two"]


def test_markers_are_removed_and_point_at_the_sentence_they_follow():
    text, annotations = resolve_numbered("First fact [1]. Second fact[2][1].", URLS)
    assert text == "First fact. Second fact."
    spans = [(a["url_citation"]["url"], text[a["url_citation"]["start_index"]:
                                             a["url_citation"]["end_index"]])
             for a in annotations]
    assert spans == [(URLS[0], "First fact"), (URLS[1], "Second fact"), (URLS[0], "Second fact")]


def test_links_code_and_unknown_numbers_are_left_alone():
    text = "See [docs][1], `a[1]` and item [3].\n\n```\nx[1]\n```\n\n![img][1]"
    assert resolve_numbered(text, URLS) == (text, [])


def test_fields_are_read_leniently():
    assert citation_urls(["https://x.example", {"url": "https://y.example"}, 3]) == [
        "https://x.example", "https://y.example", ""]
    assert citation_urls("nope") == []
    assert titles_by_url([{"url": "https://x.example", "title": "X"}, {"url": 1}, "z"]) == {
        "https://x.example": "X"}


@given(st.text(max_size=200), st.lists(st.sampled_from(URLS), max_size=3))
def test_only_markers_are_removed_and_every_annotation_fits_the_text(text: str, urls: list[str]):
    cleaned, annotations = resolve_numbered(text, urls)
    assert len(cleaned) <= len(text)
    if not urls:
        assert cleaned == text and annotations == []
    for annotation in annotations:
        citation = annotation["url_citation"]
        assert 0 <= citation["start_index"] <= citation["end_index"] <= len(cleaned)
        assert citation["url"] in urls
    remaining = iter(text)  # the cleaned text is the original with pieces taken out
    assert all(any(char == other for other in remaining) for char in cleaned)
