"""The searchable text of a document file: plain text, PDF (pypdf), Word .docx (python-docx) and
HTML (the standard library's HTML parser), written as Markdown-shaped prose.

Invariants: ``read_document`` never raises for bad content: it returns the text, or ``None`` with a
user-safe ``problem`` sentence saying why a document could not be read (encrypted, no text layer,
damaged), or ``None`` without a problem for a file that is not a document at all (an image, an
archive); an HTML page's ``<title>`` becomes its ``#`` title with the page's own headings one
level below it; headings of .docx and HTML become ``#`` headings, list items ``-`` items and tables
Markdown tables (first row the header, in document order), so the prose reader keeps their
structure and links every row to its column headers; script and style content of HTML
is never text.
"""

from __future__ import annotations

import io
import logging
import re
import zipfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import PurePath
from typing import TYPE_CHECKING

from composer_app.server.providers.passages import decode_text

if TYPE_CHECKING:
    from docx.table import Table

PDF_MAX_PAGES = 500
_HTML_NAMES = (".html", ".htm", ".xhtml")
_PLAIN_NAMES = (".txt", ".text")
_BLOCK_TEXT = """p div section article header footer main aside nav blockquote pre table tr ul ol
    dl dt dd figure figcaption caption form fieldset address br hr body html title"""
_BLOCK_TAGS = frozenset(_BLOCK_TEXT.split())
_SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "head"})
_TABLE_MARK = "\ue000table:"  # a private-use character: never text of a page


@dataclass(frozen=True, slots=True)
class DocumentText:
    """The text of a document, or why there is none (``problem`` is user-safe)."""

    text: str | None
    problem: str | None = None
    prose: bool = False  # read as prose even when its name looks like code (HTML)
    own_text: str | None = None  # a plain-text file's own lines, to show a person (same lines)

    @property
    def shown(self) -> str | None:
        """The text to show a person: a plain-text file as written, other documents as read."""
        return self.own_text if self.own_text is not None else self.text


def read_document(name: str, data: bytes) -> DocumentText:
    """The text of the file ``name`` with contents ``data`` (see the module invariant)."""
    suffix = PurePath(name).suffix.lower()
    if suffix == ".pdf":
        return _pdf(data)
    if suffix == ".docx":
        return _docx(data)
    if suffix in _HTML_NAMES:
        text = decode_text(data, name)
        if text is None:
            return DocumentText(None, "It is not a readable HTML file.")
        return DocumentText(html_text(text), prose=True)
    text = decode_text(data, name)
    if text is not None and suffix in _PLAIN_NAMES:
        return DocumentText(text_structure(text), own_text=text)
    return DocumentText(text)


def _pdf(data: bytes) -> DocumentText:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            return DocumentText(None, "It is a password-protected PDF, so its text could not "
                                      "be read.")
        pages = [page.extract_text() or "" for page in reader.pages[:PDF_MAX_PAGES]]
    except (PdfReadError, ValueError, TypeError, KeyError, OSError, NotImplementedError,
            AttributeError, IndexError, RecursionError) as exc:
        del exc
        return DocumentText(None, "It is a damaged or unsupported PDF, so its text could not "
                                  "be read.")
    text = "\n\n".join(_pdf_page(page) for page in pages if page.strip())
    if not text.strip():
        return DocumentText(None, "It is a PDF without a text layer (perhaps a scan), so there "
                                  "was no text to read.")
    return DocumentText(text)


def _pdf_page(page: str) -> str:
    """A PDF page's text with its blank-line paragraphs kept and its lines otherwise joined by
    the prose reader; see ``pdf_structure`` for the headings and tables it recovers."""
    return pdf_structure(re.sub(r"\n{3,}", "\n\n", page.replace("\r", "")).strip())


_COLUMN_GAP = re.compile(r"\s{2,}")
_SENTENCE_END = (".", "!", "?", ":", ";", ",")
HEADING_MAX_CHARS = 60
HEADING_MAX_WORDS = 8


