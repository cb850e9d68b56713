"""The kind of value a question asks for, and whether a sentence states one.

A question asks for an ``amount`` of money (*How much does it cost?*, *Do I have to pay?*, *How
much is that each year?*, *How much would it be?*, *What does the county archive charge if …?*,
*How much money do I need to open it?*; not *How much would it be in kilos?*), a
``phone`` number (*What number do I ring?*, *What is the phone number of …?*), a ``time`` (*How
long*, *when*, *by when*, *what time*, *how many days*), a ``quantity`` (*how many*, *how often*,
*what temperature*) or a ``name`` (*who*, *where*), or for none of these.

Invariants: ``wanted_kind`` reads the asking text alone (after a condition it opens with: *If my kid
wants to quit, how much warning …?*) and tries the kinds in that order (a price question is never a
quantity question); ``holds_kind`` reads the sentence alone; ``lacks_kind`` is true only for
``amount``, ``phone``, ``time`` and a ``quantity`` asked by *how many*: a sentence without a number
(or *unlimited*, *no limit*) for *how many*, a sentence without a number of at least
``PHONE_DIGITS`` digits for a phone question, a sentence without an amount (a share of a price, *30
percent of the hire fee*, is one, unless it is a share of the very price the question asks for and
the question asks no difference), *free* (not before a thing of its own the question does not name:
*the free cancellation window*, asked about parking), *no fees*, *included*, *exempt from*, *waived*
(or a percentage when the question asks for a difference: *how much extra*, *how much do I get
back*; bringing a car back asks none) for a price question, and a sentence without a clock time (a
price with decimals is none: *0.45 euros*), day, date, year, season or duration (*for life* is one;
a time word the question itself names is none), nor a time placed by an event (*after*, *once*,
*within*), for a time question (and without a clock time or a part of the day for *what time*, *the
check-in time*, and without a day, a date, a clock time or a part of the day for *when* something
is held, meets or takes place: *They last 40 minutes* says no when). Every table is plain English
vocabulary.
"""

from __future__ import annotations

import re

from composer_app.server.providers.questions import STOP_WORDS, question_terms
from composer_app.server.providers.term_forms import stem

_NUMBER_TEXT = """one two three four five six seven eight nine ten eleven twelve fifteen twenty
    thirty forty fifty hundred thousand million once twice daily weekly monthly yearly annually
    nightly hourly half quarter"""
NUMBER_WORDS = frozenset(_NUMBER_TEXT.split())
# Time words that state a time by themselves; a bare unit (day, night, hours) needs a number.
# Days and months (*may* is read only as a month with a day or a leading word: ``_MAY``):
_DAY_TEXT = """monday tuesday wednesday thursday friday saturday sunday weekday weekdays weekend
    weekends january february march april june july august september october november december"""
_DAY_PART_TEXT = "morning mornings evening evenings midnight noon"
_TIME_WORDS = frozenset(_DAY_TEXT.split()) | frozenset(_DAY_PART_TEXT.split())
_UNIT_TEXT = "day days night nights week weeks month months year years hour hours minute minutes"
UNIT_WORDS = frozenset(_UNIT_TEXT.split())
_ORDINAL_TEXT = "first second third fourth fifth last next every each"
_ORDINAL_WORDS = frozenset(_ORDINAL_TEXT.split())  # "within their first week", "every month"
_QUANTITY = re.compile(
    r"^\s*(?:how\s+(?:many|much|long|often|soon|quickly|fast|big|large|far|old|tall|high|heavy|"
    r"wide|deep|warm|cold)|when\b|"
    r"(?:by|until|since)\s+when\b|what\s+(?:times?|day|date|year|month|size|percentage|amount|"
    r"rate|number|version|port|status\s+code|price|fee)\b|within\s+how|after\s+how|from\s+which\s+"
    r"day|at\s+what|on\s+which\s+day|which\s+(?:day|port|version|date|year)|"
    r"(?:up\s+to|from|until)\s+what\b|"
    r"what\s+(?:(?:is|are|was|were)\s+the\s+)?(?:[^\W\d_]+\s+){0,2}(?:temperature|speed|weight|"
    r"height|length|width|depth|distance|capacity|pressure|voltage|humidity|price|cost|deposit|"
    r"allowance|budget|salary|limit|deductible|discount|interest)s?\b)", re.I)
