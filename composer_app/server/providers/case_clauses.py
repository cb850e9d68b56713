"""A sentence that gives one rule per case, answered for the asker's case.

Documents often put two cases in one sentence: *Audio guides cost £3 for adults and £1.50 for
children under 16*; *On weekdays the pool opens at 7:00; on Saturdays it opens at 9:00*; *you
can get a bike worth up to £2,000, or an electric bike worth up to £3,500*. Someone who says
their niece is 13 should read the children's price, not both: ``for_the_case`` keeps the clauses
whose case the question's situation or group fits and drops those it contradicts.

Invariants: a sentence is cut at the first of these levels that splits it into clauses of at least
``MIN_WORDS`` words each: ``; ``; then *, but*, *, while*, *, whereas*; then *, except*; then *,
and*, *, or* (a list, where a piece too short to stand alone stays with the one before it: *…, or
pregnant*); then *and*, *or* after the sentence's last comma, between clauses that each state a
number and hold no label's colon, the words before that comma staying with the first (*£3 for
adults and £1.50 for children*; *If it is not in your rate, breakfast costs £15 for adults and £7
for children*; *Core hours, when you must be available, are 10:00 to 15:00 from Monday to Thursday
and 10:00 to 13:00 on Friday*; not *Saturdays after 12:00, Sundays and public holidays: 80 euros*),
where a piece without a number is a list's item that stays with the next (*violins and violas for
£12 per month and cellos for £18 per month* is two clauses), never inside a range *between … and
…*. A clause is out when a condition of it fails for the question's situation
(``conditions.read``), or it names another group of a dimension the question names
(``qualifiers.read``) and none of its conditions holds; it is in when a condition holds or a group
matches, and it is not out. A clause that only states the other side (*otherwise …*, *after that
…*, *shorter contracts …*) is not in: it reads only after the clause it answers. When no clause is
out, a later clause whose own case the question names, by a word no other clause holds, is the only
one in: the group after its value (*£30 for Friends of Glenmarrow* after *The pass costs £45*, for
a Friends member), at a bare *and* the thing before its value (*cellos for £18*), or the thing an
exception names when it names a thing and says something of it (*…, except the dawn deer watch,
which meets at the Marrow Bridge car park*; never a bare case, *…, except during the summer
festival weekend*, which alone would read as the rule's opposite, nor a circumstance, *…, except on
bank holidays, when we open …*, which reads only with its rule), by what sets it apart when it
names a kind of the rule's own things (*all devices, except phones with liquid damage*: the liquid
damage, not the phone); and when every clause of a cut at a semicolon or *, but* opens with the
same preposition, the words after it (up to a comma, at most ``CASE_WORDS``) are each clause's
case, the first's too (*On Team, each seat … ; on Business there is no limit*, for a Team
customer); and, at a semicolon, *, but*, a list's *, and* or a bare *and*, of two clauses that
state one rule for two cases (each states a value, and they share ``PARALLEL_WORDS`` words or
more), the one the question names by a contrast word, a word standing where the other clause has a
word of its own (*full* in *The annual rent for a full plot is £62, and the annual rent for a half
plot is £34*; *The current wait is about 18 months for a full plot and about 9 months for a half
plot*); at *, but*, *, while* or *, whereas*, of two clauses that speak of one thing (a word both
hold) in two cases, each named by up to ``MODIFIER_WORDS`` words right before the thing, no stop
word between (*You can change a follow-up appointment online …, but first appointments can only be
changed by phone*), the one whose case words the question holds, when it holds none of the other's;
and of a clause that says when something opens or starts and a later one that goes on with its
subject to say when it closes or ends (*Registration opens on 1 September and closes on 20
September*), the end the question asks for when it asks for one only (*When does enrollment
start?*). The sentence comes back cut only when at least one clause is in and one is out, keeping
the clauses that are in, in their order. A kept clause that is not the first follows the first
clause's label when that clause opens with one (*Cosmic bowling, per hour: … Saturdays: 44
euros.*), or its subject when it goes on with it (*Registration … closes on 20 September*), or else
the first clause's opening words: up to its first value when the kept clause starts with a value
(after *at*, *from*, *by* or *until* too), a number word or *only*, *about*, *up to* before one
(*Audio guides cost … £1.50 for children under 16.*; *The pool opens … at 9:00 on Saturdays.*;
*Tenants may keep … only three hens on a half plot.*), up to the word a list's kept item opens with
(*You do not pay NHS dental charges if you are … under 19 and in full-time education, or
pregnant.*); when every clause is a table row's cell (``Heading: value``), the kept cells follow
the first cell, which names what the row is about. Anything else returns the sentence unchanged.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from composer_app.server.providers.conditions import read as read_conditions
from composer_app.server.providers.qualifiers import read as read_qualifiers
from composer_app.server.providers.questions import STOP_WORDS
from composer_app.server.providers.term_forms import NUMBER_VALUES, stem, stems

__all__ = ["for_the_case"]

MIN_WORDS = 3
_LEVELS = (
    re.compile(r";\s+"),
    re.compile(r",\s+(?:but|while|whereas)\s+"),
    re.compile(r",\s+except(?:\s+for)?\s+"),
    re.compile(r",\s+(?:and|or)\s+"),
    re.compile(r"\s+(?:and|or)\s+"),
)
_EXCEPT = 2  # the level whose later clause is the rule's exception (*, except …*)
_CONTRASTS = (0, 1)  # the levels of clauses side by side (*; *, *, but …*)
_CONTRAST_WORD = 1  # the level of clauses a word sets against each other (*, but*, *, while*)
_TOKEN = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")  # a word, a hyphenated one whole: *follow-up*
CASE_WORDS = 3
MODIFIER_WORDS = 2  # the words before a thing both clauses speak of that name each one's case
LISTED_WORDS = 3  # the words before a value that a list's item before it shares
PARALLEL_WORDS = 2  # the words two clauses share to state one rule for two cases
PARALLEL_MAX_WORDS = 40  # the longest clause compared word by word with its sibling
# Where an exception's case ends and what it says of it begins (*the dawn deer watch, which …*).
_CASE_END = re.compile(r",\s|\s(?:which|who|where)\s")
_CASE_OPENING = re.compile(r"(on|for|with|in|at)\s+(?=\w)", re.IGNORECASE)
# The word after which an exception's case says what sets it apart from the rule's own things
# (*all devices, except phones with liquid damage*: a phone alone is one of the devices).
_MODIFIER = re.compile(r"\s(?:with|without|that|whose|under|over|aged|from|in|on|of)\s",
                       re.IGNORECASE)
_STARTS = frozenset(["open", "opens", "start", "starts", "begin", "begins", "commence",
                     "commences"])
_ENDS = frozenset(["close", "closes", "end", "ends", "finish", "finishes", "shut", "shuts"])
# One end asked for: *open* and *close* as verbs only (*When does it open?*; not *When is it
# open?* nor *the opening hours*, which ask for both).
_ASKS_START = re.compile(r"\b(?:start|starts|starting|begin|begins|beginning|commence\w*|"
                         r"first\s+day|from\s+when|opens|opening\s+(?:time|date|day))\b"
                         r"|\b(?:does|do|did|will)\b[^?.!]*\bopen\b", re.IGNORECASE)
_ASKS_END = re.compile(r"\b(?:end|ends|ending|finish\w*|closes|closing\s+(?:time|date|day)|"
                       r"deadline|last\s+day|cut-?off|until\s+when)\b"
                       r"|\b(?:does|do|did|will)\b[^?.!]*\b(?:close|shut)\b", re.IGNORECASE)
_LISTS = (3,)  # the level whose clauses are items of one list (*, or …*)
_BARE = len(_LEVELS) - 1  # the level of a bare *and* between clauses that each state a number
_GROUP_AFTER_VALUE = re.compile(r"^(?:[£$€]\s?\d|\d)[\d.,]*(?:\s+[a-z%]+){0,2}?\s+for\s+"
                                r"(?P<group>[^,;]{3,60})$", re.IGNORECASE)
_THING_BEFORE_VALUE = re.compile(r"^(?P<group>(?:[^\W\d_]+\s+){0,2}[^\W\d_]+)\s+(?:for|at|costs?|"
                                 r"is|are)\s+(?:[£$€]\s?\d|\d)", re.IGNORECASE)
_ITEM_OPENING = re.compile(r"(?:under|over|aged|if|for|with|without|before|after|from|between|"
                           r"up)\b", re.IGNORECASE)
_VALUE = re.compile(r"[£$€]\s?\d|\d")
_LABEL = re.compile(r"^[^:;\d£$€]{3,80}:(?=\s)")
_NUMBER_WORD = rf"(?:{'|'.join(NUMBER_VALUES)})\b"
_FRAMED = re.compile(
    rf"^(?:(?:at|from|by|until)\s+(?=\d))?"
    rf"(?:[£$€]\s?\d|\d|(?:about|around|up\s+to|only)\s+(?:[£$€]?\d|{_NUMBER_WORD}))",
    re.IGNORECASE)
_FRAME_VALUE = re.compile(rf"[£$€]\s?\d|\d|\b{_NUMBER_WORD}", re.IGNORECASE)
_FRAMING = re.compile(r"(?:\s+(?:about|around|up\s+to|only))+$", re.IGNORECASE)


def _pieces(body: str, level: re.Pattern[str], listed: bool) -> list[str]:
    """``body`` cut at ``level``; in a list (``listed``) a piece too short to stand alone stays
    with the piece before it (*… under 19 and in full-time education, or pregnant*)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in [*level.finditer(body), None]:
        end = match.start() if match else len(body)
        if listed and spans and len(body[start:end].split()) < MIN_WORDS:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
        start = match.end() if match else len(body)
    return [body[a:b].strip() for a, b in spans]


