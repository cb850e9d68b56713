"""A person's age in a question's situation, and the ages a sentence's rule holds for; a
pupil's school year, the age group of schools, likewise.

Rules about people change with their age: *Children under 6 eat free*, *aged 6 to 11*, *65 and
over*, *You must be at least 17 to book the Basic Rider Day*, *Sixteen-year-olds can only take
the Moped Starter course*. A question states the age of the person it is about (*I'm 19*, *my
son is 10*, *my 8-year-old*, *a ten-year-old dog*); ``conditions`` holds the two against each
other as the kind ``age``.

Invariants: an age is read from a question only as a person's (*I'm 19*, *my son is 10*) or as
*N-year-old*, never from a bare number, nor from one followed by a unit of time, money or
measure (*I'm 5 minutes late*); a sentence sets an age bound only with words that make it one
(*under*, *aged … to …*, *… and over*, *at least*; not *at least 2 years* without *old* or *of
age*, a stretch of time) in a sentence about people or ages, or as a
requirement on the person addressed (*must be at least 17*, *must be 18 or over*, *if you are
under 18*), or as a group of one age
(*sixteen-year-olds*, not the upper end of *14 to 16-year-olds*) or of all ages beyond a bound
(*under-18s*: under 18, *over-65s*: 65 and over), or as the ages an age group is named with in
brackets, in a text about ages or the young (*Toddlers (2 years)*, *Pre-school (3 and 4
years)*); ages are whole years up to 120; ``age_bound`` holds a question's stated age against every
age bound of a sentence (held when any bound holds).
A school year (*my son is in Year 3*, *my Year 7 class*) is read only as *Year* and a number up
to 13, and held against the school years a sentence names (*Pupils in Year 5 and Year 6*, *Years
3 to 6*, *from Year 7*, *up to Year 4*) as the kind ``school_year``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from composer_app.server.providers.term_forms import NUMBER_VALUES, number_value

_WORDS = "|".join(sorted(NUMBER_VALUES, key=len, reverse=True))
_TIME_UNIT = r"(?:working\s+day|business\s+day|minute|hour|day|night|week|month|year)s?"
_PERSON = (r"(?:i|he|she|we|they|son|daughter|child|kid|boy|girl|grandson|granddaughter|"
           r"nephew|niece|brother|sister|wife|husband|partner|friend|mother|father|mum|mom|dad)")
_NOT_YEARS = (rf"(?![:.,]\d)(?!\s*(?:%|percent|euros?|cents?|{_TIME_UNIT}|km|kg|cm|people|persons|"
              r"of\b|times|in\b|o['’]clock|am\b|pm\b|a\.m|p\.m))")
_STATED = re.compile(
    rf"\b{_PERSON}(?:['’]s|['’]m|\s+is|\s+am|\s+are|\s+was|(?:\s+has|\s+have|['’]s|['’]ve)?"
    rf"(?:\s+just)?\s+turned|\s+turns)\s+(?:now\s+|just\s+)?"
    rf"(?P<n>\d{{1,3}}|{_WORDS}){_NOT_YEARS}\b"
    rf"|\b(?P<n2>\d{{1,3}}|{_WORDS})[- ]years?[- ]olds?\b")
_RANGE = re.compile(r"\b(?:aged|ages?)\s+(?P<a>\d{1,3})\s*(?:to|-|–|and|until|or)\s*"
                    r"(?P<b>\d{1,3})\b"
                    r"|\b(?P<a2>\d{1,3})\s*(?:to|-|–)\s*(?P<b2>\d{1,3})[- ]years?[- ]olds?\b")
# "Toddlers (2 years)", "Pre-school (3 and 4 years)": an age group named with its ages, in a
# text about ages or the young (not "Contract: fixed (3 years)").
_GROUP_AGES = re.compile(r"\((?P<a>\d{1,2})(?:\s*(?:to|-|–|and)\s*(?P<b>\d{1,2}))?\s+years?"
                         r"(?:\s+old)?\)")
_ABOUT_AGE_GROUPS = re.compile(r"\b(?:age|ages|aged|babies|baby|toddlers?|infants?|children|"
                               r"child|kids|juniors?|pre-?school|teens|teenagers|youths?)\b")
_LOWER = re.compile(r"\b(?:aged\s+|age\s+of\s+)?(?P<n>\d{1,3})\s*(?:\+|(?:years\s+)?"
                    r"(?:or|and)\s+(?:older|over|above)\b)"
                    r"|\b(?:from\s+the\s+age\s+of|older\s+than|over\s+the\s+age\s+of)\s+"
                    r"(?P<n2>\d{1,3})(?:\s+years)?(?=\s+(?:old|of\s+age)|[,;.]|\s)"
                    # "at least 2 years" alone is a stretch of time (*held a licence for at least
                    # 2 years*); "at least 16 years old" and "at least 16" are ages
                    r"|\bat\s+least\s+(?P<n3>\d{1,3})(?:\s+years(?=\s+(?:old|of\s+age)))?"
                    r"(?!\s+years?\b)(?=\s+(?:old|of\s+age)|[,;.]|\s)")
_UPPER = re.compile(r"\b(?:under|below|younger\s+than|up\s+to\s+the\s+age\s+of|"
                    r"under\s+the\s+age\s+of)\s+(?P<n>\d{1,3})(?:\s+years?(?:\s+old)?)?" +
                    _NOT_YEARS + r"\b")
# "You must be at least 17 to book": a bound on the person addressed, with words about age or
# without; "Sixteen-year-olds can only …": the group of one age.
_REQUIRED = re.compile(r"\b(?:(?:must|should|need\s+to|needs\s+to|have\s+to|has\s+to)\s+be|"
                       r"(?:if|when|while|once)\s+(?:you|they|he|she)(?:\s+are|['’]re|\s+is))\s+"
                       r"(?P<words>at\s+least|over|under|older\s+than|younger\s+than|aged)\s+"
                       r"(?P<n>\d{1,3})" + _NOT_YEARS + r"\b")
_REQUIRED_OR = re.compile(r"\b(?:must|should|need\s+to|needs\s+to|have\s+to|has\s+to)\s+be\s+"
                          r"(?:aged\s+)?(?P<n>\d{1,3})\s+(?:years\s+)?(?:or|and)\s+"
                          r"(?P<side>over|older|above|under|younger)\b")
_REQUIRED_RELATION = {"at least": ">=", "aged": ">=", "over": ">", "older than": ">",
                      "under": "<", "younger than": "<"}
_GROUP = re.compile(rf"(?<![\w–-])(?<!to\s)(?<!and\s)(?<!or\s)"
                    rf"(?P<n>\d{{1,3}}|{_WORDS})[- ]years?[- ]olds\b")
# "Under-18s cannot …", "over-65s travel free": a group named by an age bound, in the plural.
_BOUND_GROUP = re.compile(r"\b(?P<rel>under|over)[- ](?P<n>\d{1,3})s\b")
_ABOUT_AGE = re.compile(r"\b(?:aged?|ages|years?|old|older|younger|children|child|kids|adults?|"
                        r"juniors?|seniors?|persons?|people|pupils|students|riders|players|"
                        r"applicants|visitors|guests|members|teenagers|minors|babies|infants|clients|"
                        r"patients|customers|passengers|participants|residents|drivers|"
                        r"candidates|learners|swimmers|campers|trainees|teens|youths|boys|girls|"
                        r"anyone|everyone|those)\b")


def stated(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, years) of each person's age ``text`` (casefolded) states."""
    for match in _STATED.finditer(text):
        years = number_value(match.group("n") or match.group("n2") or "")
        if years is not None and years <= 120:
            yield match.start(), match.end(), years


