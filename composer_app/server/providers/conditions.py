"""Conditions a sentence sets on a time, a date, a duration or a count, held against the
situation a question describes.

Rules documents give different answers for different situations: *orders before 11:00* and
*orders after 11:00*, *from April to October* and *from November to March*, *cancelled up to 7
days before* and *less than 7 days before*, *within two months of birth*, *three or more bikes*.
A question often states its situation instead of naming the rule (*I sent it at half past
eleven*, *a Monday in January*, *we cancel three days before*, *born ten weeks ago*, *we're four
people*). ``read`` finds the situation's values in the question and the conditions in the
sentence, and tells whether some condition of the sentence holds for the question's situation
and no kind of condition fails. Conditions of one kind in one sentence are alternatives (*from 1
October to 30 November and from 15 March to 30 April*): the kind holds when any of them does;
but of two durations the first is the condition and a later one what follows from it (*Tell us
within 48 hours of the clean and we will re-clean … within 5 working days*), so only the first
duration of a sentence is read.

The values, each of its own kind (only values of the same kind are compared):

* ``clock``: minutes after midnight (*11:30*, *half past eleven*, *7 pm*, *2 in the morning*);
* ``day``: a day of the year as ``month * 100 + day`` (*15 October*, *mid-February*: the 15th);
  a month alone (*in January*) is the kind ``month``, which a range (*from October to March*)
  or a set of months (*in July and August*; *outside July and August* holds for the others)
  conditions;
* ``ahead`` and ``span``: a duration in minutes, ``ahead`` when the question counts it before an
  event (*three days before moving day*, *in advance*, *my lesson is in 30 hours*, *10 days
  away*; *the evening before* is 13 hours, *the day before* 24, *a week's notice* 7 days),
  ``span`` otherwise (*ten weeks ago*, *for a month*, *three months old*, a thing's *more than 2
  years old*, a delay: *the train got in 40 minutes late*; *on Monday … it's Friday now* is
  four days since), held against the bounds and ranges a sentence sets (*at least 48 hours in
  advance*, *two or more years*, *5 to 10 working days before*);
* ``length``: the length in minutes of a term a question names or states (*my three-year
  contract*, *commit for one year*), held against the terms a sentence names by their length in
  months or years (*on 24-month contracts*, *12- and 24-month plans*; ``term_lengths``): the
  rule is for those lengths alone;
* ``count``: a number of people or things (*four people*, *3 bikes*), or the person's own count
  as an ordinal (*my seventh breakdown*) against the ordinal bounds a sentence sets (*from the
  seventh call-out*, *up to the third*), or one of a pair (*only my left ear*) against a rule for
  both or one (*for both ears*, *if only one ear needs treatment*; ``body_pairs``);
* ``measure:<unit>``: an amount in a unit (*150 pages*, *25 kg*), held against the bands a
  sentence sets on it (*100 pages or more*, *orders of 5 to 19 kg*; ``measures``);
* ``age``: a person's age in years (*I'm 19*, *my son is 10*, *my 8-year-old*), held against
  the ages a sentence about people sets (*under 24*, *aged 6 to 11*, *65 and over*, *must be at
  least 17*, *sixteen-year-olds*; ``ages``);
* ``school_year``: a pupil's school year (*my son is in Year 3*), held against the years a
  sentence names (*Pupils in Year 5 and Year 6*, *Years 3 to 6*, *from Year 7*; ``ages``);
* ``weekday``: a day of the week, 0 (Monday) to 6 (Sunday), and 7 for a public holiday (*on a
  Sunday afternoon*, *this Friday*, *at the weekend*: 5 and 6; *Easter Monday*, *Boxing Day*:
  7), held against the days a sentence names (*on Sundays and public holidays*, *from Monday to
  Thursday*, *on weekdays*, *at weekends*); a rule for those days holds for them whether it
  allows or forbids (*There is no delivery on Saturdays* is the rule for a Saturday), and a day
  the sentence does not name never fails it (*open from Tuesday to Saturday* answers for a
  Monday too: closed), unless the sentence says its days are the only ones (*On Fridays only,
  children may be collected later* fails for a Wednesday: ``week_days.ONLY_DAYS``);
* ``ordinal``: the occasion the question is about (*my second missed visit*, *my first lesson*,
  *it's the first time*), held against the occasions a sentence's rule is for (*The first missed
  appointment is free*, *Later missed appointments cost £55*, *from the third call-out*;
  ``occasions``).

Invariants: a sentence with no condition of a kind the question states is never ``met`` (the
reading depends on the two texts only); a condition is read from words that make it one (*before*,
*after*, *by*, *until*, *within*, *up to*, *at least*, *less than*, *or more*, a range *from … to*;
a date *between* it *and the start of* something is from that date on; a bound an *if* or
*when* clause says is not kept, *If your supply is not restored within 12 hours*, or an *unless*
clause sets, holds on its other side: after 12 hours),
never from a bare value, nor from the dates a document is *valid from* (its own validity, not a
rule); a range may wrap (*23:00 to 8:00*, *November to March*, *Friday to Monday*); a day
counted as a unit (*within two working days*) names no day.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from composer_app.server.providers import ages, body_pairs, measures, occasions, term_lengths
from composer_app.server.providers.clock_times import clock_readings, clock_values, until_tomorrow
from composer_app.server.providers.term_forms import NUMBER_VALUES, number_value
from composer_app.server.providers.week_days import ONLY_DAYS, WEEKDAYS, weekdays_named

__all__ = ["Reading", "addressed", "read", "rules_the_day_part", "same_duration", "situation",
           "states_hours"]

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_MONTH = rf"(?:{'|'.join(MONTHS)})"
_NUMBER = rf"(?:\d{{1,4}}|{'|'.join(sorted(NUMBER_VALUES, key=len, reverse=True))}|an?|one)"
_UNITS = {"minute": 1, "hour": 60, "day": 1440, "night": 1440, "week": 10080, "month": 43800,
          "year": 525600, "working day": 1440, "business day": 1440}
_UNIT = r"(?:working\s+day|business\s+day|minute|hour|day|night|week|month|year)s?"
_AHEAD = r"(?:before|in\s+advance|ahead|prior|beforehand|earlier)"
# Notice given on the day before an event, by the part of that day: *the evening before*.
_EVE = re.compile(r"\bthe\s+(?P<part>morning|afternoon|evening|night|day)\s+before\b"
                  r"(?!\s+yesterday\b)")
_TOMORROW = re.compile(r"\b(?P<after>the\s+day\s+after\s+)?tomorrow(?:['’]s)?\b")
_DAY_PARTS = frozenset(["morning", "mornings", "afternoon", "afternoons", "evening", "evenings"])
_EVE_MINUTES = {"morning": 1440, "day": 1440, "afternoon": 1080, "evening": 780, "night": 600}
# "I went on Monday ... It's Friday now": the days since then. Today is named by "it's", "it is"
# or "today is" before a day of the week, the day it happened by "on" or "last" before one.
_DAYS = "|".join(WEEKDAYS)
_TODAY = re.compile(
    rf"\b(?:it['’]s|it\s+is|today\s+is|today['’]s)\s+(?:now\s+)?(?P<now>{_DAYS})\b")
_PAST_DAY = re.compile(rf"\b(?:on|last)\s+(?P<then>{_DAYS})\b")
# "It's Wednesday … cancel Mum's Thursday care visit", "… my class is on Friday": the days
# until it; a day of the week to come is named before a noun (*Thursday's class*), after *this*,
# *next* or *coming*, or after *is* / *for* with *on* (*booked for Friday*).
_COMING_DAY = re.compile(
    rf"\b(?:(?:this|next|coming)\s+(?P<a>{_DAYS})\b"
    rf"|(?:is|are|'s|’s|for)\s+(?:on\s+)?(?P<b>{_DAYS})\b"
    rf"|(?P<c>{_DAYS})(?:['’]s|\s+(?!(?:and|or|to|until|till|through|now|morning|afternoon|"
    rf"evening|night|mornings|afternoons|evenings|nights|{_DAYS})\b)[a-z]+))")
_DATE = re.compile(
    rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<m>{_MONTH})\b"
    rf"|\b(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b(?!:)"
    rf"|\b(?P<pos>mid|early|late|end\s+of|beginning\s+of|start\s+of)[- ](?:of\s+)?"
    rf"(?P<m3>{_MONTH})\b"
    rf"|\b(?P<m4>{_MONTH})\b")
_DURATION = re.compile(rf"\b(?P<n>{_NUMBER}|half\s+an?)\s+(?P<half>and\s+a\s+half\s+)?"
                       r"(?:or\s+(?P<or>more|longer|less|fewer)\s+)?"
                       rf"(?:(?:whole|full|entire|complete)\s+)?"
                       rf"(?P<unit>{_UNIT})\b"
                       rf"(?=(?P<after>(?:\s+[\w’']+){{0,6}}))")  # read ahead, not taken
# What a rate counts, right before *a week*, *a month* (*days a week*, *twice a month*).
_PER_UNIT = re.compile(r"\b(?:(?:minutes|hours|days|nights|times|sessions|lessons|visits|classes|"
                       r"shifts|meals|trips|journeys)|once|twice)\s+$")
_COUNT = re.compile(rf"\b(?P<n>{_NUMBER})\s+(?P<more>or\s+(?:more|fewer|less)\s+)?"
                    rf"(?:[a-z’'-]+\s+)?(?P<noun>[a-z’'-]+s|people|persons)\b")
_NOT_COUNTED = re.compile(rf"^(?:{_UNIT}|euros?|cents?|dollars?|pounds?|percent|olds?|times|ones|"
                          r"others|kilometres|kilometers|km|metres|meters|kilos|kilograms|litres|"
                          r"liters|pages)$")

# Sentence conditions: (pattern, relation) where relation tells how the question's value must
# stand to the bound: "<", "<=", ">", ">=".
_BEFORE_WORDS = r"(?:before|by|until|till|up\s+to|no\s+later\s+than|not\s+later\s+than)"
_AFTER_WORDS = r"(?:after|from|later\s+than|past|as\s+of|starting)"
_UPPER = r"(?:within|up\s+to|until|no\s+later\s+than|not\s+later\s+than|at\s+most|less\s+than|" \
         r"fewer\s+than|under|younger\s+than|no\s+more\s+than|not\s+more\s+than|maximum\s+of|" \
         r"a\s+maximum\s+of)"
_LOWER = r"(?:more\s+than|over|at\s+least|after|longer\s+than|older\s+than|a\s+minimum\s+of|" \
         r"minimum\s+of|" \
         r"no\s+less\s+than|not\s+less\s+than|from)"


@dataclass(frozen=True, slots=True)
class Reading:
    """Whether a sentence's conditions hold for the question's situation."""

    met: bool  # some condition of a kind the question states holds, and none fails
    failed: bool  # some condition of a kind the question states fails (a weekday only when the
    # sentence's days are the only ones its rule holds on: *On Fridays only, …*)
    kinds: frozenset[str] = frozenset()  # the kinds of those conditions that hold or fail


@dataclass(frozen=True, slots=True)
class _Condition:
    kind: str
    holds: Callable[[int], bool]
    exclusive: bool = False  # days a rule holds on *only* (*On Fridays only, …*): others fail it


def _number(word: str) -> int | None:
    word = word.casefold().strip()
    return 1 if word in ("a", "an", "one") else number_value(word)


def _dates(text: str) -> Iterator[tuple[int, int, str, int]]:
    """(start, end, kind, value) of each date or month in ``text`` (casefolded)."""
    for match in _DATE.finditer(text):
        g = match.groupdict()
        if g["m4"]:
            if g["m4"] == "may" and not re.search(r"\b(?:in|of|from|to|until|since|and|"
                                                 r"through|between|by)\s+$",
                                                 text[max(0, match.start() - 9): match.start()]):
                continue  # "you may ..." is no month
            yield match.start(), match.end(), "month", MONTHS.index(g["m4"]) + 1
            continue
        month = MONTHS.index(g["m"] or g["m2"] or g["m3"]) + 1
        if g["pos"]:
            day = {"mid": 15, "early": 5, "beginning of": 1, "start of": 1}.get(
                re.sub(r"\s+", " ", g["pos"]), 25)
        else:
            day = int(g["d"] or g["d2"])
            if not 1 <= day <= 31:
                continue
        yield match.start(), match.end(), "day", month * 100 + day


def _durations(text: str, aged: bool = True) -> Iterator[tuple[int, int, str, int]]:
    """(start, end, kind, minutes) of each duration in ``text`` (casefolded); *N years old* is
    one only when ``text`` reads no age (not ``aged``: *laptops less than 2 years old*)."""
    for match in _DURATION.finditer(text):
        count = 0.5 if match.group("n").startswith("half") else _number(match.group("n"))
        if count is None:
            continue
        if match.group("half") or re.match(r"\s+and\s+a\s+half\b", text[match.end("unit"):]):
            count += 0.5  # "one and a half hours", "a year and a half"
        unit = re.sub(r"\s+", " ", match.group("unit")).rstrip("s")
        if aged and unit == "year" and re.match(r"[- ]old\b", text[match.end("unit"):]):
            continue  # a person's age (the kind "age")
        if re.fullmatch(r"an?", match.group("n")) and _PER_UNIT.search(text, 0, match.start()):
            continue  # "how many days a week": a rate, not a stretch of time
        until = re.search(r"\b(?:in|within\s+the\s+next)\s+$", text[max(0, match.start() - 20):
                                                                    match.start()])
        notice = re.match(r"['’]s?\s+notice\b", text[match.end("unit"):])  # "a week's notice"
        if re.match(r"\s+(?:late|overdue|behind)\b", match.group("after")):
            until = None  # "the train got in 40 minutes late": a delay, not a time to come
        kind = "ahead" if until or notice or re.match(rf"\s+(?:[\w’']+\s+){{0,5}}?{_AHEAD}\b"
                                                      r"|\s+away\b", match.group("after")) \
            else "span"  # "10 days away from our arrival date": ahead
        yield match.start(), match.end("unit"), kind, int(count * _UNITS[unit])


_DURATION_KINDS = frozenset({"span", "ahead"})


@lru_cache(maxsize=2048)
def situation(question: str) -> dict[str, tuple[int, ...]]:
    """kind -> the values the question states (see the module docstring)."""
    text = question.casefold()
    found: dict[str, list[int]] = {}
    taken: list[tuple[int, int]] = []
    for start, end, readings in clock_readings(text):
        found.setdefault("clock", []).extend(readings)
        taken.append((start, end))
    for start, end, value in ages.stated(text):
        found.setdefault("age", []).append(value)
        taken.append((start, end))
    for start, end, value in ages.stated_school_years(text):
        found.setdefault("school_year", []).append(value)
        taken.append((start, end))
    for start, end, kind, value in _dates(text):
        found.setdefault(kind, []).append(value)
        if kind == "day":
            found.setdefault("month", []).append(value // 100)
        taken.append((start, end))
    for start, end, kind, value in _durations(text):
        found.setdefault(kind, []).append(value)
        if kind == "span":  # "commit for one year": a 12-month contract's length
            found.setdefault("length", []).append(value)
        taken.append((start, end))
    for length in term_lengths.named(text):  # "my three-year contract"
        found.setdefault("length", []).append(length)
    for match in _EVE.finditer(text):  # "it's the evening before now": about half a day ahead
        found.setdefault("ahead", []).append(_EVE_MINUTES[match.group("part")])
    if _EVE.search(text) is None:  # "my delivery is tomorrow": a day ahead
        for match in _TOMORROW.finditer(text):
            found.setdefault("ahead", []).append(
                2880 if match.group("after") else until_tomorrow(text) or 1440)
    today = _TODAY.search(text)
    if today is not None:  # "on Monday … it's Friday now": four days since
        now = WEEKDAYS.index(today.group("now"))
        for match in _PAST_DAY.finditer(text):
            since = (now - WEEKDAYS.index(match.group("then"))) % 7
            if since and match.start() < today.start():
                found.setdefault("span", []).append(since * 1440)
        for match in _COMING_DAY.finditer(text):
            if match.start() < today.end():
                continue
            until = (WEEKDAYS.index(match.group("a") or match.group("b") or match.group("c"))
                     - now) % 7
            if until:
                found.setdefault("ahead", []).append(until * 1440)
    days = weekdays_named(text)
    if days:
        found["weekday"] = sorted(days)
    for start, end, kind, value in measures.asked(text):  # "150 pages", "25 kg"
        found.setdefault(kind, []).append(value)
        taken.append((start, end))
    for match in _COUNT.finditer(text):
        count = _number(match.group("n"))
        if count is None or _NOT_COUNTED.match(match.group("noun")) or \
                any(s < match.end() and match.start() < e for s, e in taken):
            continue
        if re.match(r"[- ]years?[- ]old", text[match.end("n"):]):
            continue
        found.setdefault("count", []).append(count)
    for kind, value in occasions.stated(text):  # "my seventh breakdown", "the first time"
        found.setdefault(kind, []).append(value)
    for value in body_pairs.stated(text):  # "only my left ear"
        found.setdefault("count", []).append(value)
    return {kind: tuple(values) for kind, values in found.items()}


def _relation(relation: str, bound: int) -> Callable[[int], bool]:
    return {"<": lambda v: v < bound, "<=": lambda v: v <= bound, "==": lambda v: v == bound,
            ">": lambda v: v > bound, ">=": lambda v: v >= bound}[relation]


def _within(low: int, high: int) -> Callable[[int], bool]:
    if low <= high:
        return lambda v: low <= v <= high
    return lambda v: v >= low or v <= high  # wraps: 23:00 to 8:00, November to March


def _among(values: frozenset[int], *, excluding: bool) -> Callable[[int], bool]:
    return (lambda v: v not in values) if excluding else values.__contains__


def _relation_of(words: str, upper: str, lower: str, exclusive: tuple[str, ...] = ()) -> str | None:
    words = re.sub(r"\s+", " ", words)
    if re.fullmatch(upper, words):
        return "<" if words in exclusive else "<="
    if re.fullmatch(lower, words):
        return ">" if words in ("more than", "over", "longer than", "later than",
                                "older than") else ">="  # "after 25 years": from 25 years on
    return None


_CLOCK_RANGE = re.compile(
    r"(?:from|between|begins?\s+at|starts?\s+at)?\s*(?P<a>\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)?"
    r"|\d{1,2}:\d{2})\s*(?:to|-|–|and|until|till|and\s+ends?\s+at)\s*"
    r"(?P<b>\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)|\d{1,2}:\d{2})")
_MONTH_RANGE = re.compile(
    rf"\b(?P<a>{_MONTH})\s*(?:to|-|–|until|till|through)\s*(?P<b>{_MONTH})\b"
    rf"|\bbetween\s+(?P<a2>{_MONTH})\s+and\s+(?P<b2>{_MONTH})\b")
# "In July and August", "outside July and August", "except in June, July or August": a set of
# months (one month only after a word that excludes it; "in July" alone places, it sets no rule).
_MONTH_LIST = re.compile(
    rf"\b(?P<lead>outside(?:\s+of)?|except(?:\s+in)?|apart\s+from|in|during)\s+"
    rf"(?P<list>{_MONTH}(?:\s*(?:,|and|or)\s*{_MONTH})*)\b")
_EXCLUDING = ("outside", "except", "apart")
_DAY_RANGE = re.compile(
    rf"\b(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+(?P<m1>{_MONTH}))?\s*(?:to|-|–|until|till|and)\s*"
    rf"(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH})\b")
# A bound in a clause that says it is not kept (*If your supply is not restored within 12 hours,
# we pay you £40*; *unless it is collected by 18:00*): the rule is for the other side of it.
_NOT_KEPT = re.compile(r"(?:\bnot|n['’]t|\bnever|\bfail(?:s|ed)?\s+to)\s+(?:[a-z]+\s+){0,3}$")
_IF_CLAUSE = re.compile(r"\b(?:if|when|where|whenever|should)\b[^,;:.]*$")
_UNLESS = re.compile(r"\bunless\b[^,;:.]*$")
_INVERTED = {"<=": ">", "<": ">=", ">=": "<", ">": "<="}
_SPAN_LOW = re.compile(rf"\b(?:between\s+)?(?P<n>{_NUMBER})\s*(?:to|-|–|and)\s*$")
_VALIDITY = re.compile(r"\b(?:valid|effective|in\s+force)\s+(?:from|as\s+of|until|till)\s+$")
_BEFORE = re.compile(rf"\b(?P<words>{_BEFORE_WORDS}|{_AFTER_WORDS})\s+(?:the\s+)?$")
_OPEN_BETWEEN = re.compile(r"\bbetween\s+(?:the\s+)?$")
_OPEN_END = re.compile(r"\s+and\s+(?:the|your|their|its)\s+(?:start|end|beginning|first|day)\b")


@lru_cache(maxsize=8192)
def _negated(text: str, start: int) -> bool:
    """Whether the bound whose words start at ``start`` is said not to be kept: *not*, *never*
    or *fails to* just before it in an *if* or *when* clause, or an *unless* clause."""
    before = text[max(0, start - 120): start]
    if _UNLESS.search(before):
        return _NOT_KEPT.search(before) is None
    return _NOT_KEPT.search(before) is not None and _IF_CLAUSE.search(before) is not None


def _conditions(sentence: str) -> tuple[_Condition, ...]:
    """The conditions ``sentence`` sets (see the module invariant)."""
    text = sentence.casefold()
    found: list[_Condition] = []
    used: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in used)

    for match in _CLOCK_RANGE.finditer(text):
        a = list(clock_values(match.group("a")))
        b = list(clock_values(match.group("b")))
        if a and b:
            found.append(_Condition("clock", _within(a[0][2], b[0][2])))
            used.append(match.span())
    for match in _MONTH_RANGE.finditer(text):
        low = MONTHS.index(match.group("a") or match.group("a2")) + 1
        high = MONTHS.index(match.group("b") or match.group("b2")) + 1
        found.append(_Condition("month", _within(low, high)))
        used.append(match.span())
    for match in _MONTH_LIST.finditer(text):
        months = frozenset(MONTHS.index(m) + 1 for m in re.findall(_MONTH, match["list"]))
        excluding = match["lead"].startswith(_EXCLUDING)
        if free(*match.span()) and (len(months) > 1 or excluding):
            found.append(_Condition("month", _among(months, excluding=excluding)))
            used.append(match.span())
    for match in _DAY_RANGE.finditer(text):
        if not free(*match.span()):
            continue
        m2 = MONTHS.index(match.group("m2")) + 1
        m1 = MONTHS.index(match.group("m1")) + 1 if match.group("m1") else m2
        found.append(_Condition("day", _within(m1 * 100 + int(match.group("d1")),
                                               m2 * 100 + int(match.group("d2")))))
        used.append(match.span())
    for kind, bounds in (("age", ages.bounds(text)),
                         ("school_year", ages.school_year_bounds(text))):
        for kept, low, high in bounds:
            found.append(_Condition(kind, _within(low, high) if kept == "within"
                                    else _relation(kept, low)))
    named = weekdays_named(text)
    if named:
        found.append(_Condition("weekday", named.__contains__,
                                exclusive=ONLY_DAYS.search(text) is not None))
    points = [(s, e, "clock", v) for s, e, v in clock_values(text)]
    points += [(s, e, k, v) for s, e, k, v in _dates(text) if k == "day"]
    for start, end, kind, value in points:
        if not free(start, end):
            continue
        lead = _BEFORE.search(text[max(0, start - 24): start])
        if lead is None and kind == "day" and _OPEN_END.match(text, end) and \
                _OPEN_BETWEEN.search(text[max(0, start - 12): start]):
            found.append(_Condition(kind, _relation(">=", value)))  # "between 1 August and
            continue  # the start of your contract": from 1 August
        if lead is None or _VALIDITY.search(text[max(0, start - 40): start]):
            continue
        words = re.sub(r"\s+", " ", lead.group("words"))
        point = (("<" if words == "before" else "<=")
                 if re.fullmatch(_BEFORE_WORDS, words) else
                 (">" if words in ("after", "later than", "past") else ">="))
        if _negated(text, max(0, start - 24) + lead.start()):
            point = _INVERTED[point]  # "if it is not collected by 18:00": from 18:00 on
        found.append(_Condition(kind, _relation(point, value)))
    relation: str | None
    spans = list(_durations(text, aged=any(True for _ in ages.bounds(text))))
    for first, second in pairwise(spans):  # "between 6 days and 48 hours before the start"
        if first[2] == second[2] and re.search(r"\bbetween\s+$", text[max(0, first[0] - 10):
                                                                      first[0]]) and \
                re.fullmatch(r"\s+and\s+", text[first[1]:second[0]]):
            found.append(_Condition(first[2], _within(min(first[3], second[3]),
                                                      max(first[3], second[3]))))
            used.extend([first[:2], second[:2]])
    for start, end, kind, minutes in spans:
        if not free(start, end):
            continue
        fewest = _SPAN_LOW.search(text[max(0, start - 24): start])  # "5 to 10 working days"
        low_count = _number(fewest.group("n")) if fewest else None
        if low_count is not None:
            unit_minutes = minutes // max(1, _number(text[start:end].split()[0]) or 1)
            found.append(_Condition(kind, _within(low_count * unit_minutes, minutes)))
            continue
        lead = re.search(rf"\b(?P<words>{_UPPER}|{_LOWER})\s+$", text[max(0, start - 24): start])
        tail = re.match(r"\s+or\s+(?P<words>more|longer|less|fewer|shorter)\b", text[end:]) or \
            re.search(r"\s+or\s+(?P<words>more|longer|less|fewer)\s", text[start:end])
        if lead:
            relation = _relation_of(lead.group("words"), _UPPER, _LOWER,
                                    ("less than", "fewer than", "under", "younger than"))
        elif tail:
            relation = ">=" if tail.group("words") in ("more", "longer") else "<="
        else:
            continue
        if relation is None:
            continue
        if _negated(text, max(0, start - 24) + lead.start() if lead else start):
            relation = _INVERTED[relation]  # "if it is not fixed within 2 days": after 2 days
        elif kind == "ahead" and relation in ("<=", "<") and lead and \
                re.sub(r"\s+", " ", lead.group("words")) in ("up to", "until", "no later than",
                                                             "not later than"):
            relation = ">="  # "cancel up to 7 days before": at 7 days' notice or more
        found.append(_Condition(kind, _relation(relation, minutes)))
        if kind == "span" and term_lengths.states_length(text[max(0, start - 48): start]):
            found.append(_Condition("length", _relation(relation, minutes)))  # "contracts of …"
    lengths = frozenset(term_lengths.named(text))  # "on 24-month contracts": for that length alone
    if lengths:
        found.append(_Condition("length", lengths.__contains__))
    for _, _, kind, relation, value, high in measures.bounds(text):  # "100 pages or more"
        found.append(_Condition(kind, _within(value, high) if relation == "within"
                                else _relation(relation, value)))
    for match in _COUNT.finditer(text):
        counted = _number(match.group("n"))
        if counted is None or _NOT_COUNTED.match(match.group("noun")):
            continue
        lead = re.search(rf"\b(?P<words>{_UPPER}|{_LOWER}|groups\s+of)\s+$",
                         text[max(0, match.start() - 24): match.start()])
        if match.group("more"):
            relation = ">=" if "more" in match.group("more") else "<="
        elif lead and lead.group("words") != "groups of":
            relation = _relation_of(lead.group("words"), _UPPER, _LOWER,
                                    ("less than", "fewer than", "under", "younger than"))
        else:
            continue
        if relation is not None:
            found.append(_Condition("count", _relation(relation, counted)))
    for kind, relation, value in occasions.bounds(text):  # "from the seventh call-out"
        found.append(_Condition(kind, _relation(relation, value)))
    for value in body_pairs.bounds(text):  # "for both ears", "if only one ear needs treatment"
        found.append(_Condition("count", _relation("==", value)))
    return tuple(found)


@lru_cache(maxsize=8192)
def read(question: str, sentence: str) -> Reading:
    """Whether the conditions of ``sentence`` hold for the situation ``question`` states (see
    the module invariant)."""
    asked = situation(question)
    if not asked:
        return Reading(False, False)
    held: dict[str, bool] = {}
    conditions = _conditions(sentence)
    for condition in conditions:
        values = asked.get(condition.kind)
        if condition.kind in _DURATION_KINDS and condition.kind in held:
            continue  # a later duration is what follows from the first
        if values:
            held[condition.kind] = held.get(condition.kind, False) or \
                any(condition.holds(v) for v in values)
    exclusive = any(c.kind == "weekday" and c.exclusive for c in conditions)
    met = any(held.values())
    failed = any(not holds for kind, holds in held.items() if kind != "weekday" or exclusive)
    kinds = frozenset(kind for kind, holds in held.items()
                      if holds or kind != "weekday" or exclusive)
    return Reading(met and not failed, failed, kinds)


def rules_the_day_part(question: str, word: str, sentence: str) -> bool:
    """Whether ``word`` is a part of the day (*afternoon*) whose whole day the sentence's rule for
    a day of the week covers, holding for the day the question names (*on a Sunday afternoon*:
    *On Sundays, power tools must not be used*), or a month or a day of the week the question
    names that a rule of the sentence covers (*in December*: *From October to March …*; *on a
    Wednesday*: *Monday to Friday*)."""
    word = word.casefold()
    kind = "weekday" if word in _DAY_PARTS or word in WEEKDAYS else \
        "month" if word in MONTHS else None
    if kind is None:
        return False
    reading = read(question, sentence)
    return reading.met and kind in reading.kinds


_HOURS_WORDS = frozenset(["open", "opens", "opening", "close", "closes", "closing", "shut",
                          "shuts"])


def states_hours(word: str, sentence: str) -> bool:
    """Whether ``word`` asks when something opens or closes (*What time does the cemetery
    close?*) and ``sentence`` states opening hours as a span of clock times (*they are open daily
    from 8:00 to 17:00*): the span says both when it opens and when it closes."""
    if word.casefold() not in _HOURS_WORDS:
        return False
    text = sentence.casefold()
    return _CLOCK_RANGE.search(text) is not None and \
        not _HOURS_WORDS.isdisjoint(re.findall(r"[a-z]+", text))


@lru_cache(maxsize=2048)
def _number_kinds(question: str, number: str) -> frozenset[str]:
    """The kinds of situation value the question's ``number`` is part of."""
    text = question.casefold()
    kinds = {kind for start, end, kind, _ in _durations(text) if number in text[start:end]}
    kinds |= {"clock" for start, end, _ in clock_values(text) if number in text[start:end]}
    kinds |= {kind for start, end, kind, _ in _dates(text) if number in text[start:end]}
    kinds |= {kind for start, end, kind, _ in measures.asked(text) if number in text[start:end]}
    if not kinds and "count" in situation(question):
        kinds = {"count"}
    return frozenset(kinds)


