"""Whole numbers within the ranges a text writes out (*aged 14 to 17*, *under 14*, *65 and
over*, *between 10 and 20*, *up to 2,000*).

Invariants: a range is read from its words and whole numbers alone (thousands may be separated:
*2,000*), never from a clock time or a decimal (*10:00 to 17:00*, *1.50 to 2.50 euros* are no
ranges); an upper bound written *under*, *below*, *less than*, *younger than*, *fewer than* or *up
to* excludes itself, a lower bound (*over*, *above*, *more than*, *older than*, *at least*,
*from*, *18+*, *65 and over*) includes itself, as written; anything but a whole number is in no
range.
"""

from __future__ import annotations

import re

__all__ = ["within_range"]

# A whole number (thousands may be separated: *2,000*), not part of 10:00 or 1.5.
_WHOLE = r"(?<![\d:.,])(\d{1,3}(?:,\d{3})+|\d+)(?![:.,]?\d)"
_RANGE = re.compile(rf"\b(?:between\s+)?{_WHOLE}\s*(?:to|-|–|and|until)\s*{_WHOLE}")
_BELOW = re.compile(
    rf"\b(?:under|below|less\s+than|younger\s+than|fewer\s+than|up\s+to)\s+{_WHOLE}")
_ABOVE = re.compile(rf"\b(?:over|above|more\s+than|older\s+than|at\s+least|from)\s+{_WHOLE}"
                    rf"|{_WHOLE}(?:\s*\+|\s+(?:and|or)\s+(?:over|above|older|more)\b)")


def within_range(number: str, text: str) -> bool:
    """Whether ``text`` states a range of whole numbers that holds ``number`` (*aged 14 to 17*,
    *between 10 and 20*, *under 14*, *over 65*, *65 and over*, *at least 18*, *up to 2,000*; the
    bounds as written)."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+|\d+", number) is None:
        return False
    value = _whole(number)
    lowered = text.casefold()
    return (any(_whole(low) <= value <= _whole(high) for low, high in _RANGE.findall(lowered))
            or any(value < _whole(bound) for bound in _BELOW.findall(lowered))
            or any(value >= _whole(bound or after) for bound, after in _ABOVE.findall(lowered)))


def _whole(written: str) -> int:
    return int(written.replace(",", ""))