# A price question: its answer states an amount of money (or that nothing is charged).
_AMOUNT = re.compile(
    r"^\s*(?:how\s+much\b(?=.*\b(?:cost|costs|pay|paid|charge|charged|fee|price|owe)\b)|"
    r"how\s+much\s+(?:is|are|was|were|will\s+be|would\s+be|(?:will|would)(?=\s+(?:it|this|that|"
    r"they|these|those)\s+be\b))\s+(?:(?:a|an|the|my|our|one|it|this|that|they|these|those)\b|"
    r"[^\W\d_]+\s+(?:rental|hire|entry|admission|parking|delivery|membership|insurance)\b|"
    r"(?:rental|hire|entry|admission|parking|delivery|membership|insurance)\b)"
    r"(?!.*\b(?:weigh|weighs|weight|heavy|time|long|space|room|water|energy|power|data|storage|"
    r"kilos?|kg|grams?|litres?|liters?|metres?|meters?|miles?|km)\b)|"
    r"how\s+much\s+(?:compensation|refund|reimbursement|cashback|money|cash)\b|"
    r"how\s+much\s+(?:per|a|an|each)\s+(?:night|day|hour|week|month|year|person|head|adult|child|"
    r"visit|session|lesson|class)\s+(?:is|are|does|do|will|would)\b|"
    r"what\s+(?:does|do|will|would)\b.*\bcost\b|"
    r"what\s+(?:does|do|will|would|did)\s+(?:[^\W\d_]+\s+){1,5}?charge\b"
    r"(?=\s+(?:for|if|to|me|us|you|them|when|per|on|at|extra)\b|\s*[?.]?\s*$)|"
    r"(?:will|would|does|do|did)\s+(?:it|this|that|they|these|those)\s+cost\b|"
    r"(?:do|will|would|must)\s+(?:i|we|you|they)\s+(?:have\s+to\s+|need\s+to\s+)?pay\b|"
    r"is\s+(?:it|this|that|there)\s+(?:free|a\s+(?:fee|charge|cost))\b|"
    r"(?:is|are)\s+there\s+(?:an?\s+|any\s+)?(?:[^\W\d_]+\s+){0,2}(?:fees?|charges?|surcharges?|"
    r"deposits?|fines?|penalt(?:y|ies))\b|"
    r"(?:is|are)\s+there\s+an?\s+(?:minimum|maximum)\s+(?:amount|payment|deposit|spend|balance|"
    r"order\s+value)\b|"
    r"what\s+(?:(?:is|are)\s+the\s+)?(?:[^\W\d_]+(?:-[^\W\d_]+)?\s+){0,2}(?:price|cost|fee|"
    r"charge|deposit|fine|penalty|surcharge|fare|rent)s?\b)", re.I)
# A time question: its answer states a time, a date, a day or a duration (or that there is none).
_TIME = re.compile(
    r"^\s*(?:how\s+(?:long|soon|quickly|early|late)\b|when\b|(?:by|until|till|since|from)\s+when\b|"
    r"(?:(?:at|by|until|till|from|on)\s+)?what\s+(?:times?|day|date)\b|"
    r"(?:by|until|till)\s+which\s+(?:time|day|date)\b|"
    r"(?:on\s+|during\s+|in\s+)?which\s+(?:days?|months?|weeks?|seasons?)\b|what\s+days?\b|"
    r"within\s+how\b|what\s+(?:is|was|are)\s+the\s+(?:\w+\s+)?deadlines?\b|"
    r"what(?:['’]s|\s+is|\s+was)\s+the\s+(?:latest|earliest|soonest)\b"
    r"(?!\s+(?:version|model|news|update|edition|release|issue|book|film|price|offer)s?\b)|"
    r"what\s+(?:is|was|are)\s+the\s+(?:[^\W\d_]+(?:-[^\W\d_]+)?\s+){0,2}times?\b"
    r"(?!\s*(?:rate|salary|pay|job|work|staff|worker|employee|contract|role|position|student)s?\b)|"
    r"how\s+many\s+(?:days|weeks|months|years|hours|minutes|nights)\b|"
    r"how\s+(?:far|much\s+time)\s+(?:in\s+advance|ahead|before)\b|"
    r"how\s+(?:short|much|little|late)\s+(?:a\s+)?(?:notice|warning)\b)", re.I)