def _valued(body: str, level: re.Pattern[str]) -> list[str]:
    """``body`` cut at ``level``, except after a piece without a value when the next piece opens
    with one (at most ``LISTED_WORDS`` words before it): the piece is a list's item that shares
    it (*violins and violas for £12*)."""
    pieces: list[str] = []
    start = 0
    for match in level.finditer(body):
        following = body[match.end():]
        value = _VALUE.search(following)
        if value is not None and not _VALUE.search(body[start:match.start()]) and \
                len(following[:value.start()].split()) <= LISTED_WORDS:
            continue
        pieces.append(body[start:match.start()].strip())
        start = match.end()
    return [*pieces, body[start:].strip()]


def _clauses(sentence: str) -> tuple[list[str], int]:
    """``sentence`` cut at the first level that splits it, and that level's number (see the
    module invariant)."""
    body = sentence.rstrip(" .")
    for number, level in enumerate(_LEVELS):
        if number == len(_LEVELS) - 1:  # within the last comma's part, the words before it
            head, comma, tail = body.rpartition(", ")  # the first clause's condition or frame
            pieces = _valued(tail, level)
            pieces[0] = head + comma + pieces[0]
        else:
            pieces = _pieces(body, level, number in _LISTS)
        if len(pieces) < 2 or any(len(p.split()) < MIN_WORDS for p in pieces):
            continue
        if number == len(_LEVELS) - 1 and (
                not all(_VALUE.search(p) and not re.search(r":\s|,", p)
                        for p in (pieces[0].rsplit(", ", 1)[-1], *pieces[1:]))
                or any(re.search(r"\bbetween\b", p, re.I) for p in pieces[:-1])):
            continue  # "between 1 January and 31 March" is one range
        return pieces, number
    return [body], -1


