"""Qualifiers that set one group of people, days or systems apart from another.

Rules documents answer the same question differently for different groups: *new* and *regular*
members, *adults* and *children*, the *test* and the *live* system, the *primary* and the
*secondary* site, *weekdays*, *Saturdays* and *public holidays*, *e-bikes* and standard bikes,
*single* and *return* tickets, *cars* and *vans*, *check-in* and *check-out*, *during* and
*outside office hours*. A sentence about
another group than the one asked about is a near miss, however many of the question's other
words it shares.
Each ``GROUPS`` entry is one such dimension; its *classes* exclude each other, and a class may
be *covered* by a wider one of the same dimension (*Saturday* by *weekend*, *Monday* by
*weekday*).

For a question and a sentence, per dimension the question names:

* the sentence *matches* when it names the question's class, a class that covers it, a class it
  covers, or (days) a range of days that includes it (*Monday to Saturday*);
* the sentence is *contrasted* when it names only other classes of that dimension, unless it
  restricts its rule to them with *only* (*only on Friday and Saturday nights* answers for a
  Wednesday too: not then).

Invariants: classes are matched on whole words of the casefolded text (``non-members`` is never
``members``), and *guest*, *member* and *resident* never as the first word of a compound naming
a thing (``guest rooms``, ``member area``, ``resident parking``; but ``adult cards`` are the
adults' own), *car* never before a word for a place or thing of its own (``car park``, ``car
seat``), and *new* only before a word for people (*new members*, *new customers*) or when
someone is said to be new (*I'm new here*), never for a thing (*a new skin test*); a sentence
that names no class of a dimension is neither matched nor contrasted there (a general rule may
still apply to everyone); results depend only on the two texts. Besides
class words, an age in years (*my 8-year-old*) names the child, adult or senior class, a person's
stated age (*my daughter is 12*: ``conditions.situation``) the child or senior class, an age
bound at most the age of majority (*under 16*, *aged 6 to 14*) the child class, and a
visit *before* (*I've been there before*) or a *first visit* names the regular or new class;
a month the question names (*in January*, *during July*) its winter or summer class, in the
question only (a sentence's month is a date, for ``conditions``) and only against a sentence
that says *winter* or *summer* (a document's high or low season is its own, and a table without
the dates of its periods keeps both); a time offices are shut (*night*, *Sunday*, *a bank
holiday*, *11pm*) the out-of-hours class, in the question only and only against a sentence that
says *during office hours* or *outside office hours*.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from composer_app.server.providers.conditions import situation
from composer_app.server.providers.term_forms import NUMBER_VALUES
from composer_app.server.providers.week_days import WEEKDAYS

__all__ = ["Reading", "read"]



def _words(text: str) -> str:
    """A pattern for any of the whitespace-separated words or hyphenated phrases of ``text``."""
    return "|".join(re.escape(w).replace(r"\-", "[- ]") for w in text.split())


# dimension -> class -> (pattern words, the classes covering it)
_CLASSES: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "day": {
        **{day: (f"{day} {day}s", ("weekday",) if day not in ("saturday", "sunday")
                 else ("weekend",)) for day in WEEKDAYS},
        "weekday": ("weekday weekdays workday workdays working-day working-days", ()),
        "weekend": ("weekend weekends", ()),
        "holiday": ("public-holiday public-holidays bank-holiday bank-holidays easter-monday "
                    "good-friday christmas-day boxing-day", ()),
    },
    "age": {
        "adult": ("adult adults grown-up grown-ups working-age", ()),
        "child": ("child children kid kids junior juniors youth youths "
                  "teenager teenagers young-people", ()),
        "senior": ("senior seniors pensioner pensioners retiree retirees elderly pension-age "
                   "pensionable-age", ()),
        "student": ("student students trainee trainees apprentice apprentices at-university "
                    "at-uni at-college", ()),
    },
    "tenure": {
        "new": ("new newcomer newcomers first-time beginner beginners novice novices", ()),
        "regular": ("regular regulars existing returning experienced", ()),
    },
    "system": {
        "test": ("test testing staging sandbox", ()),
        "live": ("live production", ()),
    },
    "site": {
        "primary": ("primary", ()),
        "secondary": ("secondary backup standby replica", ()),
    },
    "membership": {
        "member": ("member members", ()),
        "outsider": ("non-member non-members nonmember nonmembers guest guests not-a-member "
                     "not-members visiting", ()),
    },
    "customer": {
        "private": ("resident residents household households private-customer "
                    "private-customers private-individual private-individuals", ()),
        "business": ("business businesses company companies firm firms commercial trader "
                     "traders business-customer business-customers", ()),
    },
    "party": {
        "individual": ("individual individuals single-person one-person private-lesson "
                       "private-lessons one-to-one", ()),
        "group": ("group groups", ()),
    },
    "place": {
        "indoor": ("indoor indoors inside", ()),
        "outdoor": ("outdoor outdoors outside open-air", ()),
    },
    "season": {
        "summer": ("summer high-season peak-season", ()),
        "winter": ("winter low-season off-season off-peak", ()),
    },
    "house": {
        "detached": ("detached", ()),
        "semi-detached": ("semi-detached semi", ()),
        "terraced": ("terraced terrace mid-terrace end-of-terrace", ()),
    },
    "employment": {
        "employee": ("employee employees staff staff-member staff-members", ()),
        "contractor": ("contractor contractors temp temps temporary-worker temporary-workers "
                       "agency-worker agency-workers freelancer freelancers", ()),
    },
    "hours": {
        "full-time": ("full-time", ()),
        "part-time": ("part-time", ()),
    },
    "reach": {
        "domestic": ("domestic inland nationwide", ()),
        "international": ("international overseas abroad worldwide", ()),
    },
    "bike": {
        "electric": ("e-bike e-bikes ebike ebikes electric-bike electric-bikes pedelec pedelecs",
                     ()),
        "pedal": ("standard-bike standard-bikes pedal-bike pedal-bikes push-bike push-bikes "
                  "regular-bike regular-bikes ordinary-bike ordinary-bikes", ()),
    },
    "journey": {
        "single": ("single-ticket single-tickets single-fare single-fares single-journey "
                   "single-journeys one-way", ()),
        "return": ("return-ticket return-tickets return-fare return-fares return-journey "
                   "return-journeys day-return day-returns", ()),
    },
    "vehicle": {
        "car": ("car cars", ()),
        "van": ("van vans minibus minibuses", ()),
        "motorbike": ("motorbike motorbikes motorcycle motorcycles moped mopeds", ()),
    },
    "stay": {
        "arrival": ("check-in check-ins checkin arrival arrivals", ()),
        "departure": ("check-out check-outs checkout departure departures", ()),
    },
    "attendance": {
        "in-hours": ("during-office-hours in-office-hours within-office-hours "
                     "during-working-hours during-business-hours during-opening-hours in-hours",
                     ()),
        "out-of-hours": ("outside-office-hours outside-working-hours outside-business-hours "
                         "outside-opening-hours outside-normal-hours out-of-hours after-hours",
                         ()),
    },
    "daytime": {
        "morning": ("morning mornings", ()),
        "afternoon": ("afternoon afternoons", ()),
        "evening": ("evening evenings", ()),
    },
}
_CLASS_OF = {word: (dimension, name)
             for dimension, classes in _CLASSES.items() for name, spec in classes.items()
             for word in spec[0].split()}  # "non-member" -> ("membership", "outsider")
_ANY = re.compile(r"(?<![\w-])(?:" + _words(" ".join(sorted(_CLASS_OF, key=len, reverse=True)))
                  + r")(?![\w-])")  # one scan finds every class word, longest first
_COMPOUND = re.compile(r"[- ](?:rooms?|houses?|cards?|lists?|books?|beds?|apartments?|suites?|"
                       r"toilets?|bathrooms?|wifi|wi-fi|networks?|accounts?|areas?|portal|"
                       r"numbers?|ids?|login|logins|parking|permits?)\b")
_CAR_THING = re.compile(r"[- ](?:parks?|parking|wash|washes|seats?|clubs?|shares?|sharing|boots?|"
                        r"keys?|sick|sickness|alarms?)\b")
_NEW_PERSON = re.compile(
    r"\s+(?:[a-z]+\s+)?(?:members?|customers?|clients?|employees?|staff|starters?|hires?|"
    r"joiners?|students?|pupils?|patients?|users?|subscribers?|tenants?|residents?|guests?|"
    r"riders?|players?|singers?|runners?|drivers?|volunteers?|participants?|learners?|parents?|"
    r"owners?|visitors?|colleagues?|recruits?|entrants?|applicants?|dogs?|puppy|puppies|"
    r"child|children|kids?|famil(?:y|ies)|people|persons?|arrivals?|beginners?|trainees?|"
    r"apprentices?|ones)\b|\s*(?:[.,;:!?)]|$|\s+(?:here|to\b))")
_NEW_STATED = re.compile(r"(?:\b(?:am|is|are|was|were|be|been)|['’](?:m|re|s))\s+(?:still\s+)?$")
# Someone outside a scheme (*I'm not on the Health Plan*, *we don't have a membership*, *for other
# clients* after the members' rule): an outsider, as *non-members* are.
_OUTSIDE = re.compile(
    r"(?:\bnot|n['’]t|\bnever)\s+(?:been\s+|yet\s+)?(?:on|in|with|part\s+of|signed\s+up\s+(?:to|for)|"
    r"enrolled\s+(?:in|on)|subscribed\s+to|registered\s+(?:with|for|on)|covered\s+by|"
    r"a\s+member\s+of|have\s+(?:a|an|any)|got\s+(?:a|an|any))\s+(?:the\s+|a\s+|an\s+|any\s+|our\s+|"
    r"your\s+)?(?:[a-z&'’-]+\s+){0,3}?(?:plan|scheme|club|programme|program|membership|"
    r"subscription|loyalty\s+card)\b|\bwithout\s+(?:a\s+|any\s+)?membership\b|"
    r"\bfor\s+(?:all\s+)?other\s+(?:clients|customers|patients|owners|users|people)\b")
_DAY = f"({'|'.join(WEEKDAYS)})s?"
_RANGE = re.compile(rf"\b{_DAY}\s*(?:to|-|–|until|through)\s*{_DAY}\b")
ADULT_AGE = 18
SENIOR_AGE = 65
_AGE = re.compile(rf"\b(\d{{1,3}}|{'|'.join(NUMBER_VALUES)})[- ]years?[- ]olds?\b")
# An age bound that names children: "under 16" (not "under 27", a student's), "aged 6 to 14".
_YOUNG = re.compile(r"\b(?:under|below|younger\s+than|up\s+to\s+the\s+age\s+of)\s+(?P<n>\d{1,2})"
                    r"(?!\s*(?:%|percent|euros?|kg|km|minutes?|hours?|days?|weeks?|months?|cm|m)\b)"
                    r"(?![\d.,]|:\d)|\baged\s+\d{1,2}\s*(?:to|-|–)\s*(?P<n2>\d{1,2})\b")
_TENURE = {
    "regular": re.compile(r"\b(?:been|come|visited|used)\b[^.?!]{0,40}\b(?P<word>before)\b"),
    "new": re.compile(r"\b(?P<word>first[- ]time|first visit|never been|never visited)\b"
                      r"|\b(?:my|your|our|their|his|her|the)\s+(?P<first>first)\s+(?:[a-z]+\s+)?"
                      r"(?:visit|appointment|treatment|lesson|session|order|booking|stay|class|"
                      r"course|trip|purchase|rental|ride|consultation|check-up)s?\b"),
}


@dataclass(frozen=True, slots=True)
class Reading:
    """What a sentence says about the question's qualifiers."""

    matched: frozenset[str]  # the question's qualifier words the sentence answers for
    contrasted: bool  # it names only other classes of some dimension the question names


