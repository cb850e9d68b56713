"""The searchable text of a document file: plain text, PDF (pypdf), Word .docx (python-docx) and
HTML (the standard library's HTML parser), written as Markdown-shaped prose.

Invariants: ``read_document`` never raises for bad content: it returns the text, or ``None`` with a
user-safe ``problem`` sentence saying why a document could not be read (encrypted, no text layer,
damaged), or ``None`` without a problem for a file that is not a document at all (an image, an
archive); headings of .docx and HTML become ``#`` headings, list items ``-`` items and table rows
``|``-separated lines, so the prose reader keeps their structure; script and style content of HTML
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

from composer_app.server.providers.passages import decode_text

PDF_MAX_PAGES = 500
_HTML_NAMES = (".html", ".htm", ".xhtml")
_BLOCK_TEXT = """p div section article header footer main aside nav blockquote pre table tr ul ol
    dl dt dd figure figcaption form fieldset address br hr body html title"""
_BLOCK_TAGS = frozenset(_BLOCK_TEXT.split())
_SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "head"})


@dataclass(frozen=True, slots=True)
class DocumentText:
    """The text of a document, or why there is none (``problem`` is user-safe)."""

    text: str | None
    problem: str | None = None
    prose: bool = False  # read as prose even when its name looks like code (HTML)


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
    return DocumentText(decode_text(data, name))


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
    the prose reader (a PDF has no other structure to keep)."""
    return re.sub(r"\n{3,}", "\n\n", page.replace("\r", "")).strip()


def _docx(data: bytes) -> DocumentText:
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        del exc
        return DocumentText(None, "It is a damaged or unsupported Word document, so its text "
                                  "could not be read.")
    blocks: list[str] = []
    for paragraph in document.paragraphs:
        text = " ".join(paragraph.text.split())
        if not text:
            continue
        style = (paragraph.style.name if paragraph.style is not None else "") or ""
        level = re.fullmatch(r"Heading ([1-6])", style)
        if level:
            blocks.append(f"{'#' * int(level.group(1))} {text}")
        elif style == "Title":
            blocks.append(f"# {text}")
        elif style.startswith("List"):
            blocks.append(f"- {text}")
        else:
            blocks.append(text)
    for table in document.tables:
        for row in table.rows:
            cells = [" ".join(cell.text.split()) for cell in row.cells]
            if any(cells):
                blocks.append("| " + " | ".join(cells) + " |")
    return DocumentText("\n\n".join(blocks))


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        del attrs
        if tag in _SKIPPED_TAGS:
            self.skipping += 1
        elif re.fullmatch(r"h[1-6]", tag):
            self.parts.append(f"\n\n{'#' * int(tag[1])} ")
        elif tag == "li":
            self.parts.append("\n\n- ")
        elif tag in ("td", "th"):
            self.parts.append(" | ")
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self.skipping = max(0, self.skipping - 1)
        elif re.fullmatch(r"h[1-6]", tag) or tag in _BLOCK_TAGS or tag == "li":
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data.replace("\n", " "))


def html_text(html: str) -> str:
    """The visible text of an HTML page as Markdown-shaped prose (see the module invariant)."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    blocks = []
    for block in "".join(parser.parts).split("\n\n"):
        line = " ".join(block.split())
        if line and line not in ("-", "|"):
            blocks.append(line)
    return "\n\n".join(blocks)