def _standing(question: str, clause: str) -> tuple[bool, bool]:
    """(in, out) for one clause: whether its case fits the question's, or contradicts it."""
    conditions = read_conditions(question, clause)
    qualifiers = read_qualifiers(question, clause)
    out = conditions.failed or (qualifiers.contrasted and not conditions.met)
    fits = (conditions.met or bool(qualifiers.matched)) and not out
    return fits, out


def _parallel_cases(clauses: list[str]) -> list[str] | None:
    """Each clause's own case when every clause opens with the same preposition (*On Team, …;
    on Business …*): the words after it, up to a comma and at most ``CASE_WORDS``."""
    openings = [_CASE_OPENING.match(clause) for clause in clauses]
    if not all(openings) or len({m.group(1).casefold() for m in openings if m}) != 1:
        return None
    return [" ".join(c[m.end():].split(",", 1)[0].split()[:CASE_WORDS])
            for c, m in zip(clauses, openings, strict=True) if m]


def _named_by(question: str, clauses: list[str], level: int) -> int | None:
    """The one later clause whose own case the question names, or any clause when every clause
    opens with its case (see the module invariant), or ``None``."""
    asked = set(stems(question))
    named = []
    parallel = _parallel_cases(clauses) if level in _CONTRASTS else None
    for number, clause in enumerate(clauses):
        if parallel is not None:
            case = parallel[number]
        elif not number:
            continue
        elif level == _EXCEPT:
            case = _CASE_END.split(clause, maxsplit=1)[0]
            modified = _MODIFIER.search(case)  # "phones with liquid damage": the damage
            case = case[modified.end():] if modified else case
        else:  # the group after its value, or at a bare "and" the thing priced (*cellos for £18*)
            group = _GROUP_AFTER_VALUE.match(clause) or (
                _THING_BEFORE_VALUE.match(clause) if level == len(_LEVELS) - 1 else None)
            case = group.group("group") if group else ""
        others = set().union(*(stems(c) for n, c in enumerate(clauses) if n != number))
        own = {w for w in stems(case) if w not in STOP_WORDS and len(w) > 2 and
               not w[0].isdigit()}
        if (own - others) & asked:
            named.append(number)
    return named[0] if len(named) == 1 else None