def bounds(text: str) -> Iterator[tuple[str, int, int]]:
    """(relation, value, high) of each age bound ``text`` (casefolded) sets: ``relation`` is
    ``<``, ``>``, ``>=`` on ``value``, or ``within`` ``value`` and ``high``."""
    if _ABOUT_AGE.search(text):
        for match in _RANGE.finditer(text):
            low = int(match.group("a") or match.group("a2"))
            high = int(match.group("b") or match.group("b2"))
            yield "within", low, high
        for match in _LOWER.finditer(text):
            bound = int(match.group("n") or match.group("n2") or match.group("n3"))
            yield ">=", bound, bound
        for match in _UPPER.finditer(text):
            yield "<", int(match.group("n")), int(match.group("n"))
        for match in _GROUP_AGES.finditer(text) if _ABOUT_AGE_GROUPS.search(text) else ():
            low = int(match.group("a"))
            yield "within", low, int(match.group("b") or low)
    for match in _REQUIRED.finditer(text):
        relation = _REQUIRED_RELATION[re.sub(r"\s+", " ", match.group("words"))]
        yield relation, int(match.group("n")), int(match.group("n"))
    if not _ABOUT_AGE.search(text):  # "You must be 18 or over … to join"
        for match in _REQUIRED_OR.finditer(text):
            side = ">=" if match.group("side") in ("over", "older", "above") else "<="
            yield side, int(match.group("n")), int(match.group("n"))
    for match in _BOUND_GROUP.finditer(text):
        yield ("<" if match.group("rel") == "under" else ">="), int(match.group("n")), \
            int(match.group("n"))
    for match in _GROUP.finditer(text):
        years = number_value(match.group("n"))
        if years is not None:
            yield "within", years, years


