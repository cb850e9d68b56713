"""Deciding what the offline assistant answers: the direct sentences, used and checked documents,
a conflict between documents, and an honest "not found".

Invariants: a part of the question is answered only by a sentence whose ``coverage`` reaches
``USED_THRESHOLD`` (a first sentence from ``MET_FLOOR`` of it up is raised to it when its condition
holds for the situation the question states, ``condition_ranking``, or when it grants or refuses
the permission the question asks for, ``_permission_rule``; a first sentence that only the sentence
model raised to it for a part that asks yes or no or for a value and that the reader doubts is put
back to its coverage by words, and the first of the next ``NEXT_READ`` sentences that reaches the
threshold and is not doubted answers instead, ``_undoubted``; a first sentence from ``LEAD_FLOOR``
up is raised to it when no other sentence comes within ``LEAD_RATIO`` of it, ``_clear_lead``; a
later part is answered with the help of an earlier one as ``later_parts`` says: from the document
that answers another part (``companion``), by the sentence after the rule for *what happens if I
don't* (``if_not``), by its own words when its nearest sentence is already said (``beyond_said``),
by the sentence next to an earlier answer (``neighbour``); a part whose nearest sentence is already
said for another part is not reported as unanswered; a part that asks whether something exists or
is offered is not answered from a document that never names the thing, ``offered_things``, nor is a
later part that speaks of that thing (*…, and what do they cost?*); no part is answered by a line
that frames its document, its words about itself or, for a part that asks for no name, its masthead
(``document_frames``), but by the next sentence from the threshold up, ``_frames``); with no part
answered there is no direct sentence and no ``used`` document; the documents of the direct
sentences come first among ``used``; when another document answers the same part nearly as well
(``CONFLICT_RATIO`` of the score) about the same subject (one of the question's subject pairs found
together in both, when the answer has any: ``shares_subject``) (``same_subject``) with different
numbers, the one that is newer by its own written date (else its modification time) is answered
from and the other is only ``checked``, and ``conflict`` names both in one sentence (when they
agree, the newer one answers and nothing is named; a sentence that says only that a value stays as
it was, *The overtime rates … are unchanged*, is no rival, and when it leads, the rival's value
answers; a document that holds the names the question gives counts them as its headings when it is
such a rival; a newer document's sentence among the first ``CHANGE_READ``, from ``CHANGE_FLOOR`` of
the threshold up, that states a change of the value the answer states, holding that value or saying
it replaces it, answers instead and names the conflict: ``_changed_by_newer``); a direct sentence
that is a table row keeps only the cells of the group the question asks about (``row_cells``);
every document's ``coverage`` (its confidence) is the best coverage of any of its sentences over
the question's parts; a document that gives a direct sentence is cited and quoted at that sentence
(its first, when several).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from composer_app.server.providers.answer_kinds import value_shapes
from composer_app.server.providers.answer_meaning import MAX_CANDIDATES, Similarity, rejudge
from composer_app.server.providers.answer_ranking import (
    Scored,
    Sentence,
    context_quote,
    lacks_asked_kind,
    numbers_of,
    passage_sentences,
    same_subject,
    score,
    shares_subject,
    term_credits,
    topic_words,
)
from composer_app.server.providers.answer_reading import Reader, doubted, reread
from composer_app.server.providers.case_clauses import for_the_case
from composer_app.server.providers.condition_ranking import MET_FLOOR, settle
from composer_app.server.providers.conditions import read, situation
from composer_app.server.providers.continuations import antecedent, continuation
from composer_app.server.providers.document_frames import describes_itself, is_masthead
from composer_app.server.providers.document_versions import may_revise
from composer_app.server.providers.excepted_cases import exception_for
from composer_app.server.providers.extractive import Evidence, SourceRef
from composer_app.server.providers.later_parts import (
    beyond_said,
    companion,
    if_not,
    neighbour,
)
from composer_app.server.providers.offered_things import never_named, speaks_of
from composer_app.server.providers.passage_store import unmark
from composer_app.server.providers.question_parts import Part, Term
from composer_app.server.providers.questions import asks_whether
from composer_app.server.providers.row_cells import defined_periods, for_the_asked
from composer_app.server.providers.term_forms import stem, stems, term_credit
from composer_app.server.providers.term_polarity import PERMISSION_STEMS

USED_THRESHOLD = 0.6
LEAD_FLOOR = 0.44  # a first sentence this covered answers when it clearly leads (``_clear_lead``)
LEAD_RATIO = 0.5  # of the first sentence's coverage: what every other sentence stays within
NEXT_READ = 3  # sentences after a doubted first one: the next that reaches the threshold answers
CONFLICT_RATIO = 0.75
CHANGE_FLOOR = 0.3  # of the threshold: a newer sentence stating a change answers from here
CHANGE_READ = 12  # the first sentences read for a newer document's change
ALSO_USED_RATIO = 0.92
MAX_USED = 3
MAX_CHECKED = 8


def _permission_rule(part: Part, ranked: list[Scored]) -> list[Scored]:
    """``ranked`` with its first sentence raised to ``USED_THRESHOLD`` when it is below it but
    at least ``MET_FLOOR`` of it, the question asks permission (*Can I burn leaves and branches in
    my allotment?*) and the sentence grants or refuses permission for that very verb (*Garden
    waste is composted on the plot; it may not be burned*), in a document that holds the names
    the question gives: as a rule that holds for the situation the question states
    (``condition_ranking``), the rule answers what the words alone only come near."""
    if not ranked or part.permission is None:
        return ranked
    first = ranked[0]
    own = set(first.sentence.stems)
    if MET_FLOOR * USED_THRESHOLD <= first.coverage < USED_THRESHOLD and \
            not first.sentence.elsewhere and not PERMISSION_STEMS.isdisjoint(own) and \
            term_credit(part.permission, own) == 1.0:
        return [replace(first, coverage=USED_THRESHOLD), *ranked[1:]]
    return ranked


def _clear_lead(part: Part, ranked: list[Scored]) -> list[Scored]:
    """``ranked`` with its first sentence raised to ``USED_THRESHOLD`` when it is below it but
    at least ``LEAD_FLOOR``, in a document that holds the names the question gives, and every
    other sentence covers at most ``LEAD_RATIO`` of it: one sentence of the folder stands out
    for the question (*What does it cost to replace a lost access badge?*: *A lost key card is
    replaced for 25 euros*, the next sentence covering a third as much), so the words it lacks
    are the question's own (*badge* for *key card*), not a sign that it is about something else.
    A question the folder cannot answer mostly comes near several sentences of its topic alike;
    in a small folder one sentence may still stand out by naming only the topic (*Can I rent a
    canoe at the allotment garden?*: *Garden waste is composted on the plot; it may not be
    burned*), so only a sentence that holds itself, word for word, a key term its title and
    headings do not hold can lead (a permission it refuses is no such term)."""
    if not ranked:
        return ranked
    first = ranked[0]
    if not LEAD_FLOOR <= first.coverage < USED_THRESHOLD or first.sentence.elsewhere:
        return ranked
    topic = topic_words(first.sentence, part)
    if not any(credit >= 1.0 and term not in topic
               for term, credit in zip(part.terms, term_credits(first.sentence, part),
                                       strict=True)):
        return ranked
    others = (s.coverage for s in ranked[1:] if s.sentence.text != first.sentence.text)
    if max(others, default=0.0) > LEAD_RATIO * first.coverage:
        return ranked
    return [replace(first, coverage=USED_THRESHOLD), *ranked[1:]]


def _undoubted(part: Part, ranked: list[Scored], reader: Reader | None,
               by_words: dict[str, float], by_meaning: dict[str, float]) -> list[Scored]:
    """``ranked`` with its first sentence put back to its coverage by words when the part asks
    yes or no (*Does Blue Reef Aquatics sell tortoises?*) or for a value (a price, a time, a
    number: *How much does it cost to rent the bedside TV?*, answered by meaning alone with a
    car park's weekly ticket), only the sentence model, or the permission rule by the verb alone
    (*Can I bring my dog to work?*: *Members may bring up to 2 guests per day*), raised the
    sentence to ``USED_THRESHOLD`` (``by_words`` below it, ``by_meaning`` from it up) and the
    reader doubts it (``answer_reading.doubted``); the first of the next ``NEXT_READ`` sentences
    that reaches the threshold and that the reader does not doubt then comes first (*How long
    can I pause it if I break my leg?*: *Students on a year abroad can freeze for up to 12
    months* doubted, *If you are injured or ill, you can freeze your membership for up to 3
    months* next). A question whether a place offers something
    it never mentions comes near a sentence of its topic by meaning alone, where a question what
    or who (*Who should I contact about a toothache on a Saturday night?*) is often answered by
    meaning alone (*… patients call the regional dental emergency service*) and the reader
    rarely doubts such an answer. A sentence whose
    conditions on a time of day, a date or an age hold for the situation the part states (*On
    weekday evenings, off-peak tickets are not valid … between 16:30 and 18:30* for *quarter past
    five on a Thursday*), or fail for it (*You must be 18 or over* for a daughter of 17), is not
    doubted: it speaks of the asker's own case (a duration is not enough: *two weeks back to
    back* meets *within 8 weeks of arrival* by chance)."""
    if not ranked or ranked[0].coverage < USED_THRESHOLD or not (asks_whether(part.text)
                                                                   or part.wants in _VALUES):
        return ranked
    first = ranked[0]
    words = by_words.get(first.sentence.text, 0.0)
    if words >= USED_THRESHOLD or by_meaning.get(first.sentence.text, 0.0) < USED_THRESHOLD or \
            _own_case(part, first) or not doubted(part, first, reader):
        return ranked
    lowered, rest = replace(first, coverage=words), ranked[1:]
    for number, scored in enumerate(rest[:NEXT_READ]):
        if scored.coverage >= USED_THRESHOLD and scored.sentence.text != first.sentence.text \
                and not doubted(part, scored, reader):
            return [scored, lowered, *rest[:number], *rest[number + 1:]]
    return [lowered, *rest]


def _situated(part: Part, first: Part) -> Part:
    """``part`` as its situation is read: a later part that states less of it than the first
    (*… for our third car, and what does it cost?*) is read after the first part's words."""
    if part is first or set(situation(first.text)) <= set(situation(part.text)):
        return part
    return replace(part, text=f"{first.text}. {part.text}")


