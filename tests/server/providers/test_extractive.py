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
    assert answer.text.startswith("The port is 80.\n\n")  # the direct answer comes first
    assert "Ports are numbers" not in answer.text  # checked passages stay in the panel


def test_direct_answer_comes_first_then_the_supporting_quote_then_a_short_note():
    text = "The port is 443 in production. Staging is separate. The old port 80 is closed."
    answer = compose_answer([Evidence(REF, _hit(REF, text), 1.0)], [])
    blocks = enumerate_blocks(answer.text)
    paragraphs = answer.text.split("\n\n")
    assert len(blocks) == len(paragraphs) == 3
    assert paragraphs[0] == "The port is 443 in production."
    assert paragraphs[1] == (
        "**notes.md**: “The port is 443 in production. … The old port 80 is closed.”")
    note = paragraphs[2]
    assert note.startswith("*") and note.endswith("*") and "offline retrieval assistant" in (
        note.lower())
    assert len(note) < 80
    assert answer.sources is not None
    assert answer.sources["entries"][0]["citationTarget"] == {"blockIndex": 0,
                                                               "blockType": "paragraph"}
    segments = answer.metadata["groundingSegments"]
    assert [(s["blockStart"], s["blockEnd"]) for s in segments] == [(0, 1)]
    assert answer.metadata["groundingMode"] == "source-backed"


def test_a_quote_that_only_repeats_the_direct_answer_is_left_out():
    answer = compose_answer([Evidence(REF, _hit(REF, "The port is 80."), 1.0)], [])
    assert answer.text.count("The port is 80.") == 1


def test_every_further_used_passage_is_quoted_and_cited_on_its_quote():
    answer = compose_answer([Evidence(REF, _hit(REF, "The port is 80.")),
                             Evidence(OTHER, _hit(OTHER, "The admin port is 9000."))], [])
    entries = answer.sources["entries"] if answer.sources else []
    blocks = answer.text.split("\n\n")
    assert [e["citationTarget"]["blockIndex"] for e in entries] == [0, 1]
    assert blocks[1] == "**other.md**: “The admin port is 9000.”"


def test_notices_are_general_blocks_with_checked_entries_and_coverage_hints():
    notice = Notice("I couldn't read x.png.", OTHER, "Not a text file.")
    answer = compose_general("the attached files", (), [notice])
    assert answer.metadata["groundingMode"] == "general-knowledge"
    assert answer.sources is not None
    assert answer.sources["entries"][0]["readinessHint"] == "Not a text file."
    assert len(enumerate_blocks(answer.text)) == 4
    assert "x.png" in answer.text and "can't give a sourced answer" in answer.text


def test_empty_listing_says_so_without_sources():
    answer = compose_listing([], 0, "the knowledge folder")
    assert answer.sources is None
    assert "found no text files" in answer.text
    assert "offline retrieval assistant" in answer.text.lower()


def test_long_listing_is_capped_and_says_how_many_exist():
    refs = [SourceRef(id=f"kb:{i}", type="connector-file", source_label="Knowledge folder",
                      title=f"file{i}.md") for i in range(60)]
    answer = compose_listing(refs, 60, "the knowledge folder")
    assert answer.sources is not None and len(answer.sources["entries"]) == 50
    assert "found 60 text files" in answer.text and "the first 50" in answer.text
    assert {e["sourceUsage"] for e in answer.sources["entries"]} == {"listed"}