# A clock time; a price written with decimals (*0.45 euros*, *€4.50*) is none.
_CLOCK = re.compile(r"\b\d{1,2}(?:[:.]\d{2})?\s*(?:a\.?m\.?|p\.?m\.?|o'clock|h)\b|"
                    r"(?<![€$£])\b\d{1,2}[:.]\d{2}\b(?![.,]?\d)"
                    r"(?!\s*(?:(?:euros?|eur|dollars?|pounds?|cents?|francs?|chf|usd|gbp|"
                    r"percent)\b|%))", re.I)
# A question for a time of day (*By what time …?*, or a time named by what happens then: *What is
# the check-in time?*; a cut-off time may be a time limit, *6 hours*), answered by a clock time or
# a part of the day.
_CLOCK_NAMED = re.compile(r"\b(?:check-?in|check-?out|pick-?up|drop-?off|kick-?off|closing|"
                          r"opening|start|starting|finish|finishing|latest|earliest|departure|"
                          r"arrival|collection)\s+times?\b", re.I)
_CLOCK_ASKED = re.compile(r"\bwhat\s+times?\b", re.I)
_PART_OF_DAY = re.compile(r"\b(?:noon|midday|midnight|morning|afternoon|evening|night|dawn|dusk|"
                          r"sunrise|sunset|closing\s+time|opening\s+time)s?\b", re.I)
# The month of May, not the verb *may*: with a day, or after a word that leads a month.
_MAY = re.compile(r"\b(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?May|May\s+\d{1,2}\b|"
                  r"(?:in|from|to|until|till|since|between|of|early|mid|late)\s+May)\b", re.I)
# A question for a day or a date (*By what day of the month …?*), answered by a day's name, a
# month or a date (*by the 3rd working day*, *on the last Friday*), not by a duration alone.
_DAY_ASKED = re.compile(r"\bwhat\s+(?:days?|dates?)\b|\bwhich\s+(?:days?|dates?)\b", re.I)
_DAY_STATED = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}[./]\d{1,2}\b|\b(?:first|second|"
                         r"third|fourth|last)\s+(?:working\s+|business\s+|week)?day\b|\b"
                         r"(?:today|tomorrow|weekdays?|weekends?|daily)\b", re.I)
_DAY_WORDS = frozenset(w for d in _DAY_TEXT.split() for w in (d, d + "s"))
# A question when something recurs or happens (*When are the lunch-and-learn sessions held?*,
# *When does the choir meet?*), answered by a day, a date or a time of day.
_WHEN_HELD = re.compile(r"^\s*when\s+(?:is|are|does|do|will)\b[^?.]*\b(?:held|meets?|"
                        r"takes?\s+place|on)\s*\??\s*$", re.I)
# A duration without a number: *valid for life*, *kept indefinitely*.
_LASTING = re.compile(r"\b(?:for\s+life|life-?long|lifetime|indefinitely|permanently|"
                      r"never\s+expires?|does\s+not\s+expire|no\s+expiry)\b", re.I)
_TIME_STATED_TEXT = """today tomorrow tonight yesterday immediately instantly anytime
    always never daily weekly monthly yearly annually nightly hourly overnight noon midnight
    morning mornings afternoon afternoons evening evenings night nights weekday weekdays weekend
    weekends season seasons term terms holiday holidays mondays tuesdays wednesdays thursdays
    fridays saturdays sundays"""
_TIME_STATED = frozenset(_TIME_STATED_TEXT.split()) | _TIME_WORDS
# Words that place a time by an event (*after the probation*, *once it is paid*): enough not to
# be a near miss for a time question, not enough to state the time asked for.
_EVENT_TIME_TEXT = "after before until till during within once upon whenever"
_EVENT_TIME = frozenset(_EVENT_TIME_TEXT.split())
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
# "How long is the pool?" asks for a length: a distance answers a "how long" question too.
_LENGTH_TEXT = """m km cm mm metre metres meter meters kilometre kilometres kilometer kilometers
    mile miles foot feet inch inches"""
