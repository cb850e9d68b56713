"""Times of day in a question or a sentence: *11:30*, *half past eleven*, *7 pm*, *2 in the
morning*, *noon*, *lunchtime*; and the time until an hour tomorrow counted from the hour the
question says it is now.

Invariants: a clock time is minutes after midnight, 0 to 1440; an hour written without *am* or *pm*
is read in the afternoon only when *in the afternoon*, *in the evening* (or *this …*) or *tonight*
follows it; *noon* and *midday* are 12:00 and *lunchtime* 12:30; texts are casefolded by the
caller.
``clock_readings`` (for a question's situation) gives an hour from 1 to 7 written without
minutes after a colon (*five o'clock*, *quarter past five*; *5:15* is as written), with no *am*,
*pm* or part of the day anywhere in the text, both of its readings (*quarter past five*: 5:15 and
17:15), the morning one first; an hour from 8 to 11 is read in the morning (*half past eleven*),
as people mostly mean.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from composer_app.server.providers.term_forms import NUMBER_VALUES, number_value

__all__ = ["clock_readings", "clock_values", "until_tomorrow"]

_AMPM = r"(?:a\.?m\.?|p\.?m\.?)"
_HOUR_WORD = rf"(?:\d{{1,2}}|{'|'.join(sorted(NUMBER_VALUES, key=len, reverse=True))})"
_CLOCK = re.compile(
    rf"\b(?P<h>\d{{1,2}})(?::(?P<m>\d{{2}}))?\s*(?P<ampm>{_AMPM})(?![\w])"
    rf"|\b(?P<h2>\d{{1,2}}):(?P<m2>\d{{2}})\b(?:\s*(?:h|hrs|o['’]clock)\b)?"
    rf"|\b(?P<part>half|quarter)\s+(?P<dir>past|to)\s+(?P<h3>{_HOUR_WORD})\b"
    rf"|\b(?P<h4>{_HOUR_WORD})\s+o['’]clock\b"
    rf"|\b(?:at\s+)?(?P<h5>{_HOUR_WORD})\s+(?=in\s+the\s+(?:morning|afternoon|evening)|at\s+night)")
_DAYTIME = re.compile(r"\b(?:(?:in\s+the|this)\s+(?P<when>morning|afternoon|evening)"
                      r"|at\s+(?P<night>night)"
                      r"|(?P<pm>tonight))\b")

# Times of day named by a word: *noon* and *midday* are 12:00, *lunchtime* about 12:30.
_CLOCK_WORD = re.compile(r"\b(?:(?P<noon>noon|midday|mid-day)|(?P<lunch>lunch\s*time|lunchtime))\b")


def clock_values(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, minutes) of each clock time in ``text`` (casefolded)."""
    for word in _CLOCK_WORD.finditer(text):
        yield word.start(), word.end(), 720 if word.group("noon") else 750
    for match in _CLOCK.finditer(text):
        g = match.groupdict()
        hour_word = g["h"] or g["h2"] or g["h3"] or g["h4"] or g["h5"]
        hour = number_value(hour_word or "")
        if hour is None or hour > 24:
            continue
        minute = int(g["m"] or g["m2"] or 0)
        if g["part"]:
            minute = 30 if g["part"] == "half" else 15
            if g["dir"] == "to":
                hour, minute = (hour - 1) % 24, 60 - minute
        if minute > 59:
            continue
        if g["ampm"]:
            pm = g["ampm"].startswith("p")
            hour = hour % 12 + (12 if pm else 0)
        elif not g["h2"]:
            daytime = _DAYTIME.match(text, match.end() + 1) or _DAYTIME.search(
                text[match.end(): match.end() + 30])
            later = daytime is not None and (daytime.group("when") in ("afternoon", "evening")
                                             or daytime.group("pm") is not None)
            if later and hour < 12:
                hour += 12
        yield match.start(), match.end(), hour * 60 + minute


# Words that say which half of the day a time is in, anywhere in a question.
_HALF_OF_DAY = re.compile(rf"{_AMPM}|\b(?:morning|afternoon|evening|tonight|night|midnight|"
                          r"overnight|dawn|dusk|breakfast|dinner|noon|midday)\b")
AMBIGUOUS_HOURS = 7  # 1 to 7 without am or pm: morning or afternoon


def clock_readings(text: str) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """(start, end, readings) of each clock time in ``text`` (casefolded): an hour from 1 to
    ``AMBIGUOUS_HOURS`` that could be either half of the day has both readings (see the module
    invariant)."""
    halved = _HALF_OF_DAY.search(text) is not None
    for start, end, value in clock_values(text):
        hour = value // 60
        if halved or not 1 <= hour <= AMBIGUOUS_HOURS or ":" in text[start:end]:
            yield start, end, (value,)
        else:
            yield start, end, (value, value + 720)


# "It's now 9pm": the time of day the question is asked.
_NOW_CLOCK = re.compile(r"(?:\bit['’]s|\bit\s+is|\bnow)\s+(?:now\s+|already\s+|just\s+)?$")


def until_tomorrow(text: str) -> int | None:
    """Minutes from now until a time of day tomorrow, when ``text`` names both (*a 7am class
    tomorrow and it's now 9pm*: 600), else None."""
    clocks = list(clock_values(text))
    now = [v for s, _, v in clocks if _NOW_CLOCK.search(text[max(0, s - 16): s])]
    event = [v for s, _, v in clocks if not _NOW_CLOCK.search(text[max(0, s - 16): s])]
    if len(now) != 1 or len(event) != 1:
        return None
    return 1440 - now[0] + event[0]