# Numbered levels of one thing (*Level 3*, *Band 2*, *Zone 1*, *Tier B*): each number a class of
# the dimension its word names; a bound (*level 4 or above*, *at least level 2*) names none.
_LABEL = re.compile(r"(?<!least\s)(?<!minimum\s)\b(?P<kind>level|band|tier|zone|stage|phase|module|"
                    r"platform|gate|terminal)\s+(?P<n>\d{1,3}|[a-d])\b(?![.,:]\d)"
                    r"(?!\s+(?:or|and)\s+(?:above|higher|better|over|more|below|lower|under)\b)"
                    r"(?!\s*(?:to|-|–)\s*\d)")


@lru_cache(maxsize=4096)
def _classes(text: str) -> dict[str, dict[str, str]]:
    """dimension -> class -> the first word of ``text`` naming it."""
    lowered = text.casefold()
    found: dict[str, dict[str, str]] = {}
    for match in _ANY.finditer(lowered):
        word = match.group(0)
        if word.startswith(("guest", "member", "resident")) and \
                _COMPOUND.match(lowered, match.end()):
            continue  # "guest rooms", "member area": a thing, not a group
        if word in ("car", "cars") and _CAR_THING.match(lowered, match.end()):
            continue  # "car park", "car seat": a place or a thing, not the vehicle hired
        if word == "new" and not _NEW_PERSON.match(lowered, match.end()) and \
                not _NEW_STATED.search(lowered, 0, match.start()):
            continue  # "a new skin test", "the new route": a thing, not the newcomers
        dimension, name = _CLASS_OF[word.replace(" ", "-")]
        found.setdefault(dimension, {}).setdefault(name, word)
    outside = _OUTSIDE.search(lowered)
    if outside:  # "not on the Health Plan": outside it
        found.setdefault("membership", {}).setdefault("outsider", outside.group(0))
    for first, last in _RANGE.findall(lowered):
        start, end = WEEKDAYS.index(first), WEEKDAYS.index(last)
        for day in WEEKDAYS[start:end + 1] if start <= end else ():
            found.setdefault("day", {}).setdefault(day, first)
    for match in _AGE.finditer(lowered):  # "my 8-year-old": a child
        word = match.group(1)
        years = NUMBER_VALUES[word] if word in NUMBER_VALUES else int(word)
        name = "child" if years < ADULT_AGE else "senior" if years >= SENIOR_AGE else "adult"
        found.setdefault("age", {}).setdefault(name, match.group(0))
    for years in situation(text).get("age", ()):  # "My daughter is 12": a child (an adult's
        if years < ADULT_AGE or years >= SENIOR_AGE:  # age names no group: "I'm 22" may study)
            name = "child" if years < ADULT_AGE else "senior"
            found.setdefault("age", {}).setdefault(name, str(years))
    for match in _YOUNG.finditer(lowered):  # "Under 16: 17 euros": children
        if int(match.group("n") or match.group("n2")) <= ADULT_AGE:
            found.setdefault("age", {}).setdefault("child", match.group(0))
    for match in _LABEL.finditer(lowered):  # "the Level 3 course": one of the numbered levels
        found.setdefault(f"label:{match.group('kind')}", {}).setdefault(match.group("n"),
                                                                          match.group(0))
    for name, pattern in _TENURE.items():  # "I've been there before": a regular
        visit = pattern.search(lowered)
        if visit:
            word = visit.group("word") or visit.groupdict().get("first") or "first"
            found.setdefault("tenure", {}).setdefault(name, word)
    return found


