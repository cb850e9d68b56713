"""Rendered Markdown blocks, inline citation numbers and section labels (docs/sources.md §6, §7).

Invariants: ``enumerate_blocks`` is the one block enumeration shared by server and client
(markdown-it-py, CommonMark preset plus ``table``); a token is placed only for a ``used`` entry
whose ``citationTarget`` names an existing block of the same type; ``assign_citation_numbers``
only ever adds numbers (first appearance, continuing after the largest known one) and never
mutates its input; section labels exist only for ``mixed`` answers with at least one valid segment.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

from composer_app.core.contracts.sources import (
    GroundingSegment,
    SourceEntry,
    clean_segments,
    decode_segment,
)

SECTION_LABELS = {"source-backed": "Source-backed", "general-knowledge": "General knowledge"}

_PARSER = MarkdownIt("commonmark").enable("table")
_COUNTED = {
    "heading_open": "heading",
    "table_open": "table",
    "fence": "code",
    "code_block": "code",
}


@dataclass(frozen=True, slots=True)
class Block:
    """One counted block: its 0-based index, type, and source lines (``end_line`` exclusive)."""

    index: int
    type: str
    start_line: int
    end_line: int


def parse_markdown(markdown: str) -> list[Token]:
    """The markdown-it token stream every block index refers to."""
    return _PARSER.parse(markdown)


def counted_tokens(tokens: Sequence[Token]) -> list[tuple[int, str]]:
    """``(token position, block type)`` of every counted block token, in order
    (docs/sources.md §6.1)."""
    counted: list[tuple[int, str]] = []
    for position, token in enumerate(tokens):
        if token.type == "paragraph_open":
            after_item = position > 0 and tokens[position - 1].type == "list_item_open"
            counted.append((position, "list-item" if after_item else "paragraph"))
        elif token.type in _COUNTED:
            counted.append((position, _COUNTED[token.type]))
    return counted


def enumerate_blocks(markdown: str) -> list[Block]:
    """The counted blocks of ``markdown`` in document order (docs/sources.md §6.1)."""
    tokens = parse_markdown(markdown)
    blocks: list[Block] = []
    for index, (position, kind) in enumerate(counted_tokens(tokens)):
        start, end = tokens[position].map or (0, 0)
        blocks.append(Block(index=index, type=kind, start_line=start, end_line=end))
    return blocks


def closed_blocks(blocks: Sequence[Block]) -> list[Block]:
    """While streaming, only blocks followed by a later block are closed (docs/sources.md §6.3)."""
    return list(blocks[:-1])


def _targets(entry: SourceEntry, blocks_by_index: Mapping[int, Block]) -> Block | None:
    target = entry.citation_target
    if entry.source_usage != "used" or target is None:
        return None
    block = blocks_by_index.get(target.block_index)
    if block is None or block.type != target.block_type:
        return None
    return block


def assign_citation_numbers(
    blocks: Sequence[Block], entries: Sequence[SourceEntry], previous: Mapping[str, int]
) -> dict[str, int]:
    """``previous`` plus a number for each newly placed entry, by first appearance
    (docs/sources.md §6.3)."""
    numbers = dict(previous)
    next_number = max(previous.values(), default=0) + 1
    by_block = place_entries(blocks, entries)
    for block in blocks:
        for entry in by_block.get(block.index, []):
            if entry.id not in numbers:
                numbers[entry.id] = next_number
                next_number += 1
    return numbers


def place_entries(
    blocks: Sequence[Block], entries: Sequence[SourceEntry]
) -> dict[int, list[SourceEntry]]:
    """Block index → the entries structurally attached to it, in wire order, once each
    (docs/sources.md §6.2)."""
    blocks_by_index = {block.index: block for block in blocks}
    placed: dict[int, list[SourceEntry]] = {}
    for entry in entries:
        block = _targets(entry, blocks_by_index)
        if block is not None and all(e.id != entry.id for e in placed.get(block.index, [])):
            placed.setdefault(block.index, []).append(entry)
    return placed


def citation_tokens(
    blocks: Sequence[Block], entries: Sequence[SourceEntry], numbers: Mapping[str, int]
) -> dict[int, list[tuple[int, str]]]:
    """Block index → the token group after that block: ``(number, entry id)`` in number order.

    Only numbered entries appear, so a streaming caller passes the numbers of the closed prefix.
    """
    groups: dict[int, list[tuple[int, str]]] = {}
    for index, placed in place_entries(blocks, entries).items():
        group = sorted((numbers[e.id], e.id) for e in placed if e.id in numbers)
        if group:
            groups[index] = group
    return groups


def section_labels(
    grounding_mode: str | None,
    segments: Iterable[GroundingSegment | Mapping[str, object]],
    block_count: int,
) -> dict[int, str]:
    """Block index → ``Source-backed`` / ``General knowledge`` before it (docs/sources.md §7)."""
    if grounding_mode != "mixed":
        return {}
    decoded: list[GroundingSegment] = []
    for segment in segments:
        value = segment if isinstance(segment, GroundingSegment) else decode_segment(segment)
        if value is not None:
            decoded.append(value)
    labels: dict[int, str] = {}
    previous: GroundingSegment | None = None
    for segment in clean_segments(decoded, block_count):
        continues = (
            previous is not None
            and previous.grounding_mode == segment.grounding_mode
            and previous.block_end == segment.block_start - 1
        )
        if not continues:
            labels[segment.block_start] = SECTION_LABELS[segment.grounding_mode]
        previous = segment
    return labels