_LENGTH_UNITS = frozenset(_LENGTH_TEXT.split())
_MONEY = re.compile(
    r"[€$£¢]|\d\s*(?:euros?|eur|dollars?|pounds?|cents?|pence|francs?|kronor|usd|gbp|chf)\b|"
    r"\b\d{1,3}p\b", re.I)
# A share of a price: a surcharge or discount of *50 percent* answers *how much extra* (a
# question about a difference, or about money one gets back), not *how much does it cost* (nor
# *if I bring the car back*: *25% charge* of a battery is no price).
_PERCENT_TEXT = r"\d\s*(?:%|percent\b|per\s+cent\b)"
_PERCENT = re.compile(_PERCENT_TEXT, re.I)
_DIFFERENCE = re.compile(r"\b(?:extra|more|less|off|discount\w*|surcharge\w*|reduc\w*|cheaper|"
                         r"refund\w*|deduct\w*|additional|compensat\w*|reimburs\w*)\b|"
                         r"\b(?:get|gets|getting|got|paid|money)\s+(?:\w+\s+){0,2}?back\b", re.I)
# A share of a price is an amount of money itself: "a deposit of 30 percent of the hire fee",
# "half of the entry fee".
_SHARE = re.compile(rf"(?:{_PERCENT_TEXT}|\bhalf)\s+of\s+(?:the\s+|your\s+|its\s+|"
                    r"their\s+|our\s+)?(?:(?P<what>[^\W\d_]+)\s+)?(?P<base>fees?|prices?|costs?|"
                    r"total|amount|bill|rent|balance|value|sum|invoice|charges?)\b", re.I)
_BARE_AMOUNT = re.compile(r": \d+(?:[.,]\d+)?(?:;|$)")  # a cell that is a number: "1 week: 120"
_NO_CHARGE = re.compile(r"\b(?:free|no\s+(?:[\w-]+\s+){0,2}?(?:charges?|costs?|fees?|surcharges?)|"
                        r"nothing|included|exempt(?:ed)?\s+from|waived|"
                        r"at\s+no\s+(?:extra\s+)?cost|(?:not|never)\s+(?:be\s+)?"
                        r"(?:charged|billed)|(?:do|does|will)\s+not\s+(?:have\s+to\s+)?pay|"
                        r"without\s+(?:an?\s+|any\s+)?"
                        r"(?:extra\s+|additional\s+)?(?:charge|surcharge|fee|cost|payment))\b",
                        re.I)
_NAMED = re.compile(r"^\s*(?:who|whom|whose|where|which\s+(?:city|country|team|person|office))\b",
                    re.I)
DIGITS = re.compile(r"\d")
# A phone number question (*What number do I ring …?*, *What is the phone number of …?*): its
# answer states a number of at least ``PHONE_DIGITS`` digits (*0171 448 2210*, *+49 30 123456*).
_PHONE = re.compile(r"^\s*(?:what|which)(?:['’]s|\s+(?:is|are|was))?\s+(?:the\s+|your\s+|their\s+|"
                    r"its\s+|our\s+)?(?:(?:(?:tele)?phone|contact|emergency|hotline|fax)\s+numbers?\b|"
                    r"numbers?\s+(?:(?:do|should|can|must|shall|would)\s+(?:i|we|you|they)\s+|to\s+)"
                    r"(?:ring|call|phone|dial|text)\b)", re.I)
_PHONE_NUMBER = re.compile(r"\+?\(?\d[\d ()/-]*\d")
PHONE_DIGITS = 6


# Words that say what kind of answer is wanted; the answer itself rarely repeats them.
_ANSWER_TEXT = """often long quickly soon fast big large old far frequently time times day date much
    many size amount number located location situated based value count counts counted mean
    means meant defined considered happen happens happened"""
