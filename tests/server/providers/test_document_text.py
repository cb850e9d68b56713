"""Document text of HTML and Word files, and reasons for files that cannot be read."""

from __future__ import annotations

import io

import docx

from composer_app.server.providers.document_text import html_text, read_document


def test_html_keeps_headings_paragraphs_and_items_and_drops_scripts():
    page = ("<html><head><title>T</title><style>p{}</style></head><body><h2>Lunch</h2>"
            "<p>Served from\n11:30.</p><ul><li>Soup</li></ul><script>x()</script></body></html>")
    assert html_text(page) == "## Lunch\n\nServed from 11:30.\n\n- Soup"
    assert read_document("menu.html", page.encode()).prose


def test_word_documents_keep_their_headings():
    document = docx.Document()
    document.add_heading("Leave", 2)
    document.add_paragraph("Parental leave lasts sixteen weeks.")
    data = io.BytesIO()
    document.save(data)
    assert read_document("leave.docx", data.getvalue()).text == (
        "## Leave\n\nParental leave lasts sixteen weeks.")


def test_unreadable_documents_say_why_and_other_binaries_are_not_documents():
    assert "Word" in (read_document("a.docx", b"not a zip").problem or "")
    assert "PDF" in (read_document("a.pdf", b"%PDF-1.4 broken").problem or "")
    image = read_document("a.png", b"\x89PNG\r\n\x1a\n\x00")
    assert image.text is None and image.problem is None
    assert read_document("a.txt", b"plain words").text == "plain words"