_OWN_CASE_KINDS = frozenset({"clock", "day", "age", "school_year"})
_VALUES = frozenset({"amount", "time", "quantity", "phone"})  # asked for, doubted (not a name)


def _own_case(part: Part, scored: Scored) -> bool:
    """Whether the sentence's conditions hold, or fail, for the part's situation on a time of
    day, a date or an age (``_undoubted``): either way the rule speaks of the asker's case
    (*You must be 18 or over … to join* for a daughter of 17)."""
    reading = read(part.text, scored.sentence.text)
    return (reading.met or reading.failed) and not _OWN_CASE_KINDS.isdisjoint(reading.kinds)


@dataclass(frozen=True, slots=True)
class Direct:
    """A sentence that answers a part of the question, and the passage it comes from."""

    evidence: Evidence
    sentence: str


@dataclass(frozen=True, slots=True)
class Choice:
    """What to answer (see the module invariant)."""

    direct: list[Direct] = field(default_factory=list)
    used: list[Evidence] = field(default_factory=list)
    checked: list[Evidence] = field(default_factory=list)
    conflict: str | None = None
    unanswered: list[str] = field(default_factory=list)
    quotes: dict[str, str] = field(default_factory=dict)


def _units(evidences: Sequence[Evidence]) -> list[Sentence]:
    units: list[Sentence] = []
    for number, evidence in enumerate(evidences):
        hit = evidence.hit
        if evidence.ref.code:
            text = unmark(hit.marked)
            title = frozenset(stems(evidence.ref.title))
            units.append(Sentence(evidence.ref.id, number, number, 0, 0, text,
                                  tuple(stems(text)), title, frozenset(), False))
        else:
            units.extend(passage_sentences(evidence.ref.id, number, number, evidence.ref.title,
                                           hit.marked))
    return units