def _only(sentence: str, words: Iterable[str]) -> bool:
    """Whether ``sentence`` restricts its rule to the classes it names with *only* (*only on
    Friday and Saturday nights*, *adults only*): the rule then answers for every other class
    too, by leaving it out."""
    lowered = sentence.casefold()
    return any(re.search(rf"\bonly(?:\s+[\w-]+){{0,3}}?\s+{re.escape(word)}|"
                         rf"\b{re.escape(word)}\w*\s+only\b", lowered) for word in words)


def _related(dimension: str, asked: str, named: str) -> bool:
    """Whether class ``named`` answers for class ``asked`` (the same, or one covers the other)."""
    if dimension not in _CLASSES:  # a numbered label: only the same number
        return asked == named
    classes = _CLASSES[dimension]
    return asked == named or named in classes[asked][1] or asked in classes[named][1]


# A month a question names is in the season a sentence may name instead (*We're visiting in
# January*: *In winter the last full loop leaves at 16:30*); spring and autumn months name none.
_SEASON_OF = {**dict.fromkeys(("december", "january", "february"), "winter"),
              **dict.fromkeys(("june", "july", "august"), "summer")}
_MONTH = re.compile(r"\b(?:in|during|for|this|next|early|late|mid)[- ](" +
                    "|".join(_SEASON_OF) + r")\b")