_CIRCUMSTANCE = re.compile(r"(?:on|in|at|during|for|before|after|from|until|between|within|"
                           r"outside|when|if|while)\b", re.IGNORECASE)


def _stands_alone(exception: str) -> bool:
    """Whether an exception's clause reads as a sentence of its own: it names a thing and says
    something of it (*the dawn deer watch, which meets at the Marrow Bridge car park*). A bare
    case (*during the summer festival weekend*, after *Staying overnight in the shed is not
    permitted*) means only the rule's opposite, and a circumstance of the rule (*on bank
    holidays, when we open 10:00 to 17:30 as usual*, after *We are closed on Mondays*) reads
    only with it."""
    return _CASE_END.search(exception) is not None and \
        _CIRCUMSTANCE.match(exception) is None


def _contrast_named(question: str, clauses: list[str]) -> int | None:
    """The clause of two that state one rule for two cases (each states a value, and they share
    at least ``PARALLEL_WORDS`` words) whose case the question names by a contrast word: a word
    that stands where the other clause has a word of its own (at most ``CASE_WORDS`` words each,
    no number, not a stop word nor a pronoun: *During probation the notice period is two weeks;
    after probation it is three months* has none), when the question holds words of one side
    only (*full* in *The annual rent for a full plot is £62, and the annual rent for a half plot
    is £34*; *Gold* in *Silver cover is available to travellers aged up to 69; gold cover is
    available up to age 79*)."""
    if len(clauses) != 2 or not all(_FRAME_VALUE.search(c) for c in clauses) or \
            any(len(c.split()) > PARALLEL_MAX_WORDS for c in clauses):
        return None
    first, second = ([w.casefold() for w in re.findall(r"[\w'-]+", c)] for c in clauses)
    shared = set.intersection(*({stem(w) for w in words if w not in STOP_WORDS}
                                for words in (first, second)))
    if len({w for w in shared if not w[0].isdigit()}) < PARALLEL_WORDS:
        return None  # not one rule for two cases: "… backed up at 2:00, and these are kept …"
    asked = set(stems(question))
    sides: list[set[str]] = [set(), set()]
    for tag, a, b, c, d in SequenceMatcher(a=first, b=second, autojunk=False).get_opcodes():
        words = (first[a:b], second[c:d])
        if tag != "replace" or any(not 0 < len(w) <= CASE_WORDS for w in words) or \
                any(re.search(r"\d", " ".join(w)) for w in words):
            continue
        own = [stems(" ".join(w for w in ws if w not in STOP_WORDS)) for ws in words]
        if all(own):  # a word against a word (*full* / *half*), not against a pronoun (*it*)
            for side, side_stems in zip(sides, own, strict=True):
                side.update(side_stems)
    named = [n for n, side in enumerate(sides) if (side - sides[1 - n]) & asked]
    return named[0] if len(named) == 1 else None


