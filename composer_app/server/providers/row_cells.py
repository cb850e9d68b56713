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
the row unchanged. When no group is left out so, a value cell whose heading sets a condition
that fails for the situation the question states (a month, a date, a time of day, days of the
week: ``conditions``) is left out when another value cell's heading holds for it (*October to March*
for a question in November). Then, of the value cells left, those of one shape (the same words
around their numbers: *Pay as you go: 69p per kWh*, *With a ChargeCard: 64p per kWh*) are
alternatives, and when the question holds a word (not a stop word nor a word of paying:
``_PLAIN``) of exactly one of their headings that no other of them holds, the other alternatives
are left out (*I have a ChargeCard*; *at the weekend*, after the weekday cell is left out for
it: *Weekend per hour: £7.80*, not *Per day (24 hours): £62*).

A heading that names a period the document defines in its prose (*High season runs from 1 July to
31 August*: ``defined_periods``) is read with that definition; of two value cells named by
periods, when one has a definition and the other none, the other is the rest of the year (*All
other dates are low season*): it holds when the definition fails, and fails when it holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from composer_app.server.providers.conditions import (
    MONTHS,
    read,
    situation,
    weekdays_named,
    within_range,
)
from composer_app.server.providers.qualifiers import read as read_qualifiers
from composer_app.server.providers.questions import STOP_WORDS
from composer_app.server.providers.term_forms import stem

_CELL = re.compile(r"^(?P<heading>[^:;]{1,60}): (?P<value>[^;]{1,120})$")
_PLAIN = frozenset({"pay", "price", "cost", "fee", "charge", "rate", "go", "use", "per", "with",
                    "without", "standard", "normal", "each"})


# A period defined in prose: *High season runs from 1 July to 31 August, and from 18 December …*.
_DEFINED = re.compile(r"^\s*(?:the\s+)?(?P<name>(?:high|low|peak|off-peak|mid|shoulder|busy|quiet)"
                      r"[\s-]season|peak|off-peak|summer|winter)\s+(?:season\s+|period\s+)?"
                      r"(?:runs|is|covers|lasts|means|includes)\s+(?P<when>.+)$", re.I)
_DAY_OF_MONTH = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?=(?:{'|'.join(MONTHS)})\b)", re.I)
_NO_PERIODS: Mapping[str, str] = MappingProxyType({})
_PERIOD_WORD = re.compile(r"\b(?:season|peak|off-peak|summer|winter)\b", re.I)


def defined_periods(sentences: Iterable[str]) -> dict[str, str]:
    """The periods ``sentences`` define, by name (casefolded, spaces as one space):
    *High season runs from 1 July to 31 August* gives ``{"high season": "from 1 July to 31
    August"}`` (the first definition of a name is kept)."""
    found: dict[str, str] = {}
    for sentence in sentences:
        match = _DEFINED.match(sentence)
        if match:
            name = re.sub(r"\s+", " ", match.group("name").casefold())
            found.setdefault(name, match.group("when"))
    return found


def _defined(heading: str, periods: Mapping[str, str]) -> str | None:
    """The definition of the period ``heading`` names, if the document gives one."""
    named = re.sub(r"\s+", " ", heading.casefold())
    return next((when for name, when in periods.items()
                 if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", named)), None)


def _heading_stems(heading: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[a-z]+", heading.casefold())
            if w not in STOP_WORDS and len(w) > 2} - {stem(w) for w in _PLAIN}


def _alternative_named(question: str, cells: list[str]) -> list[str]:
    """``cells`` without the alternatives the question does not name (see the module
    invariant)."""
    asked = {stem(w) for w in re.findall(r"[a-z]+", question.casefold())}
    shapes: dict[str, list[int]] = {}
    for number, cell in enumerate(cells[1:], start=1):
        value = cell.split(": ", 1)[1]
        if re.search(r"\d", value):
            shapes.setdefault(re.sub(r"[\d.,]+", "#", value.casefold()), []).append(number)
    dropped: set[int] = set()
    for numbers in shapes.values():
        if len(numbers) < 2:
            continue
        own = {n: _heading_stems(cells[n].split(": ", 1)[0]) for n in numbers}
        named = [n for n in numbers
                 if (own[n] - set().union(*(own[m] for m in numbers if m != n))) & asked]
        if len(named) == 1:
            dropped.update(n for n in numbers if n != named[0])
    return [cell for number, cell in enumerate(cells) if number not in dropped]


def _for_the_situation(question: str, cells: list[str],
                       periods: Mapping[str, str] = _NO_PERIODS) -> list[str]:
    """``cells`` without the value cells whose heading sets a condition (a month, a date, a time
    of day, an age: ``conditions``; or days of the week, none of them the question's) that fails
    for the situation the question states, when another value cell's heading holds for it
    (*It's November*: *October to March: 8:00am to 4:00pm*, not *April to September: 8:00am to
    7:00pm*; *on a Saturday*: *Saturday and Sunday: 10:00 to 16:00*)."""
    asked = situation(question)
    asked_days = frozenset(asked.get("weekday", ()))
    met: list[bool] = []
    failed: list[bool] = []
    undefined: list[bool] = []  # a period the document does not define: the rest of the year
    for cell in cells[1:]:
        heading = cell.split(": ", 1)[0]
        when = _defined(heading, periods)
        if when is not None and "day" not in asked:  # "in August": "from July to August"
            when = _DAY_OF_MONTH.sub("", when)
        reading = read(question, heading if when is None else f"{heading} {when}")
        days = weekdays_named(heading.casefold()) if asked_days else frozenset()
        met.append(reading.met or bool(days & asked_days))
        failed.append(reading.failed or (bool(days) and not days & asked_days))
        undefined.append(when is None and _PERIOD_WORD.search(heading) is not None)
    if len(met) == 2 and sum(met) + sum(failed) == 1 and any(undefined) and not all(undefined):
        rest = undefined.index(True)  # the rest of the year: "All other dates are low season"
        if met[1 - rest] or failed[1 - rest]:
            met[rest], failed[rest] = failed[1 - rest], met[1 - rest]
    if not any(met) or not any(failed):
        return cells
    return [cells[0], *(c for c, out in zip(cells[1:], failed, strict=True) if not out)]


def for_the_asked(question: str, row: str, periods: Mapping[str, str] = _NO_PERIODS) -> str:
    """``row`` narrowed to the cells for the group ``question`` asks about (see the module
    invariant); ``periods`` holds the periods its document defines (``defined_periods``)."""
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
    if len(kept) == len(cells):
        kept = _for_the_situation(question, cells, periods)
    kept = _alternative_named(question, kept)  # of the cells left: "weekend per hour", no day
    if len(kept) < 2 or len(kept) == len(cells):
        return row
    return "; ".join(kept)
