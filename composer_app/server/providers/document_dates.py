"""The date a document says it was written, read from its own text.

Invariants: ``written_date`` looks only at the first ``HEAD_LINES`` lines, a hard-wrapped
paragraph's lines joined (*from 1 January* / *2025*); a date in the first non-empty line (the title:
``Notice of 1 March 2026``) wins over any other, then a date on a line that names it (``Last
updated``, ``Effective``, ``Published``, ``Date``, ``As of``, ...; a notice that *revises the rules
dated* an older day names that day later than its title); otherwise the first date of the head
counts; dates are ISO (``2025-09-15``), day-month-year (``15 September 2025``), month-day-year
(``September 15, 2025``) or month-year (``September 2025``, read as its first day); anything else
gives ``None`` (callers then fall back to the file's modification time).
"""

from __future__ import annotations

import re
from datetime import date

HEAD_LINES = 15

_MONTHS = {name: number for number, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
    ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
    ("october", "oct"), ("november", "nov"), ("december", "dec")), start=1) for name in names}
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_PATTERNS = (
    (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"), ("y", "m", "d")),
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH}\s+(\d{{4}})\b", re.I),
     ("d", "M", "y")),
    (re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I),
     ("M", "d", "y")),
    (re.compile(rf"\b{_MONTH}\s+(\d{{4}})\b", re.I), ("M", "y")),
)
_NUMBERED = re.compile(r"\d{1,3}[.)]\s")  # "2. Deposits": an item, not a sentence going on
_NAMED = re.compile(
    r"\b(?:last\s+)?(?:updated|update|effective|published|revised|revision|dated?|issued|"
    r"as\s+of|written|modified|changed|version\s+of)\b", re.I)


def _dates_in(line: str) -> list[tuple[int, date]]:
    found: list[tuple[int, date]] = []
    taken: list[range] = []
    for pattern, order in _PATTERNS:
        for match in pattern.finditer(line):
            span = range(match.start(), match.end())
            if any(span.start in r or (span.stop - 1) in r for r in taken):
                continue
            parts = dict(zip(order, match.groups(), strict=True))
            try:
                month = _MONTHS[parts["M"].casefold()] if "M" in parts else int(parts["m"])
                value = date(int(parts["y"]), month, int(parts.get("d", "1")))
            except (ValueError, KeyError):
                continue
            taken.append(span)
            found.append((match.start(), value))
    return sorted(found)


def _head(text: str) -> list[str]:
    """The non-empty lines of the first ``HEAD_LINES``, a line that goes on with a sentence (it
    opens in lower case or with a digit, not a numbered item) joined to the line before it unless
    that one is the title or a heading or ends a sentence: *from 1 January* / *2025*."""
    lines: list[str] = []
    after_blank = True
    for raw in text.split("\n", HEAD_LINES)[:HEAD_LINES]:
        line = raw.strip()
        if line and not after_blank and len(lines) > 1 and not lines[-1].startswith("#") and \
                not lines[-1].endswith((".", ":", ";", "!", "?")) and \
                (line[0].islower() or line[0].isdigit()) and not _NUMBERED.match(line):
            lines[-1] = f"{lines[-1]} {line}"
        elif line:
            lines.append(line)
        after_blank = not line
    return lines


def written_date(text: str) -> date | None:
    """The document's own date (see the module invariant), or ``None``."""
    first: date | None = None
    named: date | None = None
    for number, line in enumerate(_head(text)):
        dates = _dates_in(line)
        if not dates:
            continue
        if number == 0:  # the title's date: "Notice of 1 March 2026"
            return dates[0][1]
        if _NAMED.search(line):
            named = named or dates[0][1]
        first = first or dates[0][1]
    return named or first
