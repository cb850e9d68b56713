"""Shared snapshots and thread exports without private source data (docs/sources.md §10).

Invariants: a shared or exported message keeps, per source entry, only ``id``, ``type``,
``sourceLabel``, ``sourceUsage``, ``title``, ``readinessHint``, ``recencyHint`` and
``citationTarget``, with ``availableActions = []``; no snippet, metadata, account label, private id,
tool name or link survives, so exports contain no direct source links, download controls or inline
source actions — inline tokens are plain numbers. ``strip_for_share`` never modifies its argument.
Exported HTML escapes raw HTML from message text.
"""

from __future__ import annotations

import copy
import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from composer_app.core.codecs.sources_blocks import (
    assign_citation_numbers,
    citation_tokens,
    counted_tokens,
    enumerate_blocks,
    parse_markdown,
)
from composer_app.core.codecs.sources_links import is_safe_link
from composer_app.core.contracts.sources import SourceEntry, decode_sources, encode_sources

SHARE_KEYS = (
    "id",
    "type",
    "sourceLabel",
    "sourceUsage",
    "availableActions",
    "title",
    "readinessHint",
    "recencyHint",
    "citationTarget",
)
_GROUP_HEADERS = {"used": "Used in answer", "checked": "Checked", "listed": "Listed"}


def share_entry(entry: SourceEntry) -> SourceEntry:
    """``entry`` reduced to the fields a shared snapshot keeps, with no actions."""
    return SourceEntry.model_validate(
        {
            "id": entry.id,
            "type": entry.type,
            "source_label": entry.source_label,
            "source_usage": entry.source_usage,
            "available_actions": [],
            "title": entry.title,
            "readiness_hint": entry.readiness_hint,
            "recency_hint": entry.recency_hint,
            "citation_target": entry.citation_target,
        }
    )


def strip_for_share(message: Mapping[str, Any]) -> dict[str, Any]:
    """A new wire message with ``sources`` reduced for sharing; every other key unchanged."""
    shared: dict[str, Any] = {}
    for key, value in message.items():
        if key != "sources":
            shared[key] = copy.deepcopy(value)
            continue
        reduced = encode_sources(share_entry(e) for e in decode_sources(value))
        if reduced is not None:
            shared[key] = reduced
    return shared


def _numbers(text: str, entries: Sequence[SourceEntry]) -> dict[str, int]:
    return assign_citation_numbers(enumerate_blocks(text), entries, {})


def _token_text(numbers: Iterable[int]) -> str:
    return " ".join(f"\\[{n}\\]" for n in numbers)


def _markdown_body(text: str, groups: Mapping[int, list[tuple[int, str]]]) -> str:
    if not groups:
        return text
    lines = text.split("\n")
    blocks = enumerate_blocks(text)
    trailing: list[tuple[int, str]] = []
    for index, group in groups.items():
        block = blocks[index]
        marker = _token_text(n for n, _ in group)
        last = max(block.start_line, block.end_line - 1)
        if block.type == "table":
            trailing.append((last, marker))
            continue
        if block.type == "heading" and last > block.start_line:
            last -= 1  # setext heading: the marker goes on the text line, not the underline
        lines[last] = lines[last].rstrip() + " " + marker
    for last, marker in sorted(trailing, reverse=True):
        lines[last + 1 : last + 1] = ["", marker]
    return "\n".join(lines)


def _sources_markdown(entries: Sequence[SourceEntry], numbers: Mapping[str, int]) -> list[str]:
    out: list[str] = []
    for usage, header in _GROUP_HEADERS.items():
        group = [e for e in entries if e.source_usage == usage]
        if not group:
            continue
        group.sort(key=lambda e: (numbers.get(e.id, len(entries) + 1), entries.index(e)))
        out += ["", f"*{header} ({len(group)})*", ""]
        for entry in group:
            numbered = usage == "used" and entry.id in numbers
            number = f"\\[{numbers[entry.id]}\\] " if numbered else ""
            out.append(
                f"- {number}{_escape_md(entry.title or entry.source_label)} · "
                f"{_escape_md(entry.source_label)}"
            )
            if entry.readiness_hint:
                out.append(f"  - Coverage: {_escape_md(entry.readiness_hint)}")
            if entry.recency_hint:
                out.append(f"  - Freshness: {_escape_md(entry.recency_hint)}")
    return out