ANSWER_WORDS = frozenset(_ANSWER_TEXT.split())
# Words that name the kind of value asked for; an answer states the value instead of the word.
_MEASURE_TEXT = "rate rates price prices cost costs fee fees charge charges amount total percentage"
MEASURE_WORDS = frozenset(_MEASURE_TEXT.split())
# A time question's words for what it asks, answered by a time as a price question's are by an
# amount.
TIME_NOUNS = frozenset(["time", "times", "date", "deadline", "deadlines", "limit", "limits"])
# ... and its words for a lead time (*How far ahead …?*, *How much warning …?*), answered by a time
# stated as one (*at least 48 hours before*, *a month's notice*).
_LEAD_NOUNS = frozenset(["ahead", "advance", "beforehand", "notice", "warning"])
_LEAD_STATED = re.compile(r"\b(?:before|beforehand|in\s+advance|ahead|notice|prior\s+to)\b", re.I)
_PHONE_NOUNS = frozenset(["number", "numbers"])  # "What number do I ring?": "0161 555 0142"
_DAY_NOUNS = TIME_NOUNS | {"day", "days"}  # "On which days …?" is answered by "on Tuesday"
_LASTS = re.compile(r"\blasts?\s*[?.!]*\s*$", re.I)
_LAST_WORDS = ANSWER_WORDS | {"last", "lasts"}


def kind_nouns(kind: str | None, question: str, sentence: str = "") -> frozenset[str]:
    """The words of ``question`` that name the ``kind`` of value it asks for, held by a
    ``sentence`` that states such a value: ``TIME_NOUNS`` (*day* too when it asks which day, and
    the words of a lead time when the sentence states one), ``MEASURE_WORDS`` for an amount,
    *number* for a phone number."""
    if kind == "time":
        nouns = _DAY_NOUNS if _DAY_ASKED.search(question) else TIME_NOUNS
        return nouns | _LEAD_NOUNS if _LEAD_STATED.search(sentence) else nouns
    return MEASURE_WORDS if kind == "amount" else _PHONE_NOUNS if kind == "phone" else frozenset()


def answer_words(text: str) -> frozenset[str]:
    """The words of the asking ``text`` that only say what kind of answer is wanted:
    ``ANSWER_WORDS``, and *last* when the text ends on it as a verb (*until when does the
    season last?*)."""
    return _LAST_WORDS if _LASTS.search(text) else ANSWER_WORDS


_IS = re.compile(r"\b(what|how|when|where|who|which)['’]s\b", re.I)


# A condition before the asking words: "If my kid wants to quit, how much notice do we give?"
_LEADING_CONDITION = re.compile(
    r"^\s*(?:if|once|after|before|while|because|in\s+case|when(?!\s+(?:does|do|did|is|are|was|"
    r"were|can|could|will|would|should|must|may)\b))\b[^?]*?,\s*(?=(?:how|what|when|where|which|"
    r"who|is|are|do|does|did|can|could|will|would|should|must|may|by|until|within)\b)", re.I)


def wanted_kind(text: str) -> str | None:
    """The kind of value the asking ``text`` wants (see the module invariant), read after a
    condition it opens with (*If my kid wants to quit, how much notice …?*)."""
    text = _LEADING_CONDITION.sub("", _IS.sub(r"\1 is", text))  # "What's": "What is"
    return ("amount" if _AMOUNT.search(text) else "phone" if _PHONE.search(text)
            else "time" if _TIME.search(text)
            else "quantity" if _QUANTITY.search(text)
            else "name" if _NAMED.search(text) else None)


_VALUE_SHAPES = {"clock": _CLOCK, "money": _MONEY, "share": _PERCENT}


def value_shapes(text: str) -> set[str]:
    """The shapes of the values ``text`` states: ``clock`` times, ``money``, ``share``s."""
    return {name for name, shape in _VALUE_SHAPES.items() if shape.search(text)}


