"""Amounts measured in a unit (*150 pages*, *25 kg*, *a 1,500-word text*), in a question's
situation and in the bounds a sentence sets on them (*100 pages or more*, *orders of 5 to 19 kg*,
*texts of up to 2,000 words*).

Price lists and service terms change their answer with the amount ordered: a question states the
amount (*I need 150 pages printed*), the sentence the band it belongs to. ``conditions`` holds
the two against each other, each unit as a kind of its own (``measure:page``, ``measure:kg``), so
pages are never compared with kilograms, nor with a count of people.

Money is measured too (*I need 4,000 euros in cash* against *withdrawals are limited to 2,500
euros per day*; *£25* against *orders over £30*), each currency a unit of its own.

Invariants: a unit is read only from ``UNITS`` (plain English names and symbols of general
measures and of the euro, the pound and the dollar, each with its one canonical name: *kilo*,
*kilos*, *kilograms* are ``kg``; *€*, *euros* are ``eur``); a value is read only with its unit
written right after it (a hyphen between them too: *1,500-word*), or a currency symbol right
before it (*€40*), times a multiple written between them (*2 million euros*) or after the symbol's
value (*£2.3 million*, *£750k*, *$1.5bn*; *m* only there, where it cannot be metres);
values are whole thousandths (``SCALE``; one word naming what is measured may stand between a
value and its unit: *10,000 business miles*), so *2.5 kg* and *2,500 g* are never confused with
*2 kg*; a sentence bound is read only from words that make it one (*up to*, *under*, *at least*,
*from*, *or more*, a range *5 to 19*), never from a bare amount (*a 250 g bag* sets no bound).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

SCALE = 1000
UNITS = {
    "page": "page", "pages": "page", "word": "word", "words": "word",
    "copy": "copy", "copies": "copy", "sheet": "sheet", "sheets": "sheet",
    "kg": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg",
    "g": "g", "gram": "g", "grams": "g",
    "mile": "mile", "miles": "mile",
    "km": "km", "kilometre": "km", "kilometres": "km", "kilometer": "km", "kilometers": "km",
    "litre": "litre", "litres": "litre", "liter": "litre", "liters": "litre",
    "m²": "m2", "m2": "m2", "sqm": "m2",
    "m": "m", "metre": "m", "metres": "m", "meter": "m", "meters": "m",
    "cm": "cm", "centimetre": "cm", "centimetres": "cm", "centimeter": "cm", "centimeters": "cm",
    "euro": "eur", "euros": "eur", "eur": "eur", "€": "eur",
    "pound": "gbp", "pounds": "gbp", "gbp": "gbp", "£": "gbp",
    "dollar": "usd", "dollars": "usd", "usd": "usd", "$": "usd",
}
_SYMBOL = "[€£$]"  # a currency written before its value: *€40*, *£13*
_UNIT = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
_VALUE = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"


_MULTIPLES = {"thousand": 1_000, "k": 1_000, "million": 1_000_000, "m": 1_000_000,
              "billion": 1_000_000_000, "bn": 1_000_000_000}
_MULTIPLE = r"thousand|million|billion"  # written out: *2 million euros*; *£2m* after a symbol
# A word naming what is measured, between the value and its unit: *10,000 business miles*.
_KIND_WORD = r"(?:business|extra|additional|further|chargeable|free|paid|printed|colour|color)"


def _amount(value: str, unit: str) -> str:
    """The pattern of an amount with its unit, in the named groups ``value`` and ``unit`` (a
    currency symbol before its value in ``<value>_s`` and ``<unit>_s``; a multiple, *million*,
    in ``<value>_x`` or ``<value>_sx``)."""
    return rf"(?:(?P<{unit}_s>{_SYMBOL})\s?(?P<{value}_s>{_VALUE})(?!\d|[.,]\d)" \
        rf"(?:\s?(?P<{value}_sx>{_MULTIPLE}|m|bn|k)\b)?" \
        rf"|(?P<{value}>{_VALUE})(?:\s*(?P<{value}_x>{_MULTIPLE}))?\s*-?\s*" \
        rf"(?:{_KIND_WORD}\s+)?(?P<{unit}>{_UNIT})(?![\w²]))"


def _read(match: re.Match[str], value: str, unit: str) -> tuple[int, str]:
    """The value and the unit of the amount ``_amount(value, unit)`` matched."""
    if match.group(value) is not None:
        times = _MULTIPLES.get(match.group(f"{value}_x") or "", 1)
        return _value(match.group(value)) * times, match.group(unit)
    times = _MULTIPLES.get(match.group(f"{value}_sx") or "", 1)
    return _value(match.group(f"{value}_s")) * times, match.group(f"{unit}_s")


_ASKED = re.compile(_amount("n", "unit"))
_RANGE = re.compile(rf"(?:\bbetween\s+)?(?:{_SYMBOL}\s?)?(?<![\d.,])(?P<low>{_VALUE})\s*"
                    rf"(?:{_UNIT})?\s*"
                    rf"(?:to|-|–|and)\s*{_amount('n', 'unit')}")
_UPPER = r"(?:for\s+)?the\s+first|up\s+to|within|under|below|less\s+than|fewer\s+than|" \
         r"no\s+more\s+than|at\s+most|not\s+more\s+than|(?:a\s+)?maximum\s+of|max\.?|limited\s+to|capped\s+at"
_LOWER = r"at\s+least|from|over|above|more\s+than|(?:a\s+)?minimum\s+of|min\.?"
_BOUND = re.compile(rf"\b(?P<words>{_UPPER}|{_LOWER})\s+{_amount('n', 'unit')}"
                    rf"|{_amount('n2', 'unit2')}\s+or\s+(?P<tail>more|over|above|less|fewer"
                    r"|under|below)\b")
_EXCLUSIVE = frozenset({"under", "below", "less than", "fewer than", "over", "above",
                        "more than"})


def _value(written: str) -> int:
    return round(float(written.replace(",", "")) * SCALE)


def kind(unit: str) -> str:
    """The condition kind of a unit as written (``measure:kg`` for *kilos*)."""
    return f"measure:{UNITS[unit.casefold()]}"


_BEYOND = re.compile(r"\b(?:more\s+than|over|above|beyond|exceeded|exceeding)\s*$")
_SHORT_OF = re.compile(r"\b(?:less\s+than|fewer\s+than|under|below)\s*$")


def asked(text: str) -> Iterator[tuple[int, int, str, int]]:
    """(start, end, kind, value) of each measured amount ``text`` (casefolded) states; an
    amount stated as passed (*more than 10,000 business miles*) is one thousandth above it, one
    stated as not reached (*under 5 kg*) one thousandth below."""
    for match in _ASKED.finditer(text):
        value, unit = _read(match, "n", "unit")
        before = text[max(0, match.start() - 20):match.start()]
        value += 1 if _BEYOND.search(before) else -1 if _SHORT_OF.search(before) else 0
        yield match.start(), match.end(), kind(unit), value


def bounds(text: str) -> Iterator[tuple[int, int, str, str, int, int]]:
    """(start, end, kind, relation, value, high) of each bound ``text`` (casefolded) sets on a
    measured amount: ``relation`` is ``<``, ``<=``, ``>``, ``>=`` on ``value``, or ``within``
    ``value`` and ``high``."""
    taken: list[tuple[int, int]] = []
    for match in _RANGE.finditer(text):
        low, (high, unit) = _value(match.group("low")), _read(match, "n", "unit")
        if low < high:
            taken.append(match.span())
            yield match.start(), match.end(), kind(unit), "within", low, high
    for match in _BOUND.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        if match.group("words"):
            words = re.sub(r"\s+", " ", match.group("words"))
            upper = re.fullmatch(_UPPER, words) is not None
            relation = ("<" if words in _EXCLUSIVE else "<=") if upper else \
                (">" if words in _EXCLUSIVE else ">=")
            value, unit = _read(match, "n", "unit")
        else:
            tail = match.group("tail")
            relation = ">=" if tail in ("more", "over", "above") else "<="
            value, unit = _read(match, "n2", "unit2")
        yield match.start(), match.end(), kind(unit), relation, value, value
