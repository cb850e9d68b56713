"""Numbered citations (``[1]`` markers with a ``citations`` list of URLs, as Perplexity-style
endpoints send them) turned into ``url_citation`` annotations on marker-free text.

Invariants: a marker ``[n]`` (1-based, optionally several in a row such as ``[1][3]``) is removed,
with the spaces before it, only when ``n`` names an entry of the citations list and the marker is
not inside a code block, inline code or a Markdown link; every removed marker becomes one
annotation whose ``start_index`` is the start of the sentence it follows (so its token lands on that
sentence's block), in the cleaned text's offsets; titles come from a ``search_results`` list
(matched by URL) when the endpoint sends one; other text is never changed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from composer_app.core.codecs.sources_blocks import enumerate_blocks

_MARKERS = re.compile(r"(?<![\]!])(?:[ \t]*\[\d{1,3}\])+(?![(\[:])")
_NUMBER = re.compile(r"\d+")
_SENTENCE_START = re.compile(r"(?:^|(?<=[.!?])\s+|\n)")


def _code_lines(text: str) -> set[int]:
    return {line for block in enumerate_blocks(text) if block.type == "code"
            for line in range(block.start_line, block.end_line)}


def _in_inline_code(line: str, column: int) -> bool:
    return line[:column].count("`") % 2 == 1


def citation_urls(citations: object) -> list[str]:
    """The URL list of a ``citations`` field (strings, or objects with a ``url``)."""
    urls: list[str] = []
    for item in citations if isinstance(citations, list) else []:
        url = item.get("url") if isinstance(item, Mapping) else item
        urls.append(url if isinstance(url, str) else "")
    return urls


def titles_by_url(search_results: object) -> dict[str, str]:
    """``url -> title`` from a ``search_results`` field."""
    found: dict[str, str] = {}
    for item in search_results if isinstance(search_results, list) else []:
        if isinstance(item, Mapping) and isinstance(item.get("url"), str) and \
                isinstance(item.get("title"), str):
            found[item["url"]] = item["title"]
    return found


def resolve_numbered(text: str, urls: Sequence[str], titles: Mapping[str, str] | None = None
                     ) -> tuple[str, list[dict[str, Any]]]:
    """``text`` without its citation markers, and one ``url_citation`` per removed marker."""
    if not urls:
        return text, []
    titles = titles or {}
    code = _code_lines(text)
    pieces: list[str] = []
    pending: list[tuple[int, str]] = []  # (offset in the cleaned text, url)
    position = 0
    cleaned_length = 0
    for match in _MARKERS.finditer(text):
        numbers = [int(n) for n in _NUMBER.findall(match.group(0))]
        line_number = text.count("\n", 0, match.start())
        line_start = text.rfind("\n", 0, match.start()) + 1
        line = text[line_start : text.find("\n", match.start()) if "\n" in text[match.start():]
                    else len(text)]
        if any(not 1 <= n <= len(urls) or not urls[n - 1] for n in numbers) or \
                line_number in code or _in_inline_code(line, match.start() - line_start):
            continue
        pieces.append(text[position : match.start()])
        cleaned_length += match.start() - position
        pending.extend((cleaned_length, urls[n - 1]) for n in numbers)
        position = match.end()
    pieces.append(text[position:])
    cleaned = "".join(pieces)
    annotations = []
    for offset, url in pending:
        start = _sentence_start(cleaned, offset)
        citation: dict[str, Any] = {"url": url, "start_index": start, "end_index": offset}
        if url in titles:
            citation["title"] = titles[url]
        annotations.append({"type": "url_citation", "url_citation": citation})
    return cleaned, annotations


def _sentence_start(text: str, offset: int) -> int:
    """The start of the sentence that ends at (or contains) ``offset``."""
    head = text[:offset].rstrip()
    best = 0
    for match in _SENTENCE_START.finditer(head):
        if match.end() < len(head):
            best = match.end()
    return best