def _columns(line: str) -> list[str]:
    return [cell for cell in _COLUMN_GAP.split(line.strip()) if cell]


def _heading_like(line: str, previous: str | None, following: str | None) -> bool:
    text = line.strip()
    if not text or len(text) > HEADING_MAX_CHARS or len(text.split()) > HEADING_MAX_WORDS:
        return False
    if text.endswith(_SENTENCE_END) or not (text[0].isupper() or text[0].isdigit()):
        return False
    start = following.strip()[:1] if following is not None else ""
    if not (start.isupper() or start.isdigit()):
        return False
    return previous is None or previous.rstrip().endswith((".", "!", "?", ":"))


_LEADER = re.compile(r"\s*(?:\.{3,}|…{2,}|_{3,})\s*(?=\S)")  # "Beard trim ...... 12 euros"
_MARKED = re.compile(r"^\s*(?:[-*+#>|]|\d+[.)]\s)")
_NUMBERED = re.compile(r"^\s*\d{1,2}[.)]\s+(?=\S)")
LIST_LINE_SHARE = 0.7  # of the widest line: shorter lines are not hard-wrapped prose
LIST_MIN_WIDTH = 50


def _caps_heading(line: str) -> bool:
    text = line.strip()
    named = re.sub(r"\s*\([^()]*\)$", "", text)  # "PRICES (every cut includes a wash)"
    letters = [c for c in named if c.isalpha()]
    return (len(letters) >= 2 and named.upper() == named and len(text) <= 2 * HEADING_MAX_CHARS
            and len(text.split()) <= HEADING_MAX_WORDS and not text.endswith((".", ",", ";")))


LEAD_HEADING_MAX_WORDS = 6


def _lead_heading(line: str, following: str | None, width: int) -> bool:
    """Whether ``line``, the first of a block, is a heading in small letters above the prose it
    names (*Walks and prices* over a hard-wrapped paragraph): short, opening with a capital,
    not ending like a sentence, with no comma, colon, ``@`` or column gap (an address, an
    e-mail, a table's header), and followed by a line of prose (at least
    ``LIST_LINE_SHARE`` of the file's widest line, in a file at least ``LIST_MIN_WIDTH`` wide)."""
    text = line.strip()
    if following is None or width < LIST_MIN_WIDTH or _MARKED.match(line) or \
            len(following.rstrip()) < LIST_LINE_SHARE * width:
        return False
    return bool(text) and text[0].isupper() and len(text.split()) <= LEAD_HEADING_MAX_WORDS \
        and len(text) <= HEADING_MAX_CHARS and not text.endswith(_SENTENCE_END) \
        and not re.search(r"[,:@]", text) and len(_columns(text)) == 1


