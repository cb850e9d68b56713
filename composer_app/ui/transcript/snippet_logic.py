"""A source snippet as the Sources panel and citation cards show it, Qt-free.

A snippet arrives as the provider wrote it, often a passage of a Markdown file that starts with the
lines of its enclosing headings (``# Employee handbook\\n## Probation\\nNew employees …``).
``display_snippet`` turns it into what a reader expects to see:

Invariants: the headings that open the snippet (before any other block) become the ``path``, their
texts joined by `` › `` in order (``Employee handbook › Probation``), or ``None`` when it does not
open with a heading; ``text`` is every other block's text with Markdown markup removed (emphasis,
code spans, links and images keep only their visible text; list markers, quote markers and table
pipes go; a table's cells are joined by `` · `` and its rows by ``; ``; a later heading keeps its
words) and all whitespace collapsed to single spaces; no word of the snippet's visible text is
dropped; a snippet with nothing but headings keeps the last heading as its text, so a non-empty
snippet never displays as empty; parsing never raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt

PATH_SEPARATOR = " › "
_PARSER = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True, slots=True)
class SnippetText:
    """A snippet's heading breadcrumb (or ``None``) and its clean one-paragraph text."""

    path: str | None
    text: str


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _inline_text(token: Any) -> str:
    """The visible text of an ``inline`` token: text, code spans and image alt texts."""
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(_inline_text(child))
    return "".join(parts)


def display_snippet(snippet: str) -> SnippetText:
    """``snippet`` split into its heading path and its markup-free, whitespace-collapsed text."""
    path: list[str] = []
    body: list[str] = []
    in_heading = False
    in_cell = False
    row: list[str] = []
    rows: list[str] = []
    for token in _PARSER.parse(snippet):
        if token.type == "heading_open":
            in_heading = True
        elif token.type == "heading_close":
            in_heading = False
        elif token.type in ("th_open", "td_open"):
            in_cell = True
        elif token.type in ("th_close", "td_close"):
            in_cell = False
        elif token.type == "tr_close":
            cells = [cell for cell in row if cell]
            if cells:
                rows.append(" · ".join(cells))
            row = []
        elif token.type == "table_close":
            if rows:
                body.append("; ".join(rows))
            rows = []
        elif token.type == "inline":
            words = _collapse(_inline_text(token))
            if in_cell:
                row.append(words)
            elif in_heading and not body:
                if words:
                    path.append(words)
            elif words:
                body.append(words)
        elif token.type in ("code_block", "fence", "html_block"):
            words = _collapse(token.content)
            if words:
                body.append(words)
    if not body and path:
        body.append(path.pop())
    text = _collapse(" ".join(body)) or _collapse(snippet)
    return SnippetText(PATH_SEPARATOR.join(path) or None, text)
