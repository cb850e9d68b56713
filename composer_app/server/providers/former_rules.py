"""Sentences that state a rule as it was before a change, and questions that ask about it.

A notice that changes a rule usually says both: *Until now, guests had to leave their pitch by
11:00. From the 2026 season, you can stay until 12:00.* The first sentence answers a question
about the past only; for a question about what holds now it is a near miss.

Invariants: ``states_former`` is true only for a sentence that opens with a phrase placing it before
a change (*until now*, *up to now*, *so far*, *previously*, *formerly*, *in the past*, *before this
change*), or that says what something *used to* be or do, or what the *old*, *previous* or *former*
value *was* (not what something *is used to* do, nor *getting used to* it); a sentence that names
the previous value only to say it is replaced (*The new fee replaces the previous handling fee*) is
not one. ``asks_former`` is true for a question that names the past in the same words (or *did …
cost*, *last year*). Both are pure functions of their text.
"""

from __future__ import annotations

import re

_OPENING = re.compile(
    r"^\s*(?:until now|up (?:un)?til now|up to now|so far|until today|previously|formerly|"
    r"in the past|before (?:this|the) change|before now)\b", re.IGNORECASE)
_USED_TO = re.compile(
    r"\b(?P<before>\w+) used to (?!(?:it|them|the|this|that|a|an|their|our|your)\b)\w+",
    re.IGNORECASE)
_NOT_PAST_HABIT = frozenset({"be", "is", "are", "was", "were", "been", "being", "get", "gets",
                             "got", "getting", "become"})
_OLD_VALUE = re.compile(r"\b(?:old|previous|former)\s+(?:\w+\s+){0,2}(?:was|were|had been)\b",
                        re.IGNORECASE)
_ASKS_PAST = re.compile(
    r"\b(?:until now|up to now|so far|previously|formerly|in the past|used to|before the "
    r"change|old|previous|former|last year)\b|\bdid\b.*\b(?:cost|charge|pay|have to)\b",
    re.IGNORECASE)


def states_former(text: str) -> bool:
    """Whether the sentence ``text`` states a rule as it was before a change (see the module
    invariant)."""
    if _OPENING.search(text) or _OLD_VALUE.search(text):
        return True
    return any(m["before"].lower() not in _NOT_PAST_HABIT for m in _USED_TO.finditer(text))


def asks_former(question: str) -> bool:
    """Whether ``question`` asks about the past, so a former rule may answer it."""
    return bool(_ASKS_PAST.search(question))
