"""Block enumeration, citation numbering and placement, section labels (docs/sources.md §6, §7)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from composer_app.core.codecs.sources import (
    Block,
    assign_citation_numbers,
    citation_tokens,
    closed_blocks,
    enumerate_blocks,
    place_entries,
    section_labels,
)
from composer_app.core.contracts.sources import SourceEntry, decode_grounding, decode_sources

EXAMPLE = json.loads(
    (Path(__file__).resolve().parents[2] / "fixtures" / "sources_example.json").read_text("utf-8")
)


def kinds(markdown: str) -> list[str]:
    return [block.type for block in enumerate_blocks(markdown)]


def entry(
    entry_id: str, index: int | None, block_type: str = "paragraph", **extra: Any
) -> SourceEntry:
    raw: dict[str, Any] = {
        "id": entry_id,
        "type": "item",
        "sourceLabel": "Jira",
        "sourceUsage": "used",
        "availableActions": [],
    }
    if index is not None:
        raw["citationTarget"] = {"blockIndex": index, "blockType": block_type}
    raw.update(extra)
    return SourceEntry.model_validate(raw)


# --- docs/sources.md §6.1 enumeration -------------------------------------------------------------


def test_example_text_has_a_heading_and_three_paragraphs() -> None:
    blocks = enumerate_blocks(EXAMPLE["text"])
    assert blocks == [
        Block(index=0, type="heading", start_line=0, end_line=1),
        Block(index=1, type="paragraph", start_line=2, end_line=3),
        Block(index=2, type="paragraph", start_line=4, end_line=5),
        Block(index=3, type="paragraph", start_line=6, end_line=7),
    ]


def test_headings_of_both_styles() -> None:
    assert kinds("# One\n\nTitle\n=====\n\n### Three ###") == ["heading", "heading", "heading"]
    assert enumerate_blocks("Title\n=====\n")[0] == Block(0, "heading", 0, 2)


def test_list_items_count_their_first_paragraph_only() -> None:
    markdown = "- one\n- two\n\n  second paragraph of two\n- three\n"
    assert kinds(markdown) == ["list-item", "list-item", "paragraph", "list-item"]


def test_nested_lists() -> None:
    markdown = "1. outer\n   - inner a\n   - inner b\n2. next\n"
    assert kinds(markdown) == ["list-item", "list-item", "list-item", "list-item"]


def test_an_item_starting_with_a_heading_or_fence_has_no_list_item_block() -> None:
    markdown = "- # Heading item\n  text after heading\n- ```\n  code\n  ```\n  after fence\n"
    assert kinds(markdown) == ["heading", "paragraph", "code", "paragraph"]


def test_a_paragraph_after_a_nested_list_in_the_same_item_is_a_paragraph() -> None:
    markdown = "- outer\n\n  - inner\n\n  back in outer\n"
    assert kinds(markdown) == ["list-item", "list-item", "paragraph"]


def test_blockquotes_contain_paragraphs() -> None:
    assert kinds("> quoted\n>\n> - item in quote\n\nafter") == [
        "paragraph",
        "list-item",
        "paragraph",
    ]


def test_tables_count_once_and_code_counts_but_hr_and_html_do_not() -> None:
    markdown = (
        "Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n---\n\n"
        "<div>\nraw html\n</div>\n\n```python\nx = 1\n```\n\n    indented code\n\nEnd"
    )
    blocks = enumerate_blocks(markdown)
    assert [b.type for b in blocks] == ["paragraph", "table", "code", "code", "paragraph"]
    assert (blocks[1].start_line, blocks[1].end_line) == (2, 6)


def test_non_ascii_text_does_not_shift_blocks() -> None:
    markdown = "## Überblick 😀\n\nZweiter Absatz — ✓\n\n- 日本語\n- emoji 🎉\n"
    assert kinds(markdown) == ["heading", "paragraph", "list-item", "list-item"]


def test_empty_text_has_no_blocks() -> None:
    assert enumerate_blocks("") == []
    assert enumerate_blocks("\n\n---\n") == []


# --- docs/sources.md §6.2 placement ---------------------------------------------------------------


def test_example_places_tokens_after_blocks_1_and_2() -> None:
    blocks = enumerate_blocks(EXAMPLE["text"])
    entries = decode_sources(EXAMPLE["sources"])
    numbers = assign_citation_numbers(blocks, entries, {})
    assert numbers == {"src_1": 1, "src_2": 2}
    assert citation_tokens(blocks, entries, numbers) == {1: [(1, "src_1")], 2: [(2, "src_2")]}


def test_a_wrong_block_type_or_missing_block_produces_no_token() -> None:
    blocks = enumerate_blocks("# Title\n\nBody")
    entries = [
        entry("a", 0, "paragraph"),
        entry("b", 1, "heading"),
        entry("c", 7),
        entry("d", None),
    ]
    assert place_entries(blocks, entries) == {}
    assert assign_citation_numbers(blocks, entries, {}) == {}


def test_only_used_entries_get_tokens() -> None:
    blocks = enumerate_blocks("Body")
    entries = [entry("a", 0, sourceUsage="checked"), entry("b", 0, sourceUsage="listed")]
    assert assign_citation_numbers(blocks, entries, {}) == {}


def test_several_entries_on_one_block_form_one_group_in_number_order() -> None:
    blocks = enumerate_blocks("First\n\nSecond")
    entries = [entry("late", 1), entry("x", 1), entry("early", 0)]
    numbers = assign_citation_numbers(blocks, entries, {})
    assert numbers == {"early": 1, "late": 2, "x": 3}
    assert citation_tokens(blocks, entries, {"x": 2, "late": 5, "early": 1}) == {
        0: [(1, "early")],
        1: [(2, "x"), (5, "late")],
    }


def test_the_same_entry_appears_once_per_block() -> None:
    blocks = enumerate_blocks("Only")
    duplicate = entry("a", 0)
    assert place_entries(blocks, [duplicate, duplicate]) == {0: [duplicate]}


# --- docs/sources.md §6.3 numbering ---------------------------------------------------------------


def test_numbers_follow_first_appearance_not_wire_order() -> None:
    blocks = enumerate_blocks("# H\n\nP1\n\n- item\n\n| a |\n|---|\n| 1 |")
    entries = [entry("t", 3, "table"), entry("i", 2, "list-item"), entry("h", 0, "heading")]
    assert assign_citation_numbers(blocks, entries, {}) == {"h": 1, "i": 2, "t": 3}


def test_numbers_are_stable_across_streaming_snapshots() -> None:
    final_text = "First para.\n\nSecond para.\n\nThird para."
    entries = [entry("c", 2), entry("b", 1), entry("a", 0)]
    snapshots = ["First", "First para.\n\nSec", "First para.\n\nSecond para.\n\nThi"]
    numbers: dict[str, int] = {}
    history = []
    for text in snapshots:
        numbers = assign_citation_numbers(closed_blocks(enumerate_blocks(text)), entries, numbers)
        history.append(dict(numbers))
    numbers = assign_citation_numbers(enumerate_blocks(final_text), entries, numbers)
    assert history == [{}, {"a": 1}, {"a": 1, "b": 2}]
    assert numbers == {"a": 1, "b": 2, "c": 3}


def test_previous_numbers_are_never_renumbered_or_mutated() -> None:
    blocks = enumerate_blocks("One\n\nTwo")
    entries = [entry("b", 0), entry("a", 1)]
    previous = {"a": 4}
    numbers = assign_citation_numbers(blocks, entries, previous)
    assert previous == {"a": 4}
    assert numbers == {"a": 4, "b": 5}


def test_a_promoted_entry_gets_the_next_free_number() -> None:
    blocks = enumerate_blocks("One\n\nTwo")
    checked = [entry("p", 0, sourceUsage="checked"), entry("u", 1)]
    numbers = assign_citation_numbers(blocks, checked, {})
    assert numbers == {"u": 1}
    promoted = [entry("p", 0), entry("u", 1)]
    assert assign_citation_numbers(blocks, promoted, numbers) == {"u": 1, "p": 2}


# --- docs/sources.md §7 section labels ------------------------------------------------------------


def test_example_section_labels() -> None:
    grounding = decode_grounding(EXAMPLE["metadata"])
    labels = section_labels(grounding.grounding_mode, grounding.grounding_segments, 4)
    assert labels == {0: "Source-backed", 3: "General knowledge"}


def test_section_labels_accept_wire_segments() -> None:
    labels = section_labels("mixed", EXAMPLE["metadata"]["groundingSegments"], 4)
    assert labels == {0: "Source-backed", 3: "General knowledge"}


@pytest.mark.parametrize("mode", ["source-backed", "general-knowledge", None, "other"])
def test_no_section_labels_unless_mixed(mode: str | None) -> None:
    assert section_labels(mode, EXAMPLE["metadata"]["groundingSegments"], 4) == {}


def seg(start: int, end: int, mode: str) -> dict[str, Any]:
    return {"blockStart": start, "blockEnd": end, "groundingMode": mode, "contributors": []}


def test_adjacent_segments_of_one_mode_share_a_label() -> None:
    segments = [
        seg(0, 0, "source-backed"),
        seg(1, 2, "source-backed"),
        seg(4, 4, "source-backed"),
        seg(5, 5, "general-knowledge"),
        seg(6, 6, "source-backed"),
    ]
    assert section_labels("mixed", segments, 7) == {
        0: "Source-backed",
        4: "Source-backed",
        5: "General knowledge",
        6: "Source-backed",
    }


def test_section_labels_ignore_invalid_outside_and_overlapping_segments() -> None:
    segments = [
        seg(2, 3, "general-knowledge"),
        seg(0, 2, "source-backed"),
        seg(4, 9, "source-backed"),
        {"blockStart": "0"},
    ]
    assert section_labels("mixed", segments, 5) == {0: "Source-backed"}
    assert section_labels("mixed", [seg(5, 6, "source-backed")], 5) == {}
    assert section_labels("mixed", [], 5) == {}


def test_a_block_whose_entries_have_no_number_yet_gets_no_token_group() -> None:
    blocks = enumerate_blocks("First.\n\nSecond.")
    entries = [entry("a", 0), entry("b", 1)]
    assert citation_tokens(blocks, entries, {"b": 1}) == {1: [(1, "b")]}