def _escape_md(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_[]<>|" else c for c in text)


@dataclass(frozen=True)
class _SharedMessage:
    """One message as both exports see it: stripped for sharing, its citations numbered."""

    text: str
    is_assistant: bool
    entries: list[SourceEntry]
    numbers: dict[str, int]
    groups: dict[int, list[tuple[int, str]]]


def _shared_message(message: Mapping[str, Any]) -> _SharedMessage:
    shared = strip_for_share(message)
    text = shared["text"] if isinstance(shared.get("text"), str) else ""
    entries = decode_sources(shared.get("sources"))
    numbers = _numbers(text, entries)
    groups = citation_tokens(enumerate_blocks(text), entries, numbers)
    return _SharedMessage(text, shared.get("role") == "assistant", entries, numbers, groups)


def export_markdown(messages: Iterable[Mapping[str, Any]]) -> str:
    """A thread as Markdown: message text with plain-number tokens and a titles-only source list."""
    parts: list[str] = []
    for message in map(_shared_message, messages):
        role = "Assistant" if message.is_assistant else "User"
        section = [f"### {role}", "", _markdown_body(message.text, message.groups)]
        if message.entries:
            section += ["", "**Sources**", *_sources_markdown(message.entries, message.numbers)]
        parts.append("\n".join(section))
    return "\n\n".join(parts) + "\n"


_RENDERER = MarkdownIt("commonmark").enable("table")


def _escaped_html(_renderer: object, tokens: Sequence[Token], idx: int, *_: object) -> str:
    return html.escape(tokens[idx].content)


def _raw_markup(_renderer: object, tokens: Sequence[Token], idx: int, *_: object) -> str:
    return tokens[idx].content


def _external_link(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    tokens[idx].attrSet("target", "_blank")
    tokens[idx].attrSet("rel", "noopener noreferrer")
    rendered: str = renderer.renderToken(tokens, idx, options, env)
    return rendered


def _plain_span(_renderer: object, tokens: Sequence[Token], idx: int, *_: object) -> str:
    kind = tokens[idx].meta.get("class", "")
    return f'<span class="{kind}">' if tokens[idx].nesting == 1 else "</span>"


def _chip_image(_renderer: object, tokens: Sequence[Token], idx: int, *_: object) -> str:
    """An image as its label: a context chip, or a link to a safe page (nothing is loaded)."""
    token = tokens[idx]
    alt = html.escape(token.content or str(token.attrGet("alt") or "") or "image")
    src = str(token.attrGet("src") or "")
    if is_safe_link(src):
        href = html.escape(src, quote=True)
        return f'<a href="{href}" target="_blank" rel="noopener noreferrer">{alt}</a>'
    return f'<span class="context-chip">{alt}</span>'


def _unlink(tokens: Sequence[Token]) -> None:
    """Keep links only to safe http(s) pages: context references become chip labels and any
    other target plain text (a shared page links to nothing private)."""
    for token in tokens:
        children = token.children or []
        open_kinds: list[str] = []
        for child in children:
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                kind = ("context-chip" if href.startswith("t3-context:")
                        else "" if is_safe_link(href) else "link-text")
                open_kinds.append(kind)
                if kind:
                    child.type, child.meta = "plain_span_open", {"class": kind}
            elif child.type == "link_close" and open_kinds:
                if open_kinds.pop():
                    child.type = "plain_span_close"
            elif child.type == "image":
                child.type = "chip_image"


_RENDERER.add_render_rule("link_open", _external_link)
_RENDERER.add_render_rule("plain_span_open", _plain_span)
_RENDERER.add_render_rule("plain_span_close", _plain_span)
_RENDERER.add_render_rule("chip_image", _chip_image)
_RENDERER.add_render_rule("html_block", _escaped_html)
_RENDERER.add_render_rule("html_inline", _escaped_html)
_RENDERER.add_render_rule("source_tokens", _raw_markup)


def _marker(numbers: Iterable[int], *, block: bool) -> Token:
    pills = "".join(f'<sup class="source-token">{n}</sup>' for n in numbers)
    token = Token("source_tokens", "", 0, block=block)
    token.content = f' <span class="source-tokens">{pills}</span>' + ("\n" if block else "")
    return token


def _body_html(text: str, groups: Mapping[int, list[tuple[int, str]]]) -> str:
    tokens = parse_markdown(text)
    after: dict[int, Token] = {}
    for index, (position, kind) in enumerate(counted_tokens(tokens)):
        if index not in groups:
            continue
        numbers = [n for n, _ in groups[index]]
        if kind == "table":
            close = next(p for p in range(position, len(tokens)) if tokens[p].type == "table_close")
            after[close] = _marker(numbers, block=True)
        else:  # heading, paragraph, list item: the inline token right after the opener
            inline = tokens[position + 1]
            inline.children = [*(inline.children or []), _marker(numbers, block=False)]
    _unlink(tokens)
    stream: list[Token] = []
    for position, token in enumerate(tokens):
        stream.append(token)
        if position in after:
            stream.append(after[position])
    rendered: str = _RENDERER.renderer.render(stream, _RENDERER.options, {})
    return rendered


def _sources_html(entries: Sequence[SourceEntry], numbers: Mapping[str, int]) -> str:
    out = ['<section class="sources"><h4>Sources</h4>']
    for usage, header in _GROUP_HEADERS.items():
        group = sorted(
            (e for e in entries if e.source_usage == usage),
            key=lambda e: (numbers.get(e.id, len(entries) + 1), entries.index(e)),
        )
        if not group:
            continue
        out.append(f"<p>{header} ({len(group)})</p><ul>")
        for entry in group:
            number = numbers.get(entry.id) if usage == "used" else None
            badge = f'<span class="source-number">{number}</span> ' if number else ""
            title = html.escape(entry.title or entry.source_label)
            label = html.escape(entry.source_label)
            item = f"<li>{badge}{title} · {label}"
            if entry.readiness_hint:
                item += f"<br>Coverage: {html.escape(entry.readiness_hint)}"
            if entry.recency_hint:
                item += f"<br>Freshness: {html.escape(entry.recency_hint)}"
            out.append(item + "</li>")
        out.append("</ul>")
    out.append("</section>")
    return "\n".join(out)


_PAGE_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;"
    "line-height:1.5;color:#1f2328}.message{margin:1.5rem 0}"
    ".user{background:#eef2f8;border-radius:12px;padding:.25rem 1rem}"
    ".context-chip{background:#e5e7eb;border-radius:6px;padding:0 .35em;font-size:.9em}"
    ".source-token{color:#6b7280;font-size:.7em;margin-left:.15em}"
    ".source-number{color:#6b7280;margin-right:.25em}"
    ".sources{border-top:1px solid #d1d5db;margin-top:1rem;font-size:.9em;color:#374151}"
    "pre{background:#f3f4f6;padding:.75rem;overflow:auto}"
)


def export_html(messages: Iterable[Mapping[str, Any]], *, title: str = "Thread") -> str:
    """A thread as a standalone HTML page with the same stripping as ``export_markdown``."""
    parts = [
        "<!DOCTYPE html>",
        f'<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>',
        f"<style>{_PAGE_CSS}</style></head><body>",
    ]
    for message in map(_shared_message, messages):
        role = "assistant" if message.is_assistant else "user"
        parts.append(f'<article class="message {role}">')
        parts.append(_body_html(message.text, message.groups))
        if message.entries:
            parts.append(_sources_html(message.entries, message.numbers))
        parts.append("</article>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
