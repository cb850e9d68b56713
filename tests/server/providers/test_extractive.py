"""Composition of the offline assistant's answers."""

from __future__ import annotations

from composer_app.core.codecs.sources_blocks import enumerate_blocks
from composer_app.server.providers.extractive import (
    Evidence,
    Notice,
    SourceRef,
    compose_answer,
    compose_general,
    compose_listing,
)
from composer_app.server.providers.passage_store import MARK_CLOSE, MARK_OPEN, Hit

REF = SourceRef(id="kb:1", type="connector-file", source_label="Knowledge folder",
                title="notes.md")
OTHER = SourceRef(id="kb:2", type="connector-file", source_label="Knowledge folder",
                  title="other.md")


def _hit(ref: SourceRef, text: str) -> Hit:
    marked = text.replace("port", f"{MARK_OPEN}port{MARK_CLOSE}")
    return Hit(ref.id, ref.title, 1, 1, text, marked, -1.0, 1)


def test_each_used_passage_is_its_own_cited_block_and_checked_ones_are_inventory():
    answer = compose_answer([Evidence(REF, _hit(REF, "The port is 80."), 1.0)],
                            [Evidence(OTHER, _hit(OTHER, "Ports are numbers."), 0.5)])
    entries = answer.sources["entries"] if answer.sources else []
    assert [(e["id"], e["sourceUsage"], e.get("citationTarget")) for e in entries] == [
        ("kb:1", "used", {"blockIndex": 0, "blockType": "paragraph"}),
        ("kb:2", "checked", None),
    ]
    assert "I also checked 1 other passage" in answer.text


def test_notices_are_general_blocks_with_checked_entries_and_coverage_hints():
    notice = Notice("I couldn't read x.png.", OTHER, "Not a text file.")
    answer = compose_general("the attached files", (), [notice])
    assert answer.metadata["groundingMode"] == "general-knowledge"
    assert answer.sources is not None
    assert answer.sources["entries"][0]["readinessHint"] == "Not a text file."
    assert len(enumerate_blocks(answer.text)) == 3


def test_empty_listing_says_so_without_sources():
    answer = compose_listing([], 0, "the knowledge folder")
    assert answer.sources is None
    assert "found no text files" in answer.text


def test_long_listing_is_capped_and_says_how_many_exist():
    refs = [SourceRef(id=f"kb:{i}", type="connector-file", source_label="Knowledge folder",
                      title=f"file{i}.md") for i in range(60)]
    answer = compose_listing(refs, 60, "the knowledge folder")
    assert answer.sources is not None and len(answer.sources["entries"]) == 50
    assert "found 60 text files" in answer.text and "the first 50" in answer.text
    assert {e["sourceUsage"] for e in answer.sources["entries"]} == {"listed"}