# A price or a limit per span of time, which applies to any duration in that unit.
_RATE = re.compile(r"\bper\s+(?:started\s+|begun\s+|commenced\s+|additional\s+|extra\s+|"
                   r"further\s+)?(?:\d+\s+|half\s+an?\s+)?(?:minute|hour|day|night|week|month)s?\b")


def addressed(question: str, number: str, sentence: str) -> bool:
    """Whether ``sentence`` sets a condition on the value the question's ``number`` states
    (*three months old* against *at least 16 weeks old*, held or not), or a rate per span of time
    for a duration it states (*20 minutes after closing time*: *10 euros per started 15
    minutes*): the sentence then speaks to that number even without repeating it."""
    kinds = _number_kinds(question, number)
    if kinds & {"ahead", "span"} and _RATE.search(sentence.casefold()):
        return True  # "20 minutes late": "10 euros per started 15 minutes"
    return bool(kinds) and any(c.kind in kinds for c in _conditions(sentence))


def same_duration(question: str, word: str, sentence: str) -> bool:
    """Whether ``sentence`` states, in other units, a duration of the question that is written
    with ``word`` (*a whole year* against *12 months*, *two weeks* against *14 days*)."""
    wanted = _durations_with(question.casefold(), word.casefold())
    if not wanted:
        return False
    return any(minutes in wanted for _, _, _, minutes in _durations(sentence.casefold()))


@lru_cache(maxsize=2048)
def _durations_with(text: str, word: str) -> frozenset[int]:
    return frozenset(minutes for start, end, _, minutes in _durations(text)
                     if re.search(rf"\b{re.escape(word)}\b", text[start:end]))