# A time when offices are shut (*late on a Sunday night*, *at 11pm*, *on a bank holiday*): out of
# hours, in the question only and only against a sentence that says in or out of hours.
_SHUT = re.compile(r"\b(?:nights?|overnight|midnight|sundays?|weekends?|bank[- ]holidays?|"
                   r"public[- ]holidays?|christmas\s+day|boxing\s+day)\b|"
                   r"(?<![\d.:])(?:[89]|1[01])(?:[.:][0-5]\d)?\s*(?:pm|p\.m\.)|"  # 12 pm: noon
                   r"(?<![\d.:])(?:12|[1-5])(?:[.:][0-5]\d)?\s*(?:am|a\.m\.)|"
                   r"(?<![\d.:])(?:2[0-3]|0[0-5])[:.][0-5]\d\b")


@lru_cache(maxsize=8192)
def read(question: str, sentence: str) -> Reading:
    """What ``sentence`` says about the qualifiers of ``question`` (see the module invariant)."""
    asked = _classes(question)
    named = _classes(sentence)
    month = _MONTH.search(question.casefold())
    if month is not None and "season" not in asked and \
            any(w in _SEASON_OF.values() for w in named.get("season", {}).values()):
        asked = {**asked, "season": {_SEASON_OF[month.group(1)]: month.group(1)}}  # "in January":
        # the winter rule, not a document's own high or low season
    shut = _SHUT.search(question.casefold()) if "attendance" in named else None
    if shut is not None and "attendance" not in asked:  # "late on a Sunday night": out of hours
        asked = {**asked, "attendance": {"out-of-hours": shut.group(0)}}
    matched: set[str] = set()
    contrasted = False
    for dimension, wanted in asked.items():
        there = named.get(dimension)
        if not there:
            continue
        hits = [word for name, word in wanted.items()
                if any(_related(dimension, name, other) for other in there)]
        matched.update(w for word in hits for w in word.replace("-", " ").split())
        contrasted = contrasted or not (hits or _only(sentence, there.values()))
    return Reading(frozenset(matched), contrasted)