_HOLDS = {"<": lambda v, low, high: v < low, "<=": lambda v, low, high: v <= low,
          ">": lambda v, low, high: v > low, ">=": lambda v, low, high: v >= low,
          "within": lambda v, low, high: low <= v <= high}


def age_bound(question: str, number: str, sentence: str) -> bool | None:
    """Whether an age bound of ``sentence`` holds for the age the question's ``number`` states
    (*I'm 82* against *aged 50 to 80*: ``False``), or ``None`` when the number states no
    person's age or the sentence sets no bound on age."""
    years = _stated_years(question, number)
    if not years:
        return None
    found = list(bounds(sentence.casefold()))
    if not found:
        return None
    return any(_HOLDS[relation](y, low, high) for relation, low, high in found for y in years)


@lru_cache(maxsize=256)
def _stated_years(question: str, number: str) -> tuple[int, ...]:
    text = question.casefold()
    return tuple(value for start, end, value in stated(text) if number in text[start:end])


_SCHOOL_YEAR = r"years?\s+(?P<{0}>1[0-3]|[1-9])(?!\d|[.,:]\d|\s*(?:%|euros?|pounds?|£|€))"
_STATED_SCHOOL_YEAR = re.compile(r"\b" + _SCHOOL_YEAR.format("n"))
_SCHOOL_YEARS = re.compile(
    r"\b(?P<lead>from|up\s+to|until|below|above)?\s*" + _SCHOOL_YEAR.format("a") +
    r"(?:\s*(?:to|-|–)\s*(?:year\s+)?(?P<b>1[0-3]|[1-9])\b"
    r"|(?P<more>(?:\s*(?:,|and|or)\s*(?:year\s+)?(?:1[0-3]|[1-9])\b)+)"
    r"|\s+(?P<tail>and\s+(?:above|over|up|older|below|under|younger)))?")


def stated_school_years(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, year) of each school year ``text`` (casefolded) states (*in year 3*)."""
    for match in _STATED_SCHOOL_YEAR.finditer(text):
        yield match.start(), match.end(), int(match.group("n"))


def school_year_bounds(text: str) -> Iterator[tuple[str, int, int]]:
    """(relation, value, high) of each set of school years ``text`` (casefolded) names, as
    ``bounds`` gives ages; a list of years (*year 5 and year 6*) is ``within`` its lowest and
    highest only when they follow each other."""
    for match in _SCHOOL_YEARS.finditer(text):
        first = int(match.group("a"))
        lead = re.sub(r"\s+", " ", match.group("lead") or "")
        tail = match.group("tail") or ""
        if match.group("b"):
            yield "within", first, int(match.group("b"))
        elif match.group("more"):
            years = sorted({first, *(int(n) for n in re.findall(r"\d+", match.group("more")))})
            if years == list(range(years[0], years[-1] + 1)):
                yield "within", years[0], years[-1]
        elif lead == "from" or tail.split()[-1:] in (["above"], ["over"], ["up"], ["older"]):
            yield ">=", first, first
        elif lead in ("up to", "until") or tail.split()[-1:] in (["below"], ["under"],
                                                                 ["younger"]):
            yield "<=", first, first
        elif lead in ("below", "above"):
            yield ("<" if lead == "below" else ">"), first, first
        else:
            yield "within", first, first
