"""URL citations mapped to external-link sources, block targets and grounding."""

from __future__ import annotations

from datetime import UTC, datetime

from composer_app.core.codecs.sources_normalization import normalize_sources
from composer_app.server.providers.web_citations import web_sources

TEXT = "# Title\n\nFirst claim.\n\n```\ncode here\n```\n\n- item one\n- item two\n"
NOW = datetime(2026, 11, 30, 14, 2, tzinfo=UTC)


def _cite(url: str, start: object, title: object = "Page") -> dict[str, object]:
    return {"type": "url_citation",
            "url_citation": {"url": url, "title": title, "start_index": start, "end_index": 0}}


def test_citations_target_the_block_holding_their_start():
    sources, metadata = web_sources(TEXT, [
        _cite("https://a.example.com/x", TEXT.index("First")),
        _cite("https://b.example.com/y", TEXT.index("item two")),
        _cite("https://c.example.com/z", TEXT.index("code here")),
        _cite("https://d.example.com/w", 10_000),
    ], NOW)
    assert sources is not None
    targets = [e.get("citationTarget") for e in sources["entries"]]
    assert targets == [{"blockIndex": 1, "blockType": "paragraph"},
                       {"blockIndex": 4, "blockType": "list-item"}, None, None]
    assert sources["entries"][0]["recencyHint"] == "Web pages can change; retrieved 30 Nov 2026."
    assert normalize_sources(sources, public=True) == sources
    segments = [(s["blockStart"], s["blockEnd"], s["groundingMode"])
                for s in metadata["groundingSegments"]]
    assert segments == [(0, 0, "general-knowledge"), (1, 2, "source-backed"),
                        (3, 3, "general-knowledge"), (4, 4, "source-backed")]
    assert metadata["groundingMode"] == "mixed"
    assert metadata["groundingContributors"] == ["general-knowledge", "public-web"]


def test_unsafe_links_and_other_annotation_types_are_ignored():
    sources, metadata = web_sources("Text.", [
        _cite("javascript:alert(1)", 0), _cite("https://user:pw@example.com/", 0),
        {"type": "file_citation", "url": "https://example.com/"}, "junk",
    ], NOW)
    assert sources is None
    assert metadata["groundingMode"] == "general-knowledge"


def test_same_page_cited_twice_is_one_entry_titled_by_host_when_untitled():
    sources, _ = web_sources("Text.", [
        _cite("https://Example.com/p?utm_source=n", 0, title=" "),
        _cite("https://example.com/p", 0, title="Later"),
    ], NOW)
    assert sources is not None
    assert [(e["title"], e["id"]) for e in sources["entries"]] == [("example.com", "web_1")]
