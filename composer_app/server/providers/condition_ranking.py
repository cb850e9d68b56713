"""Ranking by the question's situation: the rule whose condition holds comes first.

A question that states its situation (*I ordered at half past eleven*, *we're four people*) is
answered by the sentence whose condition holds for it (*Orders received after 11:00 are ready
the next working day*), not by its sibling with the condition that fails (*orders before 11:00
are ready the same day*), however much closer that sibling's words or meaning are. ``settle``
re-ranks scored sentences of one question part by ``conditions.read``:

* a sentence whose conditions hold gains ``MET_BONUS``, and so does one that refers back to
  (or opens with the subject of) such a sentence just before it (*We lend helmets to them free
  of charge* after *Children under 12 must wear a helmet*, for a ten-year-old), unless it
  states that sentence's other side (*Outside these periods …*), whose condition then fails;
* a sentence that states the other side of the sentence just before it, whose condition fails
  (*Cancellations received later take effect at the end of the following year* after *… by 30
  September …*, for a letter sent on 15 October), is the rule for the situation: it takes that
  sentence's coverage and score (when higher than its own) plus ``MET_BONUS``; so is one
  that states the other side of the sentence before that, across a sentence with no condition
  (*A third dog, and any further dogs, pay the child fare each*, two sentences after *… up to
  two dogs … free of charge*, for three dogs);
* a sentence whose condition holds right after one whose condition of the same kind fails,
  about the same subject, states the same rule for other values (*From November to March, it
  is open from Tuesday to Saturday* after *From April to October, the shop is open daily*, for
  January; *Orders received after 11:00 …* after *… before 11:00 …*, for half past eleven): it
  takes that sentence's coverage and score (when higher than its own) plus ``MET_BONUS``;
* an exception for the group the question asks about, right after the general rule it qualifies
  (*At weekends, departure is possible until 13:00* after *Guests must leave their pitch by
  11:00*, for a Sunday), takes that rule's coverage and score plus ``MET_BONUS`` (*new* alone
  names no group here: *a new one*), and so does one about that group up to two sentences after
  the same rule for another group of its kind (*Vans must stay in Great Britain* after *Cars may
  be taken to France …*, for a van), whatever its words, at that rule's relevance before it was
  found another group's (``answer_ranking.CONTRAST_FACTOR``) when that relevance would lead
  every sentence; so does a sentence that opens with a case the question names (*For home
  visits, the notice period is 48 hours rather than 24 hours*, for *my home visit*; *Visitor
  members have a pre-authorisation of £40*, for *the visitor ChargeCard*), after a rule of the
  same subject (a word besides the group's: *members*) up to ``NAMED_REACH`` sentences before it
  that does not name that case;
* a failed rule that states its own other side (*…; otherwise the full price is charged*)
  holds for the situation, and so does a failed rule that holds only under its condition (*…
  only if the incident lasted longer than 4 hours*) for a question whether it applies (*Do we
  have to …?*): the failing condition is its answer;
* a failed rule that names what a yes-or-no question asks about and whose bound the amount the
  question states does not meet (*free on orders of £45 or more*, for *Will my £40 order get
  free delivery?*) holds for it, unless a sentence states its other side or its rule for other
  values (``_threshold_asked``): its bound is the answer;
* a sentence that only sets the condition of the rule before it (*This applies only to runners
  whose home address is more than 100 kilometres away*) gives that rule its reading and keeps
  none itself;
* a sentence whose condition fails loses ``FAILED_PENALTY``, but only when some sentence of the
  same document holds for the situation: without such a sibling, the failing rule may be the
  answer itself (*Dogs must be at least four months old* for a three-month-old puppy).

When no sentence reaches the threshold, a first sentence whose condition holds for the situation
(*There are no production deployments on Fridays …*, for *put the new version of our site live
on Friday afternoon*) answers from ``MET_FLOOR`` of the threshold: the situation the question
states and the sentence's condition agree, which its words alone (*put … live*, *deployments*)
do not show.

Invariants: only five kinds of sentence change their ``coverage``: the other side of a failed rule,
the same rule for other values after it, and an exception after its rule (to that rule's, their
relevance being the same rule's), and, when the first sentence answers, a sentence of its document
whose condition holds on more than a stretch of time alone (raised to the threshold, as the rule
for the situation in the answering document: *dead for four days* meets *return your router within
30 days* by chance, and a sentence that goes on from a rule holds for the kinds that rule holds
for), and, when none answers, a first sentence whose condition holds and whose coverage is at least
``MET_FLOOR`` of the threshold, that states a value of the kind asked for (an amount for a price
question, ``answer_kinds.lacks_kind``), in a document that holds the names the question gives
(raised to it); every other sentence keeps its coverage and only its ``score`` (the ranking)
changes; a situation never turns an answer into "not found" (a sentence below the threshold is not
raised above one that reaches it); a question that states no situation and names no group leaves
the ranking as it was; ties keep the given order; only the sentences within ``REACH`` of the first
(at most ``MAX_READ``) and their neighbours are read (its cost stays bounded however many sentences
were retrieved).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from composer_app.server.providers.answer_ranking import (
    CONTRAST_FACTOR,
    Scored,
    lacks_asked_kind,
    term_credits,
)
from composer_app.server.providers.conditions import Reading, read, situation
from composer_app.server.providers.measures import UNITS
from composer_app.server.providers.qualifiers import read as read_qualifiers
from composer_app.server.providers.question_parts import Part
from composer_app.server.providers.questions import STOP_WORDS, asks_whether
from composer_app.server.providers.term_forms import stem, stems
from composer_app.server.providers.week_days import ONLY_DAYS

_SPAN_ONLY = frozenset({"span"})  # a stretch of time met by chance (*dead for four days*: *return
# your router within 30 days*) makes no rule the one for the situation
MET_BONUS = 0.2
MET_FLOOR = 2 / 3  # of the threshold: a first sentence whose condition holds answers from here
_AMBIGUOUS = frozenset({"new"})  # "a new one", "the new card": rarely the group of newcomers
FAILED_PENALTY = 0.25
_OPENING = 2  # content words: where a sentence names the thing it goes on about
NAMED_REACH = 3  # sentences back: the general rule a case-named exception qualifies
_NAMED_CASE = re.compile(r"^\s*(?:(?:for|with)\s+(?P<case>(?:[a-z][a-z-]*\s+){0,3}[a-z][a-z-]*),\s"
                         r"|(?P<kind>[a-z][a-z-]*)\s+(?P<group>members|customers|cardholders|"
                         r"holders|users|patients|residents|guests|passengers|drivers|owners|"
                         r"tenants|subscribers|visitors|pupils|students)\s)", re.IGNORECASE)
REACH = 0.6  # below the first sentence's score by more than this, nothing can raise a sentence
MAX_READ = 40
# A sentence that sets the condition of the rule just before it.
_QUALIFYING = re.compile(r"^\s*(?:this|that|these|it)\s+(?:rule\s+|offer\s+|option\s+|service\s+)?"
                         r"(?:only\s+)?(?:applies|apply|is\s+(?:only\s+)?(?:available|valid|"
                         r"possible|open)|holds)\b", re.I)
_OTHER_SIDE = re.compile(r"\b(?:later|after\s+(?:that|this|the\s+deadline)|afterwards|thereafter|"
                         r"otherwise|if\s+not|past\s+that|beyond\s+that|any\s+later|"
                         r"outside\s+(?:these|this|that|those|the\s+above)|at\s+other\s+times|"
                         r"at\s+any\s+other\s+time|any\s+other\s+(?:year\s+group|age\s+group|"
                         r"year|age|grade|day|month|week|season)s?|"
                         r"(?:larger|bigger|higher|greater|smaller|lower)\s+(?:[a-z]+\s+)?"
                         r"(?:amounts?|sums?|orders?|quantities|loans|withdrawals|transfers|"
                         r"payments|purchases)|"
                         r"^\s*(?:larger|bigger|taller|heavier|longer|wider|higher|younger|older|"
                         r"smaller|shorter|lighter|lower)\s+[a-z]+)\b", re.I)
# More of the same beyond a limit (*A third dog, and any further dogs, pay the child fare
# each*; *Additional bags cost £10*): the other side of the limit before, never a rule's own.
_MORE_OF_THEM = re.compile(r"(?:^\s*|\bany\s+)(?:additional|extra|further)\s+(?!(?:information|"
                           r"details|questions|help|advice|notice)\b)[a-z]+\b", re.I)
# A rule's own other side after a semicolon (*… up to 12 metres high; higher windows need a
# specialist firm*), never the other side of the sentence before it.
_OWN_COMPARATIVE = re.compile(r"[;:]\s*(?:larger|bigger|taller|heavier|longer|wider|higher|"
                              r"younger|older|smaller|shorter|lighter|lower)\s+[a-z]+\b", re.I)


def _within_reach(ranked: Sequence[Scored]) -> set[int]:
    """The positions of the sentences a situation can still raise to the top (a score within
    ``REACH`` of the first, at most ``MAX_READ`` of them) and of their neighbours."""
    top = ranked[0].score
    near = [i for i, s in enumerate(ranked[:MAX_READ]) if s.score >= top - REACH]
    wanted = {_place(ranked[i], offset) for i in near for offset in (-1, 0, 1)}
    return {i for i, s in enumerate(ranked) if _place(s, 0) in wanted}


_DAYS_ONLY = frozenset({"weekday"})  # the kinds of a rule that fails only by its days


def _own_other_side(scored: Scored, reading: Reading) -> Reading:
    """A failed rule that states its own other side (*Private lessons must be cancelled at least
    48 hours in advance; otherwise the full price is charged*) answers for the situation that
    fails it."""
    text = scored.sentence.text
    if reading.failed and reading.kinds != _DAYS_ONLY and (
            _OTHER_SIDE.search(text) or _OWN_COMPARATIVE.search(text)):
        return Reading(True, False)  # not the days it holds on only: *… collected later …*
    return reading


# A rule that holds only under its condition (*… only if the incident lasted longer than 4
# hours*), and a question that asks whether (*Do we have to …?*, *Can I …?*).
_ONLY_UNDER = re.compile(r"\bonly\s+(?:if|when|once|after|before|for|from|with|where)\b|"
                         r"\bunless\b", re.I)


def _only_under(part: Part, scored: Scored, reading: Reading) -> Reading:
    """A failed rule that holds only under its condition answers a question whether it applies (*For
    SEV2 incidents, a postmortem is required only if the incident lasted longer than 4 hours*,
    for *Do we have to write a postmortem for a SEV2 that was fixed within an hour?*; *We take
    walk-ins on Wednesdays only*, for *Can I walk in on a Monday?*): its condition failing is
    the answer, no. The condition that fails must be the one the rule holds under (after *only
    if*, *unless*, or its days before *only*): *Pupils in Years 3 to 6 pay for their lunches
    unless they qualify for …* fails for a pupil in Year 2 by its subject, not its
    exception."""
    text = scored.sentence.text
    under = _ONLY_UNDER.search(text) or ONLY_DAYS.search(text.casefold())
    if not reading.failed or under is None or not read(part.text, text[under.start():]).failed:
        return reading
    return Reading(True, False, reading.kinds) if asks_whether(part.text) else reading


def _threshold_asked(part: Part, scored: Scored, reading: Reading) -> Reading:
    """A rule that an amount the question states fails to reach, or exceeds, answers a question
    whether it applies to that amount (*Itemised receipts are required for every claim over £10*,
    for *Do I need a receipt to claim a £7 bus fare?*; *free on orders of £45 or more*, for *Will
    my £40 order get free delivery?*): its bound is the answer, however the amount falls, unless
    a sentence after it states its other side (*Larger cash amounts must be ordered …*) or the
    same rule for other values (*Items over £80 need your line manager's approval*), which
    answers instead. The rule must speak of what the question asks about, by a word of it
    besides the amount and its unit (*receipts*, *standard delivery*): *Parcels up to 5 kg
    travel on a normal bicycle* is no answer to *My box weighs 30 kilos. Can your riders take
    it?*."""
    if not (reading.failed and reading.kinds and asks_whether(part.text)
            and all(kind.startswith("measure:") for kind in reading.kinds)):
        return reading
    credits = term_credits(scored.sentence, part)
    if any(credit == 1.0 and not term.number and term.word.casefold() not in UNITS
           for term, credit in zip(part.terms, credits, strict=True)):
        return Reading(True, False, reading.kinds)
    return reading


def _referring(scored: Scored, reading: Reading, after_met: Reading | None) -> Reading:
    """The reading of a sentence right after a sentence whose condition holds: the other side
    of it fails, even with conditions of its own when its first clause says so (*Outside these
    periods, you can also come without an appointment from Monday to Friday* after *From 1
    October to 30 November, by appointment only*, for a Tuesday in late October), and a
    sentence with no condition of its own that refers back to it or opens with its subject holds
    with it (*We lend helmets to them free of charge* after *Children under 12 must wear a
    helmet*, for a ten-year-old), of the kinds that sentence holds for."""
    if after_met is None:
        return reading
    if reading.met or reading.failed:
        return Reading(False, True) if _opens_with_other_side(scored.sentence.text) else reading
    if _OTHER_SIDE.search(scored.sentence.text):
        return Reading(False, True)
    return Reading(True, False, after_met.kinds) \
        if scored.sentence.back_reference or _continues(scored) else reading


def _continues(scored: Scored) -> bool:
    """Whether the sentence opens with the subject of the sentence before it (*A lead-rein
    lesson lasts 30 minutes and costs 18 euros* after *Children aged 6 to 11 ride our ponies in
    lead-rein lessons*): its first two content words are both words of that sentence."""
    content = [w for w in scored.sentence.stems
               if w not in STOP_WORDS and w.isalpha() and len(w) > 2][:2]
    return len(content) == 2 and all(w in scored.sentence.previous for w in content)


def _qualified(ranked: Sequence[Scored], readings: list[Reading]
               ) -> tuple[list[Reading], set[int]]:
    """``readings`` with the condition of each qualifying sentence (*This applies only to runners
    whose home address is more than 100 kilometres away*) moved to the sentence just before it,
    whose rule it qualifies (*Start numbers can now also be collected on race day*): that rule
    holds or fails with it, and the qualifying sentence itself (its position is returned too)
    reads neither."""
    by_place = {_place(s, 0): i for i, s in enumerate(ranked)}
    moved = list(readings)
    qualifying: set[int] = set()
    for i, scored in enumerate(ranked):
        reading = readings[i]
        before = by_place.get(_place(scored, -1))
        if before is None or not (reading.met or reading.failed) or \
                _QUALIFYING.match(scored.sentence.text) is None:
            continue
        if not (readings[before].met or readings[before].failed):
            moved[before] = reading
        moved[i] = Reading(False, False)
        qualifying.add(i)
    return moved, qualifying


def _opens_with_other_side(text: str) -> bool:
    """Whether the sentence's first clause refers to the other side of the sentence before it
    (*Outside these periods, …*, *If you cancel later, …*; not *…; otherwise …*, the sentence's
    own other side)."""
    match = _OTHER_SIDE.search(text)
    return match is not None and re.search(r"[,;]", text[:match.start()]) is None


def _place(scored: Scored, offset: int) -> tuple[str, int, int]:
    return scored.sentence.key, scored.sentence.passage, scored.sentence.index + offset


def settle(part: Part, ranked: Sequence[Scored], threshold: float) -> list[Scored]:
    """``ranked`` (best first) re-ranked by the situation ``part`` states (see the module
    invariant); ``threshold`` is the coverage a sentence needs to answer."""
    if not ranked or not (situation(part.text) or _asks_a_group(part)):
        return list(ranked)
    reach = _within_reach(ranked)
    readings = [_only_under(part, s, _own_other_side(s, read(part.text, s.sentence.text)))
                if i in reach else Reading(False, False) for i, s in enumerate(ranked)]
    readings, qualifying = _qualified(ranked, readings)
    met_at = {_place(s, 0): r for s, r in zip(ranked, readings, strict=True) if r.met}
    readings = [r if i in qualifying else _referring(s, r, met_at.get(_place(s, -1)))
                for i, (s, r) in enumerate(zip(ranked, readings, strict=True))]
    other_side = _other_sides(part, ranked, readings)
    # a failed rule whose other side, or whose rule for other values, no sentence states
    stated = {_place(o, 0) for o in other_side if o is not None}
    readings = [r if _place(s, 0) in stated else _threshold_asked(part, s, r)
                for s, r in zip(ranked, readings, strict=True)]
    holding = {s.sentence.key for s, r, o in zip(ranked, readings, other_side, strict=True)
               if r.met or o is not None}
    settled = []
    for scored, reading, failed in zip(ranked, readings, other_side, strict=True):
        if failed is not None:  # the other side of a failed rule is as relevant as that rule
            settled.append(replace(scored, coverage=max(scored.coverage, failed.coverage),
                                   score=max(scored.score, failed.score) + MET_BONUS))
            continue
        change = MET_BONUS if reading.met else (
            -FAILED_PENALTY if reading.failed and scored.sentence.key in holding else 0.0)
        settled.append(replace(scored, score=scored.score + change) if change else scored)
    settled = _exceptions(part, settled, [None if i not in reach else r.failed
                                          for i, r in enumerate(readings)])
    reached = ranked[0].coverage >= threshold  # then what reaches it stays ahead of the rest
    if reached:  # the rule for the situation in the answering document answers too
        settled = [replace(s, coverage=threshold)
                   if good and s.coverage < threshold and s.sentence.key == ranked[0].sentence.key
                   else s for s, good in zip(settled, [r.met and r.kinds != _SPAN_ONLY
                                                       for r in readings], strict=True)]
    order = sorted(range(len(settled)), key=lambda i: (
        reached and settled[i].coverage < threshold, -settled[i].score, i))
    first = order[0]
    if not reached and (readings[first].met or other_side[first] is not None) and \
            not settled[first].sentence.elsewhere and not lacks_asked_kind(settled[first], part) \
            and settled[first].coverage >= MET_FLOOR * threshold:  # the rule for the situation
        settled[first] = replace(settled[first], coverage=threshold)
    return [settled[i] for i in order]


def _other_sides(part: Part, ranked: Sequence[Scored], readings: Sequence[Reading]
                 ) -> list[Scored | None]:
    """For each sentence, the failed rule it states the other side of (*Cancellations received
    later …*, *Any further dogs …*), or the failed rule it states for other values
    (``_alternative``); else ``None``."""
    failed_at: dict[tuple[str, int, int], Scored] = {}
    failed_kinds: dict[tuple[str, int, int], frozenset[str]] = {}
    for scored, reading in zip(ranked, readings, strict=True):
        if reading.failed:
            failed_at.setdefault(_place(scored, 0), scored)
            failed_kinds.setdefault(_place(scored, 0), reading.kinds)
    read_at = {_place(s, 0): r for s, r in zip(ranked, readings, strict=True)}

    def failed_before(scored: Scored) -> Scored | None:
        """The failed rule just before, or the one before that across a sentence with no
        condition (*Dogs must be kept on a lead* between two dogs and *any further dogs*)."""
        just_before = read_at.get(_place(scored, -1))
        if just_before is not None and (just_before.met or just_before.failed):
            return failed_at.get(_place(scored, -1))
        return failed_at.get(_place(scored, -2))

    other_side = [None if r.met or r.failed or not (_OTHER_SIDE.search(s.sentence.text) or
                                                     _MORE_OF_THEM.search(s.sentence.text))
                  else failed_before(s) for s, r in zip(ranked, readings, strict=True)]
    return [o if o is not None or not r.met else
            _alternative(part, s, r, failed_at, failed_kinds)
            for s, r, o in zip(ranked, readings, other_side, strict=True)]


def _alternative(part: Part, scored: Scored, reading: Reading,
                 failed_at: dict[tuple[str, int, int], Scored],
                 failed_kinds: dict[tuple[str, int, int], frozenset[str]]) -> Scored | None:
    """The sentence just before ``scored`` (whose condition holds) when it states the same
    rule for other values of the same kind of condition, which fail, and ranks above ``scored``
    (*From April to October, the shop is open daily* before *From November to March, it is open
    from Tuesday to Saturday*, for January); else ``None``. A rule stated before it is a
    different one (*A start place can be transferred until 31 March* before *If you cancel by
    31 January, half of the fee is refunded*), and so is one about fewer of the groups the
    question names (``_names_more``)."""
    place = _place(scored, -1)
    rival = failed_at.get(place)
    if rival is not None and rival.score > scored.score and \
            not reading.kinds.isdisjoint(failed_kinds[place]) and _same_subject(scored, rival) \
            and not _names_more(part, rival, scored):
        return rival
    return None


def _names_more(part: Part, first: Scored, second: Scored) -> bool:
    """Whether ``first`` names a group the question asks about that ``second`` does not (*E-bikes
    are only hired to riders aged 16 and over* against *Helmets … must be worn by all riders
    under 16*, for an e-bike): then ``second`` is no rule about the same thing. A group word
    ``second`` leaves out where it opens with the thing ``first`` names it before (*Payments of
    £100 or less are received free* after *Receiving an international payment of more than £100
    costs £7*) is still said: the sentence goes on about the same payments."""
    more = read_qualifiers(part.text, first.sentence.text).matched - \
        read_qualifiers(part.text, second.sentence.text).matched
    return any(not _left_out(word, first, second) for word in more)


def _left_out(word: str, first: Scored, second: Scored) -> bool:
    """Whether ``first`` names ``word`` right before a noun (*international payment*) that is one
    of the first ``_OPENING`` content words of ``second``."""
    opening = [w for w in second.sentence.stems
               if w not in STOP_WORDS and w.isalpha() and len(w) > 2][:_OPENING]
    return any(stem(noun) in opening and noun not in STOP_WORDS
               for noun in re.findall(rf"\b{re.escape(word)}[- ]+([a-z]{{3,}})",
                                      first.sentence.text.casefold()))


def _asks_a_group(part: Part) -> bool:
    return bool(read_qualifiers(part.text, part.text).matched)


def _exceptions(part: Part, ranked: list[Scored], failed: list[bool | None]) -> list[Scored]:
    """``ranked`` with each exception for the group asked about raised to the general rule it
    qualifies: a sentence about that group (*At weekends, departure is possible until 13:00*)
    right after a sentence of the same subject that names no group of that kind (*Guests must
    leave their pitch by 11:00 on the day of departure*) takes that rule's coverage and score,
    when higher, plus ``MET_BONUS``, when it states a value of the kind asked for (*If your car
    is stolen, report it to the police first* is no exception to *Report any accident to us
    within 48 hours* for *how soon*); a sentence whose condition fails for the situation is no
    exception for it (``failed``, per sentence; ``None`` for one out of reach, left as it is
    unless it opens with a case the question names: ``_named_case``)."""
    by_place = {_place(s, 0): s for s in ranked}
    leading = max((s.score for s in ranked), default=0.0)
    raised = []
    for scored, fails in zip(ranked, failed, strict=True):
        named, group = _named_case(part, scored)
        if fails is None and named:  # out of reach, but the case the question names
            fails = read(part.text, scored.sentence.text).failed
        if fails is None:
            raised.append(scored)
            continue
        own = read_qualifiers(part.text, scored.sentence.text)
        best = scored
        if own.matched - _AMBIGUOUS and not own.contrasted and not fails and \
                not lacks_asked_kind(scored, part):  # "If your car is stolen, report it …"
            general = by_place.get(_place(scored, -1))
            if general is not None and general.score > best.score:
                other = read_qualifiers(part.text, general.sentence.text)
                if not other.matched and not other.contrasted and \
                        _same_subject(scored, general):
                    best = general
            for back in (1, 2):  # "Cars may be taken to France …. Vans must stay in Britain."
                sibling = by_place.get(_place(scored, -back))
                if sibling is None:
                    continue
                other = read_qualifiers(part.text, sibling.sentence.text)
                if other.contrasted and not other.matched:
                    sibling = replace(  # as relevant as before it was found another group's
                        sibling, coverage=min(1.0, sibling.coverage / CONTRAST_FACTOR),
                        score=sibling.score / CONTRAST_FACTOR)
                    if sibling.score > max(best.score, leading):  # it would lead
                        best = sibling
        if named and not fails:
            for back in range(1, NAMED_REACH + 1):
                general = by_place.get(_place(scored, -back))
                if general is not None and general.score > best.score and \
                        named.isdisjoint(general.sentence.stems) and \
                        _same_subject(scored, general, group):
                    best = general
        raised.append(scored if best is scored else replace(
            scored, coverage=max(scored.coverage, best.coverage),
            score=best.score + MET_BONUS))
    return raised


def _named_case(part: Part, scored: Scored) -> tuple[frozenset[str], frozenset[str]]:
    """The content stems of the case a sentence opens with (*For home visits, the notice period
    is 48 hours rather than 24 hours*) when the question names every one of them (*my physio
    home visit*), else none; and the stem of the group noun it names (*members* of *Visitor
    members have …*), which says nothing of the rule's subject."""
    match = _NAMED_CASE.match(scored.sentence.text)
    if match is None:
        return frozenset(), frozenset()
    case = match.group("case") or match.group("kind")
    named = frozenset(stem(w) for w in re.findall(r"[a-z][a-z-]+", case.casefold())
                      if w not in STOP_WORDS and len(w) > 2)
    group = match.group("group")
    groups = frozenset({stem(group.casefold())}) if group else frozenset()
    return (named if named and named <= set(stems(part.text)) else frozenset()), groups


def _same_subject(first: Scored, second: Scored, besides: frozenset[str] = frozenset()) -> bool:
    """Whether the two sentences share a content word not in ``besides`` (an exception names its
    rule's subject once: *departure* in *At weekends, departure is possible until 13:00*), a
    looser test than ``answer_ranking.same_subject``, which tells disagreeing statements
    apart."""
    def content(scored: Scored) -> set[str]:
        return {w for w in scored.sentence.stems if w not in STOP_WORDS and w not in besides
                and not any(c.isdigit() for c in w) and len(w) > 2}
    return not content(first).isdisjoint(content(second))