def holds_kind(text: str, kind: str, *, row: bool = False, asked: str = "") -> bool:
    """Whether ``text`` states a value of ``kind``: an amount of money (in a table ``row`` a bare
    number cell too), a time, a quantity, or else a name; a time word the ``asked`` text names
    itself states no time (*the bathing season* in *until when does the bathing season last?*
    names what is asked about)."""
    if kind == "amount":  # a price table's row may leave out the currency: "1 week: 120"
        return _MONEY.search(text) is not None or _SHARE.search(text) is not None or (
            row and _BARE_AMOUNT.search(text) is not None)
    if kind == "time":
        if _CLOCK.search(text) or _YEAR.search(text) or _LASTING.search(text) or \
                _MAY.search(text):
            return True
        tokens = [x.casefold() for x in re.findall(r"[^\W_]+", text)]
        named = {x.casefold() for x in re.findall(r"[^\W_]+", asked)}
        return any((w in _TIME_STATED and w not in named)
                   or ((w in UNIT_WORDS or w in _LENGTH_UNITS) and i > 0
                       and any(DIGITS.search(t) or t in NUMBER_WORDS or t in _ORDINAL_WORDS
                               or t in ("a", "an", "one", "few", "several")
                               for t in tokens[max(0, i - 3):i]))
                   for i, w in enumerate(tokens))
    if kind == "phone":
        return any(len(DIGITS.findall(m.group(0))) >= PHONE_DIGITS
                   for m in _PHONE_NUMBER.finditer(text))
    if kind == "quantity":
        tokens = [x.casefold() for x in re.findall(r"[^\W_]+", text)]
        return any(DIGITS.search(w) or w in NUMBER_WORDS or w in _TIME_WORDS
                   or (w in UNIT_WORDS and i > 0 and tokens[i - 1] in _ORDINAL_WORDS)
                   for i, w in enumerate(tokens))
    words = text.split()
    return any(w[:1].isupper() and w.strip(".,;:").casefold() not in STOP_WORDS
               for w in words[1:])


def _share_of_the_asked(text: str, question: str) -> bool:
    """Whether the sentence's only amounts are shares of the very price the question asks for,
    when it asks no difference: *half of the entry fee is refunded* does not say what *the entry
    fee* is, though it answers *how much do I get back?*."""
    shares = list(_SHARE.finditer(text))
    if not shares or _MONEY.search(text) or _DIFFERENCE.search(question):
        return False
    asked = {w.casefold() for w in re.findall(r"[^\W\d_]+", question)}
    singular = {w.removesuffix("s") for w in asked}
    return all(m.group("base").casefold().removesuffix("s") in singular
               and (m.group("what") is None or m.group("what").casefold() in asked)
               for m in shares)


# "free" before a thing of its own: *the free cancellation window* frees no parking charge.
_FREE_THING = re.compile(r"\bfree\s+(?P<thing>[^\W\d_]+)", re.I)
_FREE_LINK_TEXT = """of for to from with within until up at on in and or as if when during after
    before unless except throughout under over below above between"""
_FREE_LINKS = frozenset(_FREE_LINK_TEXT.split())


def _states_no_charge(text: str, question: str) -> bool:
    """Whether ``text`` says something is not charged, not counting *free* before a thing the
    ``question`` does not name (*the free cancellation window*, asked about parking)."""
    for match in _NO_CHARGE.finditer(text):
        free = _FREE_THING.match(text, match.start())
        thing = free.group("thing").casefold() if free else ""
        if not free or thing in _FREE_LINKS or thing in STOP_WORDS or stem(thing) in {
                stem(w) for w in re.findall(r"[^\W\d_]+", question.casefold())}:
            return True
    return False


def lacks_kind(text: str, question: str, kind: str, *, row: bool = False) -> bool:
    """Whether the sentence ``text`` (a table ``row`` or not) is a near miss for a ``kind``
    question by stating no value of that kind (see the module invariant)."""
    if kind == "amount":
        return (not holds_kind(text, "amount", row=row) or _share_of_the_asked(text, question)) \
            and not _states_no_charge(text, question) and \
            not (_PERCENT.search(text) and _DIFFERENCE.search(question))
    if kind == "time":
        if _CLOCK_ASKED.search(question) or _CLOCK_NAMED.search(question):  # a day does not say it
            return _CLOCK.search(text) is None and _PART_OF_DAY.search(text) is None
        if _WHEN_HELD.search(question):  # a duration alone (*They last 40 minutes*) says
            return _CLOCK.search(text) is None and _PART_OF_DAY.search(text) is None and \
                not _names_a_day(text)  # not when
        if _DAY_ASKED.search(question):  # "by what day": a duration alone does not say it
            return not _names_a_day(text)
        return not holds_kind(text, "time", asked=question) and \
            _EVENT_TIME.isdisjoint(x.casefold() for x in re.findall(r"[^\W_]+", text))
    if kind == "phone":
        return not holds_kind(text, "phone")
    if kind == "quantity" and _HOW_MANY.search(question):  # "how many": a number, or no limit
        return not holds_kind(text, "quantity") and _NO_LIMIT.search(text) is None
    return False


