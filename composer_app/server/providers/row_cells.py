"""A table row answered for the group a question asks about.

A price table's row gives one value per group (*Ticket: 10-visit card; Adults: 125 euros;
Students: 105 euros; Children (6 to 13): 70 euros*). A student who asks what the card costs
them should read the students' price, not all three: ``for_the_asked`` keeps the row's first
cell (what the row is about) and the cells whose heading is the group the question names.

Invariants: the row is read only when every cell is written ``Heading: value`` and joined by
``; `` (the prose reader's form of a table row); the first cell is always kept; a cell is left
out only when its heading names another group of the same dimension than the question's
(``qualifiers``) or an age range that excludes the age the question states (*Children under
6* for a ten-year-old), and only when at least one value cell is kept; anything else returns
the row unchanged.
"""

from __future__ import annotations

import re

from composer_app.server.providers.conditions import situation, within_range
from composer_app.server.providers.qualifiers import read as read_qualifiers

_CELL = re.compile(r"^(?P<heading>[^:;]{1,60}): (?P<value>[^;]{1,120})$")


def for_the_asked(question: str, row: str) -> str:
    """``row`` narrowed to the cells for the group ``question`` asks about (see the module
    invariant)."""
    cells = row.split("; ")
    if len(cells) < 3 or not all(_CELL.match(cell) for cell in cells):
        return row
    ages = situation(question).get("age", ())
    kept = [cells[0]]
    for cell in cells[1:]:
        heading = cell.split(": ", 1)[0]
        reading = read_qualifiers(question, heading)
        if reading.contrasted and not reading.matched:
            continue
        if ages and re.search(r"\d", heading) and \
                not any(within_range(str(age), heading) for age in ages):
            continue
        kept.append(cell)
    if len(kept) < 2 or len(kept) == len(cells):
        return row
    return "; ".join(kept)
