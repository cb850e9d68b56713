"""URL citations of an OpenAI-compatible answer mapped to ``external-link`` sources and grounding.

Invariants: only ``url_citation`` annotations with a safe link (docs/sources.md §8) become entries;
one entry per canonical URL, in first-citation order, each ``used`` with at most ``open``; an entry
gets a ``citationTarget`` only when its cited character range starts inside a rendered, targetable
block of the final text (never a code block), and it is the first citation of that URL; grounding
segments cover every rendered block: cited blocks are ``source-backed`` (``public-web``), the others
``general-knowledge``; the model's own ``[1]`` markers are never parsed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from composer_app.core.codecs.sources_blocks import Block, enumerate_blocks
from composer_app.core.codecs.sources_links import canonical_link, is_safe_link, link_host

MAX_WEB_SOURCES = 100
WEB_COVERAGE = ("Found by the assistant's web search: only the pages it cited are listed, not "
                "everything published on the topic.")


def _block_at(text: str, blocks: Sequence[Block], offset: object) -> Block | None:
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= len(text):
        return None
    line = text.count("\n", 0, offset)
    for block in blocks:
        if block.start_line <= line < block.end_line:
            return None if block.type == "code" else block
    return None


def _citation(annotation: object) -> Mapping[str, Any] | None:
    if not isinstance(annotation, Mapping) or annotation.get("type") != "url_citation":
        return None
    inner = annotation.get("url_citation")
    return inner if isinstance(inner, Mapping) else annotation


def web_sources(
    text: str, annotations: Sequence[object], now: datetime | None = None
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The raw ``sources`` value and grounding ``metadata`` of a finished answer."""
    blocks = enumerate_blocks(text)
    moment = now or datetime.now(UTC)
    retrieved = f"{moment.day} {moment:%b %Y}"
    entries: dict[str, dict[str, Any]] = {}
    cited: set[int] = set()
    for annotation in annotations:
        citation = _citation(annotation)
        url = citation.get("url") if citation else None
        if citation is None or not isinstance(url, str) or not is_safe_link(url):
            continue
        key = canonical_link(url) or url
        block = _block_at(text, blocks, citation.get("start_index"))
        if key in entries or len(entries) >= MAX_WEB_SOURCES:
            continue
        title = citation.get("title")
        host = link_host(url)
        entry: dict[str, Any] = {
            "id": f"web_{len(entries) + 1}",
            "type": "external-link",
            "sourceLabel": "Web",
            "sourceUsage": "used",
            "availableActions": ["open"],
            "title": (title.strip() if isinstance(title, str) and title.strip() else host or url)[
                :300
            ],
            "provider": "web",
            "recencyHint": f"Web pages can change; retrieved {retrieved}.",
            "readinessHint": WEB_COVERAGE,
            "webViewLink": url,
        }
        if host:
            entry["metadata"] = {"host": host}
        if block is not None:
            entry["citationTarget"] = {"blockIndex": block.index, "blockType": block.type}
            cited.add(block.index)
        entries[key] = entry
    return (
        {"version": 1, "entries": list(entries.values())} if entries else None,
        grounding_for(blocks, cited),
    )


def grounding_for(blocks: Sequence[Block], cited: set[int]) -> dict[str, Any]:
    """Message grounding for an answer whose ``cited`` blocks are backed by web sources."""
    segments: list[dict[str, Any]] = []
    for block in blocks:
        if block.type == "code" and segments:
            mode = segments[-1]["groundingMode"]
        else:
            mode = "source-backed" if block.index in cited else "general-knowledge"
        if segments and segments[-1]["groundingMode"] == mode:
            segments[-1]["blockEnd"] = block.index
            continue
        contributors = ["public-web"] if mode == "source-backed" else ["general-knowledge"]
        segments.append(
            {"blockStart": block.index, "blockEnd": block.index, "groundingMode": mode,
             "contributors": contributors}
        )
    modes = {s["groundingMode"] for s in segments} or {"general-knowledge"}
    contributors = list(dict.fromkeys(c for s in segments for c in s["contributors"]))
    metadata: dict[str, Any] = {
        "groundingMode": modes.pop() if len(modes) == 1 else "mixed",
        "groundingContributors": contributors or ["general-knowledge"],
    }
    if segments:
        metadata["groundingSegments"] = segments
    return metadata