def _modifier_named(question: str, clauses: list[str]) -> int | None:
    """Of two clauses side by side that speak of one thing (a word both hold) in two cases, each
    named by up to ``MODIFIER_WORDS`` words right before the thing (no stop word between, none
    the other clause holds: *You can change a follow-up appointment online …, but first
    appointments can only be changed by phone*; *Holders of a WVR annual season ticket get 20%
    off …, but monthly season ticket holders get no discount*; not *deliver to addresses*), the
    clause whose case the question names when it names the other's by none of them."""
    if len(clauses) != 2:
        return None
    tokens = [[w.casefold() for w in _TOKEN.findall(c)] for c in clauses]
    stemmed = [[stem(w) for w in said] for said in tokens]
    shared = set(stemmed[0]) & set(stemmed[1])
    things = {s for s, w in zip(stemmed[0], tokens[0], strict=True)
              if s in shared and w not in STOP_WORDS and len(w) > 2 and w.isalpha()}
    sides: list[set[str]] = [set(), set()]
    for thing in things:
        for number, (said, roots) in enumerate(zip(tokens, stemmed, strict=True)):
            taken, at = 0, roots.index(thing)
            for word, root in zip(reversed(said[:at]), reversed(roots[:at]), strict=True):
                if word in STOP_WORDS or word[0].isdigit() or taken == MODIFIER_WORDS:
                    break
                if root not in shared:  # "annual season ticket": past the shared "season"
                    sides[number].update(s for s in stems(word) if s not in STOP_WORDS)
                    taken += 1
    if not all(sides):  # one clause names no case of its own: not one thing in two cases
        return None
    asked = set(stems(question))
    named = [n for n, side in enumerate(sides) if side & asked]
    return named[0] if len(named) == 1 else None


def _end_named(question: str, clauses: list[str]) -> int | None:
    """Of two clauses of which one says when something opens or starts and the other when it
    closes or ends (*Registration opens on 1 September and closes on 20 September*), the one
    the question asks for when it asks for one end only (*When does enrollment start?*), when the
    later clause goes on with the first one's subject."""
    if len(clauses) != 2:
        return None
    sides = [(bool(words & _STARTS), bool(words & _ENDS)) for words in
             ({w.casefold() for w in re.findall(r"[A-Za-z]+", c)} for c in clauses)]
    if sorted(sides) != [(False, True), (True, False)] or \
            clauses[1].split()[0].casefold() not in _STARTS | _ENDS:
        return None  # the later clause goes on with the first one's subject
    start, end = bool(_ASKS_START.search(question)), bool(_ASKS_END.search(question))
    if start == end:
        return None
    return next(n for n, (opens, closes) in enumerate(sides) if (opens if start else closes))


def _framed(first: str, kept: str, listed: bool) -> str:
    """``kept`` after the first clause's label or opening words (see the module invariant)."""
    label = _LABEL.match(first)
    if label:
        return f"{label.group(0)} … {kept}"
    ends = _STARTS | _ENDS
    if kept.split()[0].casefold() in ends:  # "… and closes on 20 September": its subject
        words = first.split()
        verb = next((n for n, w in enumerate(words) if w.casefold() in ends), 0)
        return f"{' '.join(words[:verb])} … {kept}" if verb else kept
    opening = kept.split()[0].casefold()
    words = first.split()
    if listed and _ITEM_OPENING.fullmatch(opening) and \
            opening in (w.casefold() for w in words[1:]):
        at = max(n for n, w in enumerate(words) if n and w.casefold() == opening)
        return f"{' '.join(words[:at])} … {kept}"
    if not _FRAMED.match(kept):
        return kept
    value = _FRAME_VALUE.search(first)
    opening = first[: value.start()].rstrip(" £$€") if value else ""
    words = _FRAMING.sub("", " " + opening).split()
    if words and words[-1].casefold() == kept.split()[0].casefold():
        words = words[:-1]
    return f"{' '.join(words)} … {kept}" if words else kept


def for_the_case(question: str, sentence: str) -> str:
    """``sentence`` narrowed to the clauses for the question's case (see the module
    invariant)."""
    clauses, level = _clauses(sentence)
    if len(clauses) < 2:
        return sentence
    standing = [_standing(question, clause) for clause in clauses]
    if not any(out for _, out in standing):
        named = _named_by(question, clauses, level)
        if named is None and level in (*_CONTRASTS, *_LISTS, _BARE):
            named = _contrast_named(question, clauses)
        if named is None and level == _CONTRAST_WORD:
            named = _modifier_named(question, clauses)
        if named is None and level != _EXCEPT:
            named = _end_named(question, clauses)
        if named is None:
            return sentence
        standing = [(n == named, n != named) for n in range(len(clauses))]
    kept = [c for c, (fits, _) in zip(clauses, standing, strict=True) if fits]
    if not kept or len(kept) == len(clauses) or (
            level == _EXCEPT and kept[0] != clauses[0] and not _stands_alone(kept[0])):
        return sentence
    text = "; ".join(kept)
    if kept[0] != clauses[0] and all(": " in c for c in clauses):  # a table row's cells
        text = f"{clauses[0]}; {text}"
    elif kept[0] != clauses[0]:
        text = _framed(clauses[0], text, level in _LISTS)
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
