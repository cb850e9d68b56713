"""A table row answered for the group a question asks about.

A price table's row gives one value per group (*Ticket: 10-visit card; Adults: 125 euros;
Students: 105 euros; Children (6 to 13): 70 euros*). A student who asks what the card costs
them should read the students' price, not all three: ``for_the_asked`` keeps the row's first
cell (what the row is about) and the cells whose heading is the group the question names.

Invariants: the row is read only when every cell is written ``Heading: value`` and joined by
``; `` (the prose reader's form of a table row; a heading may hold a clock time, *Weekdays
before 17:00*); the first cell is always kept; a cell is left
out only when its heading names another group of the same dimension than the question's
(``qualifiers``), unless it names a part of the day that holds the time the question states
(*Evenings and Saturdays* at 6pm on a Wednesday), or an age range that excludes the age the
question states (*Children under 6* for a ten-year-old), and only when at least one value cell
is kept; anything else returns the row unchanged. When no group is left out so, a value cell
whose heading sets a condition that fails for the situation the question states (a month, a
date, a time of day or a part of the day, days of the week: ``conditions``) is left out when
another value cell's heading holds for it (*October to March* for a question in November).
Then, of the value cells left, those of one shape (the same words
around their numbers: *Pay as you go: 69p per kWh*, *With a ChargeCard: 64p per kWh*) are
alternatives, and so are those whose headings of several words end on one noun outside brackets
(*Single or advance ticket*, *Return ticket (delay in one direction)*; *Monthly-paid staff*,
*Weekly-paid staff*); when the question holds a word (not a stop word, a word of paying:
``_PLAIN``, nor a word of the document's title: *Voltbridge* of *Voltbridge Plus members*, nor a
word it negates: *urgent* of *non-urgent*) of exactly one
of their headings that no other of them holds, or holds a heading of several words whole
(*if I pay as I go*), the other alternatives are left out (*I have a ChargeCard*; *at the
weekend*, after the weekday cell is left out for it: *Weekend per hour: £7.80*, not *Per day
(24 hours): £62*).

A heading that names a period the document defines in its prose (*High season runs from 1 July to
31 August*: ``defined_periods``) is read with that definition; of two value cells named by
periods, when one has a definition and the other none, the other is the rest of the year (*All
other dates are low season*): it holds when the definition fails, and fails when it holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from composer_app.server.providers.conditions import MONTHS, read, situation
from composer_app.server.providers.qualifiers import read as read_qualifiers
from composer_app.server.providers.questions import STOP_WORDS
from composer_app.server.providers.term_forms import stem
from composer_app.server.providers.week_days import weekdays_named
from composer_app.server.providers.written_ranges import within_range

_CELL = re.compile(r"^(?P<heading>(?:[^:;]|:(?=\d)){1,60}): (?P<value>[^;]{1,120})$")
_PLAIN = frozenset({"pay", "price", "cost", "fee", "charge", "rate", "go", "use", "per", "with",
                    "without", "standard", "normal", "each"})


# A period defined in prose: *High season runs from 1 July to 31 August, and from 18 December …*.
_DEFINED = re.compile(r"^\s*(?:the\s+)?(?P<name>(?:high|low|peak|off-peak|mid|shoulder|busy|quiet)"
                      r"[\s-]season|peak|off-peak|summer|winter)\s+(?:season\s+|period\s+)?"
                      r"(?:runs|is|covers|lasts|means|includes)\s+(?P<when>.+)$", re.I)
_DAY_OF_MONTH = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?=(?:{'|'.join(MONTHS)})\b)", re.I)
_NO_PERIODS: Mapping[str, str] = MappingProxyType({})
_PERIOD_WORD = re.compile(r"\b(?:season|peak|off-peak|summer|winter)\b", re.I)
# Parts of the day a heading names (*Evenings and Saturdays*), in minutes after midnight.
_DAY_PART = re.compile(r"\b(?P<part>morning|afternoon|evening|night)s?\b", re.I)
_PART_MINUTES = {"morning": (0, 720), "afternoon": (720, 1020), "evening": (1020, 1440),
                 "night": (1260, 1440)}


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


def _head(heading: str) -> str | None:
    """The noun a heading of several words ends on, outside brackets (*ticket* of *Return ticket
    (delay in one direction)*, *staff* of *Weekly-paid staff*), stemmed; ``None`` for a heading
    of one word."""
    words = re.findall(r"[a-z]+", re.sub(r"\([^)]*\)", " ", heading.casefold()))
    return stem(words[-1]) if len(words) > 1 else None


def _phrase(text: str) -> str:
    """``text`` casefolded as words between spaces, the asker's *I* and *we* read as *you*
    (*if I pay as I go* holds the heading *Pay as you go*)."""
    words = re.findall(r"[a-z0-9]+", text.casefold())
    return " " + " ".join("you" if w in ("i", "we") else w for w in words) + " "


def _alternative_named(question: str, cells: list[str], title: str = "") -> list[str]:
    """``cells`` without the alternatives the question does not name (see the module
    invariant); a word of the document's ``title`` (*Voltbridge* of *Voltbridge Plus members*)
    names no alternative, and a heading of several words the question holds whole names its
    own."""
    unsaid = re.sub(r"\bnon-[a-z]+", " ", question.casefold())  # "non-urgent" names no "Urgent"
    asked = {stem(w) for w in re.findall(r"[a-z]+", unsaid)} - \
        {stem(w) for w in re.findall(r"[a-z]+", title.casefold())}
    said = _phrase(unsaid)
    shapes: dict[str, list[int]] = {}
    heads: dict[str, list[int]] = {}
    for number, cell in enumerate(cells[1:], start=1):
        heading, value = cell.split(": ", 1)
        if re.search(r"\d", value):
            shapes.setdefault(re.sub(r"[\d.,]+", "#", value.casefold()), []).append(number)
        head = _head(heading)
        if head:
            heads.setdefault(head, []).append(number)
    dropped: set[int] = set()
    for numbers in [*shapes.values(), *(n for n in heads.values() if n not in shapes.values())]:
        if len(numbers) < 2:
            continue
        own = {n: _heading_stems(cells[n].split(": ", 1)[0]) for n in numbers}
        whole = [n for n in numbers if len((heading := _phrase(
            cells[n].split(": ", 1)[0])).split()) > 1 and heading in said]
        named = whole or [n for n in numbers
                          if (own[n] - set().union(*(own[m] for m in numbers if m != n))) & asked]
        if len(named) == 1:
            dropped.update(n for n in numbers if n != named[0])
    return [cell for number, cell in enumerate(cells) if number not in dropped]


def _at_part(heading: str, clocks: Iterable[int]) -> bool | None:
    """Whether a time of day the question states (``clocks``, minutes after midnight) falls in
    a part of the day ``heading`` names (*Evenings and Saturdays*), or ``None`` when it names
    none or the question states no time."""
    parts = [_PART_MINUTES[m.group("part").casefold()] for m in _DAY_PART.finditer(heading)]
    clocks = tuple(clocks)
    if not parts or not clocks:
        return None
    return any(low <= clock < high for clock in clocks for low, high in parts)


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
        at_part = _at_part(heading, asked.get("clock", ()))
        if at_part is not None:  # "Evenings and Saturdays" holds at 6pm on a Wednesday
            met.append(at_part or reading.met or bool(days & asked_days))
            failed.append(not met[-1])
        else:
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


def for_the_asked(question: str, row: str, periods: Mapping[str, str] = _NO_PERIODS,
                  title: str = "") -> str:
    """``row`` narrowed to the cells for the group ``question`` asks about (see the module
    invariant); ``periods`` holds the periods its document defines (``defined_periods``),
    ``title`` is its document's title."""
    cells = row.split("; ")
    if len(cells) < 3 or not all(_CELL.match(cell) for cell in cells):
        return row
    asked = situation(question)
    ages, clocks = asked.get("age", ()), asked.get("clock", ())
    kept = [cells[0]]
    for cell in cells[1:]:
        heading = cell.split(": ", 1)[0]
        reading = read_qualifiers(question, heading)
        if reading.contrasted and not reading.matched and not _at_part(heading, clocks):
            continue
        if ages and re.search(r"\d", heading) and \
                not any(within_range(str(age), heading) for age in ages):
            continue
        kept.append(cell)
    if len(kept) == len(cells):
        kept = _for_the_situation(question, cells, periods)
    kept = _alternative_named(question, kept, title)  # of the cells left: "weekend per hour"
    if len(kept) < 2 or len(kept) == len(cells):
        return row
    return "; ".join(kept)
