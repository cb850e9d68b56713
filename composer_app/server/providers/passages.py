"""Text documents cut into passages for retrieval, and the test that keeps binary files out.

Invariants: ``decode_text`` returns ``None`` for anything that looks binary (a NUL byte in the first
8 KiB, a known binary extension, or more than 1 % undecodable bytes), so binary files are never
indexed; ``split_passages`` covers every non-blank line of a document exactly once, in order, with
1-based inclusive line numbers, each passage at most ``PASSAGE_MAX_LINES`` lines and (except for a
single over-long line) about ``PASSAGE_MAX_CHARS`` characters.

``prose_passages`` reads prose (Markdown or plain text) by its Markdown structure (markdown-it-py):
each block (heading, paragraph, list item, table row, code line) becomes exactly one line of the
passage text with a hard-wrapped paragraph's lines joined by single spaces, so a sentence is never
cut at a line break of the file and no word of the file is lost; a passage is one section (a
heading and the blocks up to the next heading), cut further only at block boundaries when it grows
past ``PASSAGE_MAX_CHARS``, and a cut section's next passage repeats its heading line; line
numbers are the file's own (1-based, inclusive).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from markdown_it import MarkdownIt

PASSAGE_MAX_CHARS = 1_200
PASSAGE_MAX_LINES = 40
SNIFF_BYTES = 8_192

_BINARY_TEXT = (
    ".png .jpg .jpeg .gif .bmp .ico .webp .tif .tiff .pdf .zip .gz .tgz .bz2 .xz .7z .rar .jar "
    ".exe .dll .so .dylib .o .a .class .pyc .pyo .whl .mp3 .mp4 .mov .avi .wav .flac .ogg "
    ".woff .woff2 .ttf .otf .eot .sqlite .sqlite3 .db .bin .dat .iso .dmg .psd .heic"
)
BINARY_EXTENSIONS = frozenset(_BINARY_TEXT.split())
_CODE_TEXT = (
    ".py .pyi .js .mjs .cjs .ts .tsx .jsx .c .h .cc .cpp .hpp .cs .java .kt .go .rs .rb .php "
    ".swift .scala .sh .bash .zsh .ps1 .sql .css .scss .html .xml .json .yaml .yml .toml .ini "
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
_PARSER = MarkdownIt("commonmark").enable("table")
_SPACES = re.compile(r"[ \t]+")


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
    """The document's blocks in order, each as one line of text (see the module invariant)."""
    lines = text.split("\n")
    tokens = _PARSER.parse(text)
    blocks: list[_Block] = []
    depth = 0  # inside a table or a list item's paragraph
    for number, token in enumerate(tokens):
        if token.type in ("table_open",):
            depth += 1
        elif token.type in ("table_close",):
            depth -= 1
        if token.map is None:
            continue
        first, end = token.map
        if token.type == "heading_open":
            inline = tokens[number + 1].content
            blocks.append(_Block(first + 1, end, f"{token.markup} {_join(inline)}", True))
        elif token.type == "paragraph_open" and depth == 0:
            blocks.append(_Block(first + 1, end, _join(tokens[number + 1].content), False))
        elif token.type == "tr_open":
            row = lines[first].strip()
            if row and not re.fullmatch(r"[|:\-\s]+", row):
                blocks.append(_Block(first + 1, first + 1, row, False))
        elif token.type in ("fence", "code_block", "html_block"):
            for offset, line in enumerate(token.content.split("\n")):
                if line.strip():
                    at = first + 1 + offset + (1 if token.type == "fence" else 0)
                    blocks.append(_Block(at, at, line.rstrip(), False))
    return blocks


def _join(inline: str) -> str:
    return _SPACES.sub(" ", " ".join(part.strip() for part in inline.split("\n"))).strip()


def prose_passages(text: str) -> list[Passage]:
    """Cut prose into section passages of joined blocks (see the module invariant)."""
    passages: list[Passage] = []
    current: list[_Block] = []
    heading: _Block | None = None

    def flush() -> None:
        nonlocal current
        if current and not all(b.heading for b in current):
            passages.append(Passage(current[0].line_start, current[-1].line_end,
                                    "\n".join(b.text for b in current)))
        elif current:  # a heading alone: keep it findable
            passages.append(Passage(current[0].line_start, current[-1].line_end,
                                    "\n".join(b.text for b in current)))
        current = []

    for block in _blocks(text):
        if block.heading:
            if current and not (len(current) == 1 and current[0].heading):
                flush()
            elif current:  # consecutive headings stay together
                pass
            heading = block
            current.append(block)
            continue
        size = sum(len(b.text) + 1 for b in current)
        if current and size + len(block.text) > PASSAGE_MAX_CHARS and \
                not all(b.heading for b in current):
            flush()
            if heading is not None:
                current.append(heading)
        current.append(block)
    flush()
    return passages


def passages_for(name: str, text: str) -> list[Passage]:
    """The passages of a document named ``name``: code by lines, everything else as prose."""
    if is_code_name(name):
        return split_passages(text)
    return prose_passages(text)