def _names_a_day(text: str) -> bool:
    """Whether ``text`` names a day, a date or a month (*on Thursdays*, *by the 3rd*)."""
    return _DAY_STATED.search(text) is not None or \
        not _DAY_WORDS.isdisjoint(re.findall(r"[a-z]+", text.casefold()))


# A question for a count (*How many members does it have?*), answered by a number or by there
# being no limit.
_HOW_MANY = re.compile(r"^\s*how\s+many\b", re.I)
_NO_LIMIT = re.compile(r"\b(?:unlimited|no\s+(?:upper\s+)?(?:limit|maximum|cap)|as\s+many\s+as|"
                       r"any\s+number\s+of|as\s+often\s+as)\b", re.I)


_LINKS = r"(?:of|for|in|at|on|to|by|with|from|during|per|under|over|when|if|that|which|who)"
_FOCUS = re.compile(
    r"^\s*(?:what|which)(?:\s+(?:is|are|was|were)|['’]s)\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+)?"
    rf"(?P<named>.+?)(?:\s+{_LINKS}\b|\s*$)"
    r"|^\s*(?:what|which)\s+(?!(?:is|are|was|were|does|do|did|can|will|would|should|must)\b)"
    r"(?P<kind>.+?)\s+(?:is|are|was|were|does|do|did|can|will|would|should|must)\b"
    r"|^\s*how\s+(?:much|many)\s+(?!(?:is|are|was|were|does|do|did|can|will|would|should|must|"
    r"may|has|have)\b)(?P<counted>[^\W\d_]+)\s+(?:is|are|does|do|did|can|will|would|should|"
    r"must|may|has|have|of|per|in|on|at|for)\b"
    r"|^\s*how\s+much\s+(?:is|are|does|do)\s+(?:a|an|the|one|my|our)\s+"
    rf"(?P<priced>[^\W\d_]+(?:[\s-][^\W\d_]+)?)(?:\s+{_LINKS}\b|\s+cost\b|\s*$)", re.I)


# A clause that follows the thing asked for (*the one-off fee I'll be charged*): it says what
# happens to the thing, not what it is.
_CLAUSE = re.compile(r"\s+(?:i|we|you|they|he|she|i['’](?:ll|d|m|ve)|we['’](?:ll|d|re|ve)|"
                     r"you['’](?:ll|d|re|ve)|they['’](?:ll|d|re|ve))\b.*$", re.I)


_GENERIC_MODIFIERS = frozenset(["one-off", "one-time", "up-front", "upfront", "so-called"])


def _head(phrase: str) -> str:
    """``phrase`` (the thing a question asks for) without a clause that follows it, and without
    a modifier that says nothing of what the thing is (*one-off*, *up-front*)."""
    words = _CLAUSE.sub("", phrase).split()
    return " ".join(w for w in words if w.casefold() not in _GENERIC_MODIFIERS)


def asked_for(text: str, stemmed: set[str]) -> frozenset[str]:
    """The key stems (of ``stemmed``, the question's) of the thing a *what is the X of Y* /
    *what X does ...* / *how much X ...* question asks for (``phone number`` in *What is the
    phone number of the main reception?*, ``electricity`` in *How much electricity does the pump
    use?*), and the head word of the thing a *how much is a X* question prices (``lesson`` in
    *How much is a riding lesson for my daughter?*), without the words that only say what kind
    of answer is wanted (``ANSWER_WORDS``, ``MEASURE_WORDS``: an answer states the rate or the
    price rather than naming it)."""
    match = _FOCUS.search(text)
    if match is None:
        return frozenset()
    priced = match.group("priced")
    phrase = priced.replace("-", " ").split()[-1] if priced else \
        _head(match.group("named") or match.group("kind") or match.group("counted") or "")
    found = {stem(w) for w in question_terms(phrase)
             if w not in ANSWER_WORDS and w not in MEASURE_WORDS}
    return frozenset(found & stemmed)
