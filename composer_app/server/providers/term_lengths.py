"""Terms named by their length: *a 24-month contract*, *the three-year plan*, *12- and 24-month
contracts*.

Contracts, plans and permits come in lengths, and a rule about one length is a near miss for
another (*On a 24-month handset plan you can upgrade after 21 monthly bills*, for *my three-year
contract*). ``conditions`` holds the lengths a sentence names against the length a question
states, as the kind ``length``.

Invariants: a length is read only from a number and *month* or *year* joined by a hyphen
(*24-month*, *three-year*; a suspended *12- and 24-month* names both), never from *N-year-old*
(an age) nor from days or weeks (*a 3-day pass* names a product, not the asker's situation);
lengths are in minutes, a month 43,800 and a year twelve of them. ``states_length`` tells
whether a stretch of time, bounded (*12 months or longer*), is the length of the term named just
before it (*contracts of*, *a tenancy lasting at least*), so that a rule on such terms holds the
length a question states (*my 9-month contract*) as well as a stretch of time.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from composer_app.server.providers.term_forms import NUMBER_VALUES, number_value

MINUTES = {"month": 43_800, "year": 525_600}
_NUMBER = rf"(?:\d{{1,4}}|{'|'.join(sorted(NUMBER_VALUES, key=len, reverse=True))}|an?|one)"
_LENGTH = re.compile(rf"\b(?:(?P<first>{_NUMBER})-\s+(?:and|or)\s+)?(?P<n>{_NUMBER})-"
                     r"(?P<unit>year|month)\b(?![- ]olds?\b)")
_TERM_BEFORE = re.compile(
    r"\b(?:contract|tenanc(?:y|ie)|plan|lease|agreement|subscription|membership|placement)s?\s+"
    r"(?:of|lasting)\s+(?:(?:at\s+least|more\s+than|less\s+than|under|over|up\s+to|"
    r"a\s+minimum\s+of|a\s+maximum\s+of)\s+)?$", re.IGNORECASE)


def states_length(before: str) -> bool:
    """Whether the words ``before`` a stretch of time make it a term's length (*contracts of*
    … *12 months or longer*)."""
    return _TERM_BEFORE.search(before) is not None


def _count(word: str) -> int | None:
    return 1 if word in ("a", "an", "one") else number_value(word)


def named(text: str) -> Iterator[int]:
    """The length in minutes of each term ``text`` (casefolded) names by its length."""
    for match in _LENGTH.finditer(text):
        for number in (match.group("first"), match.group("n")):
            count = _count(number) if number else None
            if count is not None:
                yield count * MINUTES[match.group("unit")]
