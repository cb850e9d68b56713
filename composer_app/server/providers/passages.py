"""Text documents cut into passages for retrieval, and the test that keeps binary files out.

Invariants: ``decode_text`` returns ``None`` for anything that looks binary (a NUL byte in the first
8 KiB, a known binary extension, or more than 1 % undecodable bytes), so binary files are never
indexed; ``split_passages`` covers every non-blank line of a document exactly once, in order, with
1-based inclusive line numbers, each passage at most ``PASSAGE_MAX_LINES`` lines and (except for a
single over-long line) about ``PASSAGE_MAX_CHARS`` characters.

``prose_passages`` reads prose (Markdown or plain text) by its Markdown structure (markdown-it-py):
each block (heading, paragraph, list item, table row, code line) becomes exactly one line of the
passage text (a table row with its column headers: ``Plan: Pro; Price: 49 €``) with a
hard-wrapped paragraph's lines joined by single spaces, so a sentence is never cut at a line break
of the file and no word of the file is lost; a passage is one section (a
heading and the blocks up to the next heading), cut further only at block boundaries when it grows
past ``PASSAGE_MAX_CHARS``; every passage starts with the lines of its enclosing headings (the
document's title, the section's parents), which may lie before its first line; line numbers are the
file's own (1-based, inclusive) and span the passage's own blocks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from markdown_it import MarkdownIt

PASSAGE_MAX_CHARS = 1_200
PASSAGE_MAX_LINES = 40
SNIFF_BYTES = 8_192

_BINARY_TEXT = (
    ".png .jpg .jpeg .gif .bmp .ico .webp .tif .tiff .pdf .zip .gz .tgz .bz2 .xz .7z .rar .jar "
    ".exe .dll .so .dylib .o .a .class .pyc .pyo .whl .mp3 .mp4 .mov .avi .wav .flac .ogg "
    ".woff .woff2 .ttf .otf .eot .sqlite .sqlite3 .db .bin .dat .iso .dmg .psd .heic"
)
BINARY_EXTENSIONS = frozenset(_BINARY_TEXT.split()) | {".docx"}
_CODE_TEXT = (
    ".py .pyi .js .mjs .cjs .ts .tsx .jsx .c .h .cc .cpp .hpp .cs .java .kt .go .rs .rb .php "
    ".swift .scala .sh .bash .zsh .ps1 .sql .css .scss .xml .json .yaml .yml .toml .ini "
    ".cfg .lua .pl .r .m .dart .vue .svelte"
)
CODE_EXTENSIONS = frozenset(_CODE_TEXT.split())
_MIME_BY_EXTENSION = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".rst": "text/x-rst",
    ".py": "text/x-python",
    ".json": "application/json",
    ".html": "text/html",
    ".csv": "text/csv",
}
_MARKDOWN_HEADING = re.compile(r"#{1,6}\s")
_PARSER = MarkdownIt("commonmark").enable("table").disable(["inline", "text_join"])
_FENCE = re.compile(r"^ {0,3}(?:```|~~~)", re.MULTILINE)
_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|$)")
_BLOCK_START = re.compile(r"^(?: {4}|\t| {0,3}(?:[#>|<*+=_~`-]|\d{1,9}[.)](?:\s|$)))")


@dataclass(frozen=True, slots=True)
class Passage:
    """A run of lines of one document (``line_start``..``line_end``, 1-based, inclusive)."""

    line_start: int
    line_end: int
    text: str


def is_code_name(name: str) -> bool:
    """True for source-code file names (shown as fenced code, cut by lines)."""
    return PurePath(name).suffix.lower() in CODE_EXTENSIONS


def mime_type_for(name: str) -> str:
    """A display MIME type for a text document named ``name``."""
    suffix = PurePath(name).suffix.lower()
    if suffix in _MIME_BY_EXTENSION:
        return _MIME_BY_EXTENSION[suffix]
    return "text/x-source" if suffix in CODE_EXTENSIONS else "text/plain"


def decode_text(data: bytes, name: str = "") -> str | None:
    """The text of a document, or ``None`` when it is binary (see the module invariant)."""
    if PurePath(name).suffix.lower() in BINARY_EXTENSIONS:
        return None
    if b"\x00" in data[:SNIFF_BYTES]:
        return None
    text = data.decode("utf-8", errors="replace")
    if text.count("\ufffd") * 100 > max(len(text), 1):
        return None
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _breaks_before(line: str, markdown: bool) -> bool:
    return markdown and _MARKDOWN_HEADING.match(line) is not None


def split_passages(text: str, *, markdown: bool = False) -> list[Passage]:
    """Cut ``text`` at blank lines (and, for Markdown, before headings) into bounded passages."""
    passages: list[Passage] = []
    lines = text.split("\n")
    current: list[str] = []
    start = 0
    size = 0

    def flush(end: int) -> None:
        nonlocal current, size
        while current and not current[-1].strip():
            current.pop()
        if current:
            passages.append(Passage(start + 1, start + len(current), "\n".join(current)))
        current, size = [], 0

    for number, line in enumerate(lines):
        blank = not line.strip()
        if not current:
            if blank:
                continue
            start = number
        elif (
            (blank and size >= PASSAGE_MAX_CHARS // 2)
            or size + len(line) > PASSAGE_MAX_CHARS
            or len(current) >= PASSAGE_MAX_LINES
            or _breaks_before(line, markdown)
        ):
            flush(number)
            if blank:
                continue
            start = number
        current.append(line)
        size += len(line) + 1
    flush(len(lines))
    return passages


@dataclass(frozen=True, slots=True)
class _Block:
    line_start: int
    line_end: int
    text: str
    heading: bool


def _blocks(text: str) -> list[_Block]:
    """The document's blocks in order, each as one line of text (see the module invariant).

    Without fences a document's blank-line-separated chunks cannot affect each other's structure
    much, so a chunk none of whose lines can start a block other than a paragraph is read as one
    paragraph directly and only the other chunks go through markdown-it (this keeps indexing
    large plain documents fast); with a fence anywhere the whole document goes through it."""
    lines = text.split("\n")
    if _FENCE.search(text) is not None:
        return _parsed(lines, 0, len(lines))
    blocks: list[_Block] = []
    number = 0
    pending: int | None = None  # first line of a run of chunks for markdown-it
    while number < len(lines):
        if not lines[number].strip():
            number += 1
            continue
        end = number
        while end < len(lines) and lines[end].strip():
            end += 1
        marked = [n for n in range(number, end) if _BLOCK_START.match(lines[n])]
        if any(not _ATX_HEADING.match(lines[n]) for n in marked):
            pending = number if pending is None else pending
        else:
            if pending is not None:
                blocks.extend(_parsed(lines, pending, number))
                pending = None
            blocks.extend(_plain(lines, number, end, marked))
        number = end
    if pending is not None:
        blocks.extend(_parsed(lines, pending, len(lines)))
    return blocks


def _plain(lines: list[str], start: int, stop: int, headings: list[int]) -> list[_Block]:
    """Paragraphs of ``lines[start:stop]`` interrupted by the ATX headings at ``headings``
    (CommonMark: an ATX heading is one line and may interrupt a paragraph)."""
    blocks: list[_Block] = []
    first = start
    for at in [*headings, stop]:
        if at > first:
            blocks.append(_Block(first + 1, at, _join(" ".join(lines[first:at])), False))
        if at < stop:
            match = _ATX_HEADING.match(lines[at])
            assert match is not None
            content = re.sub(r"(?:\s+#+)?\s*$", "", lines[at][match.end():])
            blocks.append(_Block(at + 1, at + 1, f"{match.group(1)} {_join(content)}", True))
        first = at + 1
    return blocks


def _parsed(lines: list[str], start: int, stop: int) -> list[_Block]:
    """The blocks of ``lines[start:stop]`` read by markdown-it (line numbers of the file)."""
    tokens = _PARSER.parse("\n".join(lines[start:stop]))
    blocks: list[_Block] = []
    depth = 0  # inside a table
    for number, token in enumerate(tokens):
        if token.type == "table_open":
            depth += 1
            blocks.extend(_table_rows(tokens, number, start))
        elif token.type == "table_close":
            depth -= 1
        if token.map is None:
            continue
        first, end = token.map[0] + start, token.map[1] + start
        if token.type == "heading_open":
            level = int(token.tag[1:])
            inline = tokens[number + 1].content
            blocks.append(_Block(first + 1, end, f"{'#' * level} {_inline_text(inline)}", True))
        elif token.type == "paragraph_open" and depth == 0:
            blocks.append(_Block(first + 1, end, _inline_text(tokens[number + 1].content), False))
        elif token.type in ("fence", "code_block", "html_block"):
            for offset, line in enumerate(token.content.split("\n")):
                if line.strip():
                    at = first + 1 + offset + (1 if token.type == "fence" else 0)
                    blocks.append(_Block(at, at, line.rstrip(), False))
    return blocks


def _table_rows(tokens: list[Any], opening: int, start: int) -> list[_Block]:
    """The rows of the table opened at ``tokens[opening]``, each linked to its column headers
    (see ``linked_row``); a table without body rows keeps its header row as written."""
    rows: list[tuple[int, bool, list[str]]] = []  # file line (0-based), header?, cells
    in_head = False
    for token in tokens[opening + 1:]:
        if token.type == "table_close":
            break
        if token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open" and token.map is not None:
            rows.append((token.map[0] + start, in_head, []))
        elif token.type == "inline" and rows:
            rows[-1][2].append(_inline_text(token.content.replace("\\|", "|")))
    header = next((cells for _, head, cells in rows if head), [])
    body = [(line, cells) for line, head, cells in rows if not head and any(cells)]
    if not body:
        return [_Block(line + 1, line + 1, linked_row([], cells), False)
                for line, _, cells in rows if any(cells)]
    return [_Block(line + 1, line + 1, linked_row(header, cells), False) for line, cells in body]


def linked_row(header: Sequence[str], cells: Sequence[str]) -> str:
    """One table row as a line that carries its column headers: ``Plan: Pro; Price: 49 €``
    (a cell under an empty header, or a row of a table without headers, stands alone; empty
    cells are left out), so a cited row still says what each value is."""
    parts = []
    for index, cell in enumerate(cells):
        if not cell:
            continue
        name = header[index] if index < len(header) else ""
        parts.append(f"{name}: {cell}" if name and name != cell else cell)
    return "; ".join(parts)


def _join(inline: str) -> str:
    return " ".join(inline.split())


# Markdown's inline emphasis and code spans: their words are the text, their markers are not
# (``**Standard delivery** (2 to 4 days)`` reads *Standard delivery (2 to 4 days)*).
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*\\])([*_])(?=[^\s*_])([^*_\n]+?)(?<=[^\s*_])\1(?![\w*])")
_CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")


# A label in bold that leads its block (*\*\*Interest rate.\*\* For balances …*): read as
# *Interest rate: For balances …*, one sentence, as the label belongs to what follows.
_LEAD_LABEL = re.compile(r"^(\*\*|__)(?P<label>[^*_]+?)(?:[.:]\1|\1[.:])\s+(?=\S)")


def _inline_text(inline: str) -> str:
    """A Markdown inline's text: joined like ``_join``, without emphasis or code-span markers
    (a bold label that leads it and ends with a full stop or a colon ends with a colon)."""
    text = _LEAD_LABEL.sub(r"\g<label>: ", _join(inline))
    text = _CODE_SPAN.sub(r"\1", text)
    return _EMPHASIS.sub(r"\2", _STRONG.sub(r"\2", text))


def prose_passages(text: str) -> list[Passage]:
    """Cut prose into section passages of joined blocks (see the module invariant)."""
    passages: list[Passage] = []
    current: list[_Block] = []
    trail: list[_Block] = []  # the enclosing headings, outermost first

    def flush() -> None:
        nonlocal current
        own = [b for b in current if b not in trail or b is current[0]]
        if current:
            context = [h for h in trail if h.line_start < current[0].line_start]
            passages.append(Passage(current[0].line_start, current[-1].line_end,
                                    "\n".join(b.text for b in context + own)))
        current = []

    for block in _blocks(text):
        if block.heading:
            if current and not all(b.heading for b in current):
                flush()
            level = len(block.text) - len(block.text.lstrip("#"))
            trail = [h for h in trail if len(h.text) - len(h.text.lstrip("#")) < level]
            trail.append(block)
            current.append(block)
            continue
        size = sum(len(b.text) + 1 for b in current)
        if current and size + len(block.text) > PASSAGE_MAX_CHARS and \
                not all(b.heading for b in current):
            flush()
        current.append(block)
    flush()
    return passages


def passages_for(name: str, text: str, *, prose: bool = False) -> list[Passage]:
    """The passages of a document named ``name``: code by lines, everything else (and anything
    when ``prose``) as prose."""
    if is_code_name(name) and not prose:
        return split_passages(text)
    return prose_passages(text)
