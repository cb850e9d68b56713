"""Occasions counted in order: the person's own (*my seventh breakdown this year*, *my second
missed visit*, *it's the first time*) and the occasions a rule is for (*from the seventh
call-out*, *The first missed appointment is free*, *Later missed appointments cost £55*).

Two kinds of situation value come from here (``conditions``): ``count``, the person's own count
written as an ordinal (*my seventh breakdown*: 7, held like *seven breakdowns* against *three or
more*), and ``ordinal``, the occasion the question is about, held against the occasions a sentence
names.

Invariants: *first* never counts (*my first lesson* is an occasion, not a count), and the first of
a span of time (*the first hour*, *the first 3 days*, *the first of the month*) or of a place or
kind (*the first floor*, *first aid*) is no occasion, while *the first time* a rule names is
(*we waive the fee the first time*; not *for the first time in ten years*); *later*,
*subsequent* and *further* name the occasions from the second on (from the third after *third
and later*), never *later than*, *later on* or *further information*; two ordinals joined
(*second and third permits*) name the occasions between them, and an ordinal opening a text or
a table cell names its occasion (*Permit: Third permit in household*), *first* too when a
label follows (*First brown bin: £55 a year*), and *each extra* or *every additional* thing
names the occasions from the second on (not *each extra hour*, *each additional person*: units
and people are counted, not occasions); *again* is the person's second occasion unless they
state another, *it'll be the second permit* states the second, and so does getting one (*We
want a second brown bin*, *just bought a second car*; not *a second opinion*);
ordinals are read up to the twelfth in words and to 999 in digits; texts are casefolded by the
caller.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["bounds", "stated"]

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
             "tenth", "eleventh", "twelfth")
_ORDINAL = rf"(?:{'|'.join(_ORDINALS[1:])}|\d{{1,3}}(?:nd|rd|th)|\d{{2,3}}st)"  # no "first"
_OWN_ORDINAL = re.compile(rf"\b(?:my|our|his|her|their)\s+(?:very\s+)?(?P<ord>{_ORDINAL})\s+"
                          r"(?!time\b)[a-z][a-z-]*")
_ORDINAL_BOUND = re.compile(rf"\b(?P<words>from|after|starting\s+(?:with|from)|beginning\s+with|"
                            rf"up\s+to|until)\s+(?:and\s+including\s+)?the\s+(?P<ord>{_ORDINAL})"
                            r"(?!\s+(?:of|day|week|month|year|time)\b)")

# The ordinal kind: the occasion the question is about (*my second missed visit*, *my first
# lesson*, *it's the first time*), against the occasions a sentence's rule is for (*The first
# missed appointment is free*, *Later missed appointments cost £55*, *from the third*).
_OWN_OCCASION = re.compile(r"\b(?:my|our|his|her|their)\s+(?:very\s+)?(?P<ord>first)\s+"
                           r"(?!time\b)[a-z][a-z-]*|\b(?:it['’]s|it\s+is|this\s+is|"
                           r"(?:it|this|that)(?:['’]ll|\s+will|\s+would)\s+be|"
                           r"that['’]s|that\s+is)\s+(?:the|my|our|his|her|their)\s+"
                           rf"(?P<time>first|{_ORDINAL})\s+[a-z][a-z-]*"
                           rf"|\b(?:a|for\s+the)\s+(?P<nth>{_ORDINAL})\s+time\b"
                           rf"|\b(?:want|need|have|get|getting|buy|buying|bought|order|ordering|"
                           rf"add|adding|book|booking|rent|renting|hire|hiring)\s+a\s+"
                           rf"(?P<had>{_ORDINAL})\s+(?!(?:opinion|language|hand|thought|"
                           rf"look|chance|time)\b)[a-z][a-z-]*")
_AGAIN = re.compile(r"\bagain\b")  # "now I've dropped it again": the second occasion
# After *first*, a span of time, a place or a kind, not an occasion (*the first hour*, *first aid*)
_NOT_AN_OCCASION = ("of|day|days|week|weeks|month|months|year|years|time|hour|hours|minute|minutes|"
                    "night|nights|page|pages|aid|class|floor|name|names|language|half|quarter|come")
_FIRST_OCCASION = re.compile(rf"\b(?:the|a|your|each)\s+first\s+(?!(?:{_NOT_AN_OCCASION})\b)"
                             r"[a-z][a-z-]*"
                             r"|\bthe\s+first\s+time\b(?!\s+(?:in|since|ever)\b)"
                             rf"|^\s*first\s+(?!(?:{_NOT_AN_OCCASION}|step|steps|thing|things)\b)"
                             r"[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}\s*:")
_PAIRED_OCCASIONS = re.compile(rf"(?:^|[;:.]\s*|\b(?:for|on)\s+)(?P<low>{_ORDINAL})\s+"
                               rf"(?:and|or|to)\s+(?P<high>{_ORDINAL})\s+(?!(?:of|day|days|week|weeks|month|"
                               r"months|year|years|time|hour|hours)\b)[a-z][a-z-]*")
_NTH_OCCASION = re.compile(rf"(?:\b(?:a|the|any|your|each)\s+|^|:\s+)(?P<ord>{_ORDINAL})\s+"
                           r"(?!(?:and|or|of|day|days|week|weeks|month|months|year|years|time|"
                           r"hour|hours|minute|minutes|night|nights|page|pages)\b)[a-z][a-z-]*")
_LATER_OCCASION = re.compile(r"\b(?:(?P<ord>second|third)\s+(?:and|or)\s+)?(?:later|subsequent|"
                             r"further|(?<=each\s)(?:extra|additional)|(?<=every\s)(?:extra|"
                             r"additional))\s+(?!(?:than|on|in|at|to|notice|date|dates|time|times|"
                             r"information|details|questions|charges?|fees?|costs?|hours?|days?|"
                             r"weeks?|months?|years?|nights?|minutes?|person|people|guests?|"
                             r"adults?|child|children|kg|kilo|kilos|mile|miles)\b)[a-z][a-z-]*")


def _ordinal(word: str) -> int:
    return _ORDINALS.index(word) + 1 if word in _ORDINALS else int(word[:-2])


def stated(text: str) -> Iterator[tuple[str, int]]:
    """(kind, value) of each occasion of the person's own ``text`` states: a ``count`` and an
    ``ordinal`` for *my seventh breakdown*, an ``ordinal`` for *my first lesson*, *it's the
    second time*, *this is the second leak*, *a third time*, and 2 for *again* when no other
    occasion is stated."""
    counted = []
    for match in _OWN_ORDINAL.finditer(text):
        counted.append(match.span())
        yield "count", _ordinal(match.group("ord"))
        yield "ordinal", _ordinal(match.group("ord"))
    own = bool(counted)
    for match in _OWN_OCCASION.finditer(text):
        if any(start <= match.end() and match.start() <= end for start, end in counted):
            continue  # "this is my seventh breakdown": read above
        own = True
        yield "ordinal", _ordinal(match.group("ord") or match.group("time") or match.group("nth")
                                  or match.group("had"))
    if not own and _AGAIN.search(text):
        yield "ordinal", 2


def bounds(text: str) -> Iterator[tuple[str, str, int]]:
    """(kind, relation, value) of each bound a sentence sets on occasions: *from the seventh*
    (``>=`` 7, on the ``count`` and the ``ordinal``), *after the third* (``>``), *up to the
    third* (``<=``), *the first …* (``ordinal`` ``==`` 1), *a second …* (``==`` 2), *later …*
    (``ordinal`` ``>=`` 2)."""
    bound_at: list[tuple[int, int]] = []
    for match in _ORDINAL_BOUND.finditer(text):
        bound_at.append(match.span())
        words = re.sub(r"\s+", " ", match.group("words"))
        relation = {"after": ">", "up to": "<=", "until": "<="}.get(words, ">=")
        yield "count", relation, _ordinal(match.group("ord"))
        yield "ordinal", relation, _ordinal(match.group("ord"))
    if _FIRST_OCCASION.search(text):
        yield "ordinal", "==", 1
    for match in _PAIRED_OCCASIONS.finditer(text):  # "second and third permits"
        bound_at.append(match.span())
        yield "ordinal", ">=", _ordinal(match.group("low"))
        yield "ordinal", "<=", _ordinal(match.group("high"))
    for match in _NTH_OCCASION.finditer(text):  # "For a second incident …"
        if not any(start <= match.start() < end for start, end in bound_at):
            yield "ordinal", "==", _ordinal(match.group("ord"))
    for match in _LATER_OCCASION.finditer(text):
        yield "ordinal", ">=", _ordinal(match.group("ord") or "second")
