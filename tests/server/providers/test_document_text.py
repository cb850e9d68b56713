"""Document text of HTML and Word files, and reasons for files that cannot be read."""

from __future__ import annotations

import io

import docx
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.document_text import (
    html_text,
    pdf_structure,
    read_document,
    text_structure,
)


def test_html_keeps_headings_paragraphs_and_items_and_drops_scripts():
    page = ("<html><head><style>p{}</style></head><body><h2>Lunch</h2>"
            "<p>Served from\n11:30.</p><ul><li>Soup</li></ul><script>x()</script></body></html>")
    assert html_text(page) == "## Lunch\n\nServed from 11:30.\n\n- Soup"
    assert read_document("menu.html", page.encode()).prose


def test_an_html_title_is_the_documents_title_and_its_headings_nest_under_it():
    page = ("<html><head><title>Canteen &amp; caf\u00e9</title><script>t()</script></head>"
            "<body><h1>Menu</h1><h2>Lunch</h2><p>Soup.</p></body></html>")
    assert html_text(page) == "# Canteen & caf\u00e9\n\n## Menu\n\n### Lunch\n\nSoup."


def test_html_tables_become_one_table_with_a_header_row():
    page = ("<p>Fees:</p><table><caption>Card fees</caption><thead><tr><th>Service</th>"
            "<th>Fee</th></tr></thead><tbody><tr><td>Card <b>replacement</b></td><td>15</td>"
            "</tr><tr><td>Wire | transfer<table><tr><td>inner</td></tr></table></td>"
            "<td>2.50</td></tr></tbody></table><p>After.</p>")
    assert html_text(page) == (
        "Fees:\n\nCard fees\n\n| Service | Fee |\n| --- | --- |\n| Card replacement | 15 |\n"
        "| Wire \\| transfer inner | 2.50 |\n\nAfter.")
    assert html_text("<table><tr><td>a</td><td>b</td></tr><tr><td>c") == (
        "| a | b |\n| --- | --- |\n| c |  |")  # never closed: still a table


def test_word_tables_stay_where_they_are_in_the_document():
    document = docx.Document()
    document.add_paragraph("Before.")
    table = document.add_table(rows=2, cols=3)
    for c, (head, value) in enumerate([("Plan", "Pro"), ("Price", "49"), ("Seats", "10")]):
        table.cell(0, c).text, table.cell(1, c).text = head, value
    table.cell(1, 1).merge(table.cell(1, 2))
    document.add_paragraph("After.")
    data = io.BytesIO()
    document.save(data)
    assert read_document("plans.docx", data.getvalue()).text == (
        "Before.\n\n| Plan | Price | Seats |\n| --- | --- | --- |\n| Pro | 49 10 |  |\n\nAfter.")


def test_pdf_text_gets_its_headings_and_aligned_tables_back():
    text = ("Rental terms\nVersion 2\n1. Prices\nAll prices include VAT.\n"
            "Bike type      Per hour     Per day\nCity bike      3 euros      15 euros\n"
            "E-bike         6 euros      35 euros\nA day ends at closing time.\n"
            "Damage\nThe renter pays for damage caused during the rental, up to a\n"
            "maximum of 500 euros.")
    assert pdf_structure(text) == (
        "# Rental terms\n\n## Version 2\n\n## 1. Prices\n\nAll prices include VAT.\n\n"
        "| Bike type | Per hour | Per day |\n| --- | --- | --- |\n| City bike | 3 euros | "
        "15 euros |\n| E-bike | 6 euros | 35 euros |\n\nA day ends at closing time.\n\n"
        "## Damage\n\nThe renter pays for damage caused during the rental, up to a\n"
        "maximum of 500 euros.")
    wrapped = "The renter pays for damage caused during\nthe rental\nAnd more words."
    assert pdf_structure(wrapped) == wrapped  # a short line inside a sentence is no heading


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


SALON = """SALON KAMM & SCHERE
Price list and salon rules, valid from 1 March 2026

PRICES (every cut includes wash and blow-dry)

Women's cut, short hair ........ 42 euros
Beard trim ..................... 12 euros
Children aged 10 to 14 ......... 22 euros

5. LATE ARRIVAL

If you arrive more than 15 minutes late, we may have to shorten your treatment or give you a
new appointment. Appointments cancelled less than 24 hours in advance are charged at 50 percent.
"""


def test_plain_text_gets_its_capital_headings_and_price_lists_line_for_line():
    text = read_document("salon.txt", SALON.encode()).text
    assert text is not None
    lines = text.split("\n")
    assert len(lines) == len(SALON.split("\n"))  # cited line numbers stay the file's
    assert lines[0] == "# SALON KAMM & SCHERE"
    assert lines[3] == "## PRICES (every cut includes wash and blow-dry)"
    assert lines[5:8] == ["- Women's cut, short hair: 42 euros", "- Beard trim: 12 euros",
                          "- Children aged 10 to 14: 22 euros"]
    assert lines[9] == "## 5. LATE ARRIVAL"
    assert lines[11].startswith("If you arrive") and lines[12].startswith("new appointment")


WALKS = """HILLSIDE DOG WALKS

Walks and prices
A group walk lasts one hour and costs £15 per dog. Groups are never
larger than five dogs. A solo walk of one hour costs £21.

Hillside Walks, 4 Mill Lane, Batford
Call us on 01582 000 111 or write to us at any time of the day or week.

Price list   Group   Solo
One hour     £15     £21 and a long line that runs on and on for the width
"""


def test_a_short_line_over_a_paragraph_of_prose_is_its_heading():
    text = read_document("walks.txt", WALKS.encode()).text
    assert text is not None
    lines = text.split("\n")
    assert lines[2] == "## Walks and prices"
    assert lines[3].startswith("A group walk")
    assert lines[6] == "Hillside Walks, 4 Mill Lane, Batford"  # an address
    assert not lines[9].startswith("#")  # a table's header


def test_markdown_and_code_files_are_not_restructured():
    assert read_document("notes.md", SALON.encode()).text == SALON
    assert read_document("main.py", b"X = 1\nY = 2\n").text == "X = 1\nY = 2\n"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"),
               max_size=400))
def test_plain_text_structure_keeps_every_line(text: str) -> None:
    structured = text_structure(text)
    assert len(structured.split("\n")) == len(text.split("\n"))
    for before, after in zip(text.split("\n"), structured.split("\n"), strict=True):
        assert not before.strip() or after.strip()  # no line loses its text