def _readable(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


def choose(parts: Sequence[Part], evidences: Sequence[Evidence],
           dated: Callable[[SourceRef], date | None], similarity: Similarity | None = None,
           *, nearby: Collection[str] = (), candidates: int = MAX_CANDIDATES,
           named: Collection[str] | None = None, names: Collection[str] = (),
           reader: Reader | None = None) -> Choice:
    """The answer to ``parts`` from the retrieved ``evidences`` (best first); with
    ``similarity`` (a sentence model), a part no sentence answers by its words is judged again
    by meaning (``answer_meaning``); with ``reader`` (a cross-encoder), a part whose first
    sentence does not clearly lead has its closest sentences read again (``answer_reading``);
    ``named``, when given, holds the ids of the documents that
    hold the names the question gives (``names``: ``question_names``), and a sentence of any
    other document is a near miss (``Sentence.elsewhere``)."""
    units = _units(evidences)
    if named is not None:
        units = [u if u.key in named else replace(u, elsewhere=True) for u in units]
    by_key = {e.ref.id: e for e in evidences}
    coverage: dict[str, float] = {}
    best_unit: dict[str, Scored] = {}
    answers: list[Scored | None] = []
    rankings: list[list[Scored]] = []
    nearest: list[Scored | None] = []
    older: set[str] = set()
    conflict: str | None = None
    given = frozenset(stem(name) for name in names) if named is not None else frozenset()
    for part in parts:
        ranked = sorted((score(u, part) for u in units), key=lambda s: -s.score)
        by_words = {s.sentence.text: s.coverage for s in ranked}
        judged = rejudge(part, ranked, similarity, USED_THRESHOLD, nearby=nearby,
                         candidates=candidates)
        by_meaning = {s.sentence.text: s.coverage for s in judged}
        settled = settle(_situated(part, parts[0]), judged, USED_THRESHOLD)
        permitted = _permission_rule(part, settled)
        if permitted and permitted[0].coverage > settled[0].coverage:  # by its verb alone:
            by_meaning[permitted[0].sentence.text] = permitted[0].coverage  # doubted as meaning
        ranked = _clear_lead(part, permitted)
        ranked = _undoubted(part, reread(part, ranked, reader, USED_THRESHOLD), reader,
                            by_words, by_meaning)
        # each document's first sentence, or its first from the threshold up that states the
        # kind asked for (a notice's list of what changes is no rival: "… parking charge, …")
        per_doc: dict[str, Scored] = {}
        lacking: set[str] = set()
        for scored in ranked:
            key = scored.sentence.key
            if key not in per_doc:
                per_doc[key] = scored
                if lacks_asked_kind(scored, part):
                    lacking.add(key)
            elif key in lacking and scored.coverage >= USED_THRESHOLD and \
                    not lacks_asked_kind(scored, part):
                per_doc[key] = scored
                lacking.discard(key)
            coverage[key] = max(coverage.get(key, 0.0), scored.coverage)
            if key not in best_unit or scored.score > best_unit[key].score:
                best_unit[key] = scored
        rankings.append(ranked)
        nearest.append(ranked[0] if ranked else None)
        top = ranked[0] if ranked and ranked[0].coverage >= USED_THRESHOLD else None
        top = if_not(part, answers, units, USED_THRESHOLD) or \
            beyond_said(part, ranked, answers, units, USED_THRESHOLD) or top
        if top is None or top.sentence.text in {a.sentence.text for a in answers if a}:
            top = neighbour(part, ranked, answers, USED_THRESHOLD, reader) or top
        excepting = exception_for(part, top, units) if top is not None else None
        if top is not None and excepting is not None:  # "… does not apply to the call-out fee"
            top = replace(score(excepting, part), coverage=top.coverage)
        if top is not None and (never_named(part, top, units) or (
                part is not parts[0] and speaks_of(part, parts[0]) and
                never_named(parts[0], top, units))):
            top = None  # "Is there Wi-Fi …?" of a document that never names Wi-Fi
        if top is not None and _frames(top, part):  # "Westmarch Valley Railway"
            top = next((s for s in ranked if s.coverage >= USED_THRESHOLD
                        and not _frames(s, part)), None)
        if top is not None and not _is_code(by_key[top.sentence.key]):
            rivals = _named_rivals(per_doc, part, given) if given else per_doc
            top, line, loser = _resolve_conflict(top, rivals, by_key, dated, part)
            if line is None:
                top, line, loser = _changed_by_newer(top, ranked, by_key, dated, part)
            if line is not None and loser is not None:
                conflict = conflict or line
                older.add(loser)
        answers.append(top)
    answering = {a.sentence.key for a in answers if a is not None}
    told = {a.sentence.text for a in answers if a is not None}
    answers = [a if a is not None else companion(part, ranked, answering, units, told,
                                                 USED_THRESHOLD)
               for a, ranked, part in zip(answers, rankings, parts, strict=True)]
    answered = [a for a in answers if a is not None]
    if not answered:
        checked = _ordered(best_unit, evidences, coverage, exclude=set())[:MAX_CHECKED]
        return Choice(checked=checked)
    direct: list[Direct] = []
    said: set[str] = set()
    for part, scored in ((p, a) for p, a in zip(parts, answers, strict=True) if a is not None):
        evidence = by_key[scored.sentence.key]
        if _is_code(evidence) or scored.sentence.text in said:
            continue
        said.add(scored.sentence.text)
        passage = evidences[scored.sentence.passage]
        periods = defined_periods(u.text for u in units if u.key == scored.sentence.key) \
            if scored.sentence.row_entity else {}  # "High season runs from 1 July …"
        text = for_the_asked(part.text, scored.sentence.text, periods, scored.sentence.title) \
            if scored.sentence.row_entity else for_the_case(part.text, scored.sentence.text)
        before = antecedent(scored.sentence, units)  # "They may not travel alone …" says
        if before is not None and before.text not in said:  # who "they" are by the one before
            said.add(before.text)
            text = f"{before.text} {text}"
        going_on = continuation(scored.sentence, units)
        if going_on is not None and going_on.text not in said:
            said.add(going_on.text)
            text = f"{text} {going_on.text}"
        direct.append(Direct(_with(passage, coverage[scored.sentence.key]), text))
    keys = list(dict.fromkeys(a.sentence.key for a in answered))
    for scored in reversed(answered):  # a document that answers is cited and quoted at its answer
        best_unit[scored.sentence.key] = scored
    strongest = max(coverage[k] for k in keys)
    for key in _ordered_keys(best_unit, coverage):
        if key not in keys and key not in older and \
                coverage[key] >= max(USED_THRESHOLD, ALSO_USED_RATIO * strongest):
            keys.append(key)
    keys = keys[:MAX_USED]
    used = [_with(evidences[best_unit[k].sentence.passage], coverage[k]) for k in keys]
    checked = _ordered(best_unit, evidences, coverage, exclude=set(keys))[:MAX_CHECKED]
    unanswered = [part.text for part, a, near in zip(parts, answers, nearest, strict=True)
                  if a is None and (near is None or near.sentence.text not in said)]
    quotes = {k: context_quote(best_unit[k].sentence,
                               evidences[best_unit[k].sentence.passage].hit.marked)
              for k in keys if not _is_code(by_key[k])}
    return Choice(direct, used, checked, conflict, unanswered, quotes)


def _frames(scored: Scored, part: Part) -> bool:
    """Whether ``scored`` frames its document instead of answering ``part``: it says what the
    document is about, or it is the masthead and ``part`` asks for no name (who, where)."""
    text = scored.sentence.text
    return describes_itself(text) or (part.wants != "name" and is_masthead(text))


def _named_rivals(per_doc: dict[str, Scored], part: Part, given: frozenset[str]
                  ) -> dict[str, Scored]:
    """``per_doc`` with each document's best sentence scored again with the names the question
    gives (``given``, stems) counted as its headings, where that covers more: a document that
    holds the names (it is no near miss) may name them only on the line under its title (*Notice
    of 2 February 2026* … *Stadtbad Ostend, municipal sauna*), and its newer rule must still
    stand against the older one. Used only to find such a rival, never to answer on its own."""
    rivals = dict(per_doc)
    for key, scored in per_doc.items():
        if scored.sentence.elsewhere:
            continue
        again = score(replace(scored.sentence, heading=scored.sentence.heading | given), part)
        if again.coverage > scored.coverage:
            rivals[key] = replace(scored, coverage=again.coverage,
                                  score=scored.score + again.coverage - scored.coverage)
    return rivals


def _is_code(evidence: Evidence) -> bool:
    return evidence.ref.code


def _with(evidence: Evidence, coverage: float) -> Evidence:
    return replace(evidence, coverage=coverage)


def _ordered_keys(best_unit: dict[str, Scored], coverage: dict[str, float]) -> list[str]:
    return sorted(best_unit, key=lambda k: (-coverage[k], -best_unit[k].score))


def _ordered(best_unit: dict[str, Scored], evidences: Sequence[Evidence],
             coverage: dict[str, float], exclude: set[str]) -> list[Evidence]:
    return [_with(evidences[best_unit[k].sentence.passage], coverage[k])
            for k in _ordered_keys(best_unit, coverage) if k not in exclude]


def _resolve_conflict(top: Scored, per_doc: dict[str, Scored], by_key: dict[str, Evidence],
                      dated: Callable[[SourceRef], date | None], part: Part
                      ) -> tuple[Scored, str | None, str | None]:
    """``top`` or a newer rival that answers the same part with different numbers, the line
    naming the conflict and the key of the document not answered from."""
    mine = numbers_of(top.sentence.text)
    for key, rival in per_doc.items():
        if key == top.sentence.key or _is_code(by_key[key]) or _unchanged(rival.sentence.text):
            continue  # "The overtime rates … are unchanged": the older value still holds
        if rival.coverage < USED_THRESHOLD or rival.score < CONFLICT_RATIO * top.score:
            continue
        if not shares_subject(top.sentence, rival.sentence, part) or \
                not may_revise(top.sentence, rival.sentence):
            continue
        theirs = numbers_of(rival.sentence.text)
        if not same_subject(top.sentence.text, rival.sentence.text):
            continue
        if _unchanged(top.sentence.text):  # it says only that the rival's value still holds
            return rival, None, None
        first, second = by_key[top.sentence.key].ref, by_key[key].ref
        day_first, day_second = dated(first), dated(second)
        if not (mine or theirs) or mine == theirs:  # they agree: answer from the newer one
            if day_first is not None and day_second is not None and day_second > day_first:
                return rival, None, None
            continue
        if day_first is not None and day_second is not None and day_second > day_first:
            return rival, _line(second, day_second, first, day_first), top.sentence.key
        if day_first is not None and day_second is not None and day_first > day_second:
            return top, _line(first, day_first, second, day_second), key
        return top, (f"{_name(second)} says something different; check which of the two "
                     f"documents is current."), None
    return top, None, None


# A sentence that states a change of a value (*The joining fee rises from £20 to £25 …*) or that
# replaces an older document's figure (*… is £17, replacing the figure shown in our April 2024
# tariff*).
_CHANGE = re.compile(r"\b(?:rises?|rising|goes\s+up|going\s+up|increases?|increasing|falls?|"
                     r"drops?|reduced|changes?|changing)\s+(?:\w+\s+){0,3}?from\b[^.;]{0,40}?\bto\b"
                     r"|\breplac(?:es|ing|ed)\s+the\s+(?:\w+\s+){0,2}(?:figure|price|fee|charge|"
                     r"rate|amount|value)", re.IGNORECASE)
# A sentence saying a value stays as it was (*… are unchanged*, *stay the same*, *still apply*).
_UNCHANGED = re.compile(r"\b(?:unchanged|(?:remains?|stays?)\s+(?:the\s+)?same|(?:still|"
                        r"continues?\s+to)\s+apply|do(?:es)?\s+not\s+change|not\s+changing)\b",
                        re.IGNORECASE)
_REPLACES = re.compile(r"\breplac(?:es|ing|ed)\b", re.IGNORECASE)
# A value stated as the new one (*On Sundays, collection is now between 14:00 and 15:30*).
_NOW = re.compile(r"\b(?:is|are|will\s+be)\s+now\b|\bnow\s+(?:costs?|is|are|runs?|opens?|closes?|"
                  r"starts?|ends?|takes?|pays?|applies|lasts?|charges?)\b", re.IGNORECASE)


def _unchanged(text: str) -> bool:
    """Whether the sentence says only that a value stays as it was (*The overtime rates for
    weekdays and Sundays are unchanged*): it states no value and no change of its own."""
    return _UNCHANGED.search(text) is not None and _CHANGE.search(text) is None and \
        not numbers_of(text)


def _changed_by_newer(top: Scored, ranked: Sequence[Scored], by_key: dict[str, Evidence],
                      dated: Callable[[SourceRef], date | None], part: Part
                      ) -> tuple[Scored, str | None, str | None]:
    """``top`` or the sentence of a newer document that changes the value ``top`` states, the
    line naming the conflict and the key of the document not answered from. A notice often
    states the change in words a question does not use (*The joining fee rises from £20 to £25
    for new members joining from 1 March 2026*, for *What's the one-off fee I'll be charged?*):
    among the first ``CHANGE_READ`` sentences, one from ``CHANGE_FLOOR`` of the threshold up, in
    a newer document, that states a change (``_CHANGE``) and holds a number of ``top`` (the
    value changed) and a key term of the question ``top`` holds, or says it replaces a figure
    and holds the heaviest key term ``top`` holds (what the value is of: *SWIFT*), or states a
    value of the kind asked for as the new one (``_states_new_value``), answers
    instead. A sentence set back as only naming its document's topic (*Joining fee*) may still
    state the change, hence the low floor; the other conditions make it the same value."""
    older = by_key[top.sentence.key].ref
    day = dated(older)
    if day is None:
        return top, None, None
    mine = numbers_of(top.sentence.text)
    held = [t for t in part.terms if not t.number and t.stem in top.sentence.stems]
    if not held:
        return top, None, None
    subject = max(held, key=lambda t: t.weight).stem  # what the answer's value is of
    for rival in ranked[:CHANGE_READ]:
        key = rival.sentence.key
        if key == top.sentence.key or rival.sentence.elsewhere or _is_code(by_key[key]) or \
                rival.coverage < CHANGE_FLOOR * USED_THRESHOLD:
            continue
        newer = by_key[key].ref
        newer_day = dated(newer)
        text = rival.sentence.text
        if newer_day is None or newer_day <= day or not may_revise(top.sentence, rival.sentence):
            continue
        own = set(rival.sentence.stems)
        changed = bool(_CHANGE.search(text)) and (
            (bool(mine & numbers_of(text)) and any(t.stem in own for t in held))
            or (bool(_REPLACES.search(text)) and subject in own))
        if changed or _states_new_value(top, rival, part, held):
            answer = replace(rival, coverage=max(rival.coverage, USED_THRESHOLD))
            return answer, _line(newer, newer_day, older, day), top.sentence.key
    return top, None, None


def _states_new_value(top: Scored, rival: Scored, part: Part, held: Sequence[Term]) -> bool:
    """Whether ``rival`` states a value of the kind ``part`` asks for, of a shape ``top``'s
    value has (a clock time for a clock time), as the new one (*On Sundays, collection is now
    between 14:00 and 15:30*), holding two of the key terms the older answer holds (``held``;
    the one, when it holds one)."""
    own = set(rival.sentence.stems)
    return bool(_NOW.search(rival.sentence.text)) and \
        bool(value_shapes(top.sentence.text) & value_shapes(rival.sentence.text)) and \
        sum(term_credit(t.stem, own) > 0.0 for t in held) >= min(2, len(held)) and \
        not lacks_asked_kind(rival, part)


def _name(ref: SourceRef) -> str:
    return re.sub(r"\s+", " ", ref.title)


def _line(newer: SourceRef, newer_day: date, older: SourceRef, older_day: date) -> str:
    return (f"{_name(older)} ({_readable(older_day)}) says something different; this answer "
            f"follows {_name(newer)}, the newer document ({_readable(newer_day)}).")
