"""The days of the week a text names, and the days a rule holds on only.

*On Sundays and public holidays*, *from Monday to Thursday*, *at weekends* name days of the week
(0 Monday … 6 Sunday) and ``HOLIDAY``; *On Fridays only*, *only on weekdays*, *from Monday to
Friday only* say the rule holds on those days and no others (``conditions`` then lets another day
fail it, where a day a sentence names without *only* never fails it).

Invariants: texts are read casefolded; a range of days may wrap (*Friday to Monday*); a public or
bank holiday, Easter Monday or Sunday, Good Friday, Christmas Day, Boxing Day and New Year's Day
are ``HOLIDAY``; reading never raises.
"""

from __future__ import annotations

import re

__all__ = ["HOLIDAY", "ONLY_DAYS", "WEEKDAYS", "weekdays_named"]

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = rf"(?:{'|'.join(WEEKDAYS)})"
HOLIDAY = 7
_DAY_NAME = re.compile(
    rf"\b(?P<a>{_WEEKDAY})s?\s*(?:to|-|–|until|till|through)\s*(?P<b>{_WEEKDAY})s?\b"
    rf"|\b(?P<one>{_WEEKDAY})s?\b"
    r"|\b(?P<weekend>weekends?)\b"
    r"|\b(?P<weekdays>weekdays)\b"
    r"|\b(?P<holiday>(?:public|bank)\s+holidays?|easter\s+(?:monday|sunday)|good\s+friday|"
    r"christmas\s+day|boxing\s+day|new\s+year['’]?s\s+day)\b")
# Days a rule holds on only: *On Fridays only*, *only on weekdays*, *from Monday to Friday only*.
_DAY_WORD = rf"(?:{_WEEKDAY}s?|weekends?|weekdays)"
ONLY_DAYS = re.compile(rf"\bonly\s+(?:on\s+|at\s+)?{_DAY_WORD}\b|\b{_DAY_WORD}\s+only\b")


def weekdays_named(text: str) -> frozenset[int]:
    """The days of the week (0 Monday … 6 Sunday, ``HOLIDAY``) ``text`` (casefolded) names."""
    days: set[int] = set()
    for match in _DAY_NAME.finditer(text):
        if match.group("a"):
            low, high = WEEKDAYS.index(match.group("a")), WEEKDAYS.index(match.group("b"))
            days |= set(range(low, high + 1)) if low <= high else \
                set(range(low, 7)) | set(range(0, high + 1))
        elif match.group("one"):
            days.add(WEEKDAYS.index(match.group("one")))
        elif match.group("weekend"):
            days |= {5, 6}
        elif match.group("weekdays"):
            days |= {0, 1, 2, 3, 4}
        else:
            days.add(HOLIDAY)
    return frozenset(days)
