"""Builds the Word and PDF documents of the held-out answer set from the text below.

The files are committed (``heldout/knowledge``); run this again only to change them:

    .venv/bin/python benchmarks/answers/build_documents.py

The PDF writer is deliberately plain (Helvetica text lines, several pages, a table set as aligned
text), as many generated PDFs are: its text is what ``pypdf`` extracts from such files.
"""

from __future__ import annotations

import textwrap
import zlib
from datetime import UTC, datetime
from pathlib import Path

import docx

HERE = Path(__file__).resolve().parent / "heldout" / "knowledge"

GREENHOUSE = [
    ("Title", "Greenhouse climate controller GC-400: operator manual"),
    ("Heading 1", "Temperature settings"),
    ("Normal", "The controller keeps a separate day and night temperature for each crop. Day "
               "begins at sunrise as measured by the outdoor light sensor, not at a fixed time."),
    ("table", [["Crop", "Day temperature", "Night temperature", "Max humidity"],
               ["Tomatoes", "22 °C", "17 °C", "85 %"],
               ["Cucumbers", "25 °C", "20 °C", "90 %"],
               ["Lettuce", "18 °C", "12 °C", "80 %"],
               ["Peppers", "24 °C", "19 °C", "85 %"]]),
    ("Heading 1", "Ventilation"),
    ("Normal", "The roof vents open automatically when the inside temperature rises 3 °C above "
               "the day setting. They close fully when the wind speed exceeds 40 km/h, whatever "
               "the temperature."),
    ("Normal", "Side vents are never opened by the controller; they must be operated by hand."),
    ("Heading 1", "Alarms"),
    ("Normal", "A high-temperature alarm sounds at 35 °C. The alarm is also sent as a text "
               "message to up to three phone numbers, which are set in the Contacts menu."),
    ("Normal", "If the power fails, the backup battery keeps the controller running for eight "
               "hours, but the vent motors stop."),
    ("Heading 1", "Maintenance"),
    ("Normal", "Calibrate the humidity sensor every six months with the calibration kit. The "
               "temperature sensors do not need calibration."),
]

BIKE_RENTAL = """City Bike Rental - Terms and conditions
Version of 3 March 2026

1. Renting a bike
Bikes can be rented by anyone aged 16 or over with a valid ID. Renters
under 18 need the written consent of a parent. A deposit of 100 euros is
blocked on the credit card at the start of every rental and released
within five working days after the bike is returned undamaged.

2. Prices
Price list (all prices include VAT):
Bike type         Per hour      Per day      Per week
City bike         3 euros       15 euros     60 euros
E-bike            6 euros       35 euros     150 euros
Cargo bike        8 euros       45 euros     190 euros
Child seat        -             5 euros      20 euros

A day is counted from pickup until closing time at 19:00. Bikes returned
after closing time are charged an extra day.

3. Damage and theft
The renter pays for damage caused during the rental, up to a maximum of
500 euros for a city bike. If a rented bike is stolen, the renter must
report the theft to the police within 24 hours and hand in the police
report; otherwise the full replacement value is charged. Theft is not
covered if the bike was not locked with the supplied lock.

4. Cancellation
Reservations can be cancelled free of charge up to 24 hours before
pickup. Later cancellations are charged 50 percent of the rental price.
Group bookings of ten bikes or more cannot be cancelled free of charge.
"""

FIRE_BRIGADE = """Volunteer Fire Brigade Eastfield - Member information

Joining
New members must be at least 18 years old and pass a medical check by the
brigade doctor. The youth group accepts members from the age of ten.
Basic training takes 70 hours spread over six months and must be completed
before a member goes on operational call-outs.

Duties
Active members attend at least 40 hours of exercises per year. Exercises are
held every second Wednesday evening from 19:00. Members on call must be able
to reach the station within eight minutes of an alarm.

Equipment
Each member receives protective clothing, a helmet and boots, which remain the
property of the brigade. Personal pagers are issued only after the basic
training has been completed.

Compensation
Volunteers are not paid a wage. They receive a flat expense allowance of 12
euros per call-out and 6 euros per exercise, paid twice a year in June and
December.
"""


def build_docx(path: Path) -> None:
    document = docx.Document()
    for style, content in GREENHOUSE:
        if style == "table":
            assert isinstance(content, list)
            table = document.add_table(rows=len(content), cols=len(content[0]))
            for r, row in enumerate(content):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        elif style == "Title":
            document.add_heading(str(content), 0)
        elif style.startswith("Heading"):
            document.add_heading(str(content), int(style.split()[1]))
        else:
            document.add_paragraph(str(content))
    document.core_properties.created = datetime(2026, 2, 1, tzinfo=UTC)
    document.save(str(path))


def _escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def build_pdf(path: Path, text: str, lines_per_page: int = 40) -> None:
    """A PDF of ``text``: one text line per line (long lines wrapped at 80 characters)."""
    lines: list[str] = []
    for raw in text.split("\n"):
        lines.extend(textwrap.wrap(raw, 80) if len(raw) > 80 else [raw])
    pages = [lines[i:i + lines_per_page] for i in range(0, len(lines), lines_per_page)]
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    font = 3
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier "
                   b"/Encoding /WinAnsiEncoding >>")
    for page in pages:
        body = ["BT /F1 10 Tf 14 TL 56 770 Td"]
        body += [f"({_escape(line)}) Tj T*" for line in page]
        body.append("ET")
        stream = zlib.compress("\n".join(body).encode("cp1252"))
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
                       + stream + b"\nendstream")
        content = len(objects)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (content, font))
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body_bytes in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body_bytes + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    path.write_bytes(bytes(out))


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    build_docx(HERE / "greenhouse-controller.docx")
    build_pdf(HERE / "bike-rental-terms.pdf", BIKE_RENTAL)
    build_pdf(HERE / "fire-brigade-members.pdf", FIRE_BRIGADE)


if __name__ == "__main__":
    main()
