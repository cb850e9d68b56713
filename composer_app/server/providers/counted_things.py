"""A number joined to the thing it counts (*a 2-bedroom house*, *a 7-day pass*, *three nights*).

A question that counts a thing (*How much is it to move a 2-bedroom house?*) asks about the row or
sentence that counts the same thing with the same number; a sentence that counts it with another
number (*3-bedroom house; Crew: 4 movers, 2 vans*) holds the question's number only by chance, in
another count (*2 vans*).

Invariants: a count is a number (digits or a number word) written right before a word, with a
hyphen or a space between them, and counts that word's stem (*2-bedroom* and *2 bedrooms* count
the same thing); ``counts_other`` is true only when the question counts a thing with ``number``
and the sentence counts that same thing with another number and never with ``number``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from composer_app.server.providers.term_forms import NUMBER_VALUES, stem

_NUMBER = rf"\d+(?:[.,]\d+)?|{'|'.join(NUMBER_VALUES)}"
_COUNT = re.compile(rf"\b({_NUMBER})[- ]([^\W\d_]+)", re.IGNORECASE)


def _counts(text: str) -> Iterator[tuple[str, str]]:
    for match in _COUNT.finditer(text):
        written = match.group(1).casefold()
        yield str(NUMBER_VALUES.get(written, written)), stem(match.group(2).casefold())


@lru_cache(maxsize=256)
def _counted(question: str, value: str) -> frozenset[str]:
    """The stems of the things ``question`` counts with ``value``."""
    return frozenset(thing for said, thing in _counts(question) if said == value)


def counts_other(question: str, number: str, sentence: str) -> bool:
    """Whether ``sentence`` counts a thing the ``question`` counts with ``number`` only with
    other numbers (see the module invariant)."""
    value = str(NUMBER_VALUES.get(number.casefold(), number))
    things = _counted(question, value)
    if not things:
        return False
    stated = set(_counts(sentence))
    return any((value, thing) not in stated and any(t == thing for _, t in stated)
               for thing in things)