def text_structure(text: str) -> str:
    """The structure a plain-text file shows by its layout, made explicit for the prose reader,
    line for line (the result has exactly the lines of ``text``, so cited line numbers stay
    those of the file):

    * a line in capitals (a short one, not ending like a sentence; a closing remark in
      parentheses may be in small letters) is a heading: ``#`` when it opens the file, ``##``
      after that (*OPENING HOURS*, *PRICES (every cut includes wash and blow-dry)*, a numbered
      *5. LOST PASSES*);
    * in a paragraph of two or more lines that are all shorter than ``LIST_LINE_SHARE`` of the
      file's widest line (a list, not hard-wrapped prose; files narrower than
      ``LIST_MIN_WIDTH`` are left alone), every line is a ``-`` item of its own;
    * a short line in small letters that opens a paragraph of prose (*Walks and prices* over
      hard-wrapped lines) is a heading too (``_lead_heading``);
    * a dot leader between a label and its value (*Beard trim ...... 12 euros*) reads as
      ``label: value``;
    * lines already marked as Markdown (``-``, ``#``, ``|``, ``1.``) are kept as they are.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    width = max((len(line.rstrip()) for line in lines), default=0)
    out = [_LEADER.sub(": ", line) if not _MARKED.match(line) else line for line in lines]
    seen_text = False
    index = 0
    while index < len(out):
        if not out[index].strip():
            index += 1
            continue
        end = index
        while end < len(out) and out[end].strip():
            end += 1
        block = range(index, end)
        for row in block:
            bare = _NUMBERED.sub("", out[row])  # "5. LOST PASSES"
            if (bare != out[row] or not _MARKED.match(out[row])) and _caps_heading(bare):
                out[row] = f"{'##' if seen_text else '#'} {out[row].strip()}"
                seen_text = True
        if _lead_heading(out[index], out[index + 1] if len(block) > 1 else None, width):
            out[index] = f"{'##' if seen_text else '#'} {out[index].strip()}"  # "Walks and prices"
        items = [row for row in block if not out[row].lstrip().startswith("#")]
        seen_text = True
        if (width >= LIST_MIN_WIDTH and len(items) >= 2
                and all(len(out[row].rstrip()) < LIST_LINE_SHARE * width for row in items)
                and not any(_MARKED.match(out[row]) for row in items)):
            for row in items:
                out[row] = f"- {out[row].strip()}"
        index = end
    return "\n".join(out)


def pdf_structure(text: str) -> str:
    """Structure that PDF text extraction leaves implicit, made explicit for the prose reader:

    * a run of two or more lines set as aligned columns (two or more cells separated by runs of
      two or more spaces, the same number of cells on every line) becomes a Markdown table, its
      first line the header (so every row is cited with its column headers);
    * a short line (at most ``HEADING_MAX_CHARS`` characters and ``HEADING_MAX_WORDS`` words)
      that does not end like a sentence, starts with a capital or a digit, follows the end of a
      sentence (or the start, or another heading) and is followed by a line that starts with a
      capital or a digit becomes
      a heading (``#`` for the first line of the text, ``##`` after it);
    * every other line stays as it was, so paragraphs are still joined by the prose reader.
    """
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    previous: str | None = None  # the last line of text (None at the start or after a heading)
    while index < len(lines):
        line = lines[index]
        width = len(_columns(line))
        if width >= 2:
            end = index
            while end < len(lines) and len(_columns(lines[end])) == width:
                end += 1
            if end - index >= 2:
                out += ["", markdown_table([_columns(row) for row in lines[index:end]]), ""]
                index, previous = end, None
                continue
        following = lines[index + 1] if index + 1 < len(lines) else None
        if _heading_like(line, previous, following):
            out += ["", f"{'#' if index == 0 else '##'} {line.strip()}", ""]
            previous = None
        else:
            out.append(line)
            previous = line if line.strip() else previous
        index += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


def _docx(data: bytes) -> DocumentText:
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        del exc
        return DocumentText(None, "It is a damaged or unsupported Word document, so its text "
                                  "could not be read.")
    blocks: list[str] = []
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            blocks.append(markdown_table(_docx_rows(item)))
            continue
        text = " ".join(item.text.split())
        if not text:
            continue
        style = (item.style.name if item.style is not None else "") or ""
        level = re.fullmatch(r"Heading ([1-6])", style)
        if level:
            blocks.append(f"{'#' * int(level.group(1))} {text}")
        elif style == "Title":
            blocks.append(f"# {text}")
        elif style.startswith("List"):
            blocks.append(f"- {text}")
        else:
            blocks.append(text)
    return DocumentText("\n\n".join(block for block in blocks if block))


def _docx_rows(table: Table) -> list[list[str]]:
    """The cell texts of a Word table, a merged cell once per row."""
    rows = []
    for row in table.rows:
        cells: list[str] = []
        seen: list[object] = []
        for cell in row.cells:
            if any(cell._tc is other for other in seen):
                continue
            seen.append(cell._tc)
            cells.append(" ".join(cell.text.split()))
        rows.append(cells)
    return rows


def markdown_table(rows: list[list[str]]) -> str:
    """``rows`` as one GFM table (the first row is the header; ``|`` in a cell escaped; short
    rows padded), so the prose reader links every row to its column headers; ``""`` when no
    row has text."""
    rows = [row for row in rows if any(row)]
    if not rows:
        return ""
    width = max(len(row) for row in rows)

    def line(cells: list[str]) -> str:
        padded = [c.replace("|", "\\|") for c in cells]
        padded += [""] * (width - len(cells))
        return "| " + " | ".join(padded) + " |"

    return "\n".join([line(rows[0]), "|" + " --- |" * width, *(line(row) for row in rows[1:])])


class _HtmlText(HTMLParser):
    """Collects blocks separated by ``\n\n``; a table becomes a placeholder line naming its
    entry in ``tables`` (rows of cell texts), so its rows stay together; a table inside a cell
    adds its text to that cell."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0
        self.tables: list[list[list[str]]] = []
        self.open_tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None
        self.nested = 0  # tables open inside the current cell
        self.title: list[str] = []
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        del attrs
        if tag == "title" and not self.title and not "".join(self.parts).strip():
            self.in_title = True
        elif tag in _SKIPPED_TAGS:
            self.skipping += 1
        elif tag == "table":
            if self.cell is None:
                self.open_tables.append([])
            else:
                self.nested += 1
        elif self.open_tables and self.cell is None and tag == "tr":
            self.open_tables[-1].append([])
        elif self.open_tables and tag in ("td", "th"):
            if self.cell is None:
                if not self.open_tables[-1]:
                    self.open_tables[-1].append([])
                self.cell = []
            else:
                self.cell.append(" ")
        elif self.cell is not None:
            self.cell.append(" ")
        elif re.fullmatch(r"h[1-6]", tag):
            level = min(6, int(tag[1]) + (1 if self.page_title() else 0))
            self.parts.append(f"\n\n{'#' * level} ")
        elif tag == "li":
            self.parts.append("\n\n- ")
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n\n")

    def page_title(self) -> str:
        """The page's ``<title>`` (``""`` when it has none before its content)."""
        return " ".join("".join(self.title).split())

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self.in_title:
            self.in_title = False
        elif tag in _SKIPPED_TAGS:
            self.skipping = max(0, self.skipping - 1)
        elif tag == "table" and self.nested:
            self.nested -= 1
        elif self.open_tables and tag in ("td", "th") and self.cell is not None \
                and not self.nested:
            self.open_tables[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "table" and self.open_tables and self.cell is None:
            self.tables.append(self.open_tables.pop())
            self.parts.append(f"\n\n{_TABLE_MARK}{len(self.tables) - 1}\n\n")
        elif self.cell is not None:
            self.cell.append(" ")
        elif re.fullmatch(r"h[1-6]", tag) or tag in _BLOCK_TAGS or tag == "li":
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title.append(data)
            return
        if self.skipping:
            return
        if self.cell is not None:
            self.cell.append(data)
        else:  # a caption, or text outside any cell, stays in the page's order
            self.parts.append(data.replace("\n", " ").replace(_TABLE_MARK, " "))


def html_text(html: str) -> str:
    """The visible text of an HTML page as Markdown-shaped prose (see the module invariant)."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    if parser.cell is not None and parser.open_tables:  # a cell never closed still counts
        parser.open_tables[-1][-1].append(" ".join("".join(parser.cell).split()))
        parser.cell = None
    while parser.open_tables:  # a table never closed still counts
        parser.tables.append(parser.open_tables.pop())
        parser.parts.append(f"\n\n{_TABLE_MARK}{len(parser.tables) - 1}\n\n")
    title = parser.page_title()
    blocks = [f"# {title}"] if title else []
    for block in "".join(parser.parts).split("\n\n"):
        line = " ".join(block.split())
        if line.startswith(_TABLE_MARK) and line[len(_TABLE_MARK):].isdigit():
            line = markdown_table(parser.tables[int(line[len(_TABLE_MARK):])])
        if line and line not in ("-", "|"):
            blocks.append(line)
    return "\n\n".join(blocks)
