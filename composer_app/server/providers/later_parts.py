"""How a later part of a question is answered with the help of an earlier one.

The parts of one question ask about one subject (*How much is the boat, and is that all we need
to pay for?*): a later part repeats few words of its own, so what answers an earlier part tells
where its answer is. Each function here returns the sentence that answers a later part, raised
to the caller's ``threshold``, or ``None``:

* ``companion``: a part no sentence answers, from the document that answers another part (its
  first sentence, or the one the part's own words cover);
* ``beyond_said``: a part whose nearest sentence is an earlier part's answer, by its own words;
* ``neighbour``: a part whose answer stands next to an earlier part's answer;
* ``if_not``: *… and what happens if I don't?*, the sentence after the rule that states it.

Invariants: a sentence is only ever raised, to the threshold, never lowered; ``beyond_said``
and ``neighbour`` never return a sentence already said for an earlier part; all read the ranked
sentences and units they are given (and ``neighbour`` the reader's score), nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from composer_app.server.providers.answer_ranking import Scored, Sentence, lacks_asked_kind, score
from composer_app.server.providers.answer_reading import Reader, doubted
from composer_app.server.providers.question_parts import Part
from composer_app.server.providers.questions import asks_whether

COMPANION_FLOOR = 0.5  # a first sentence this covered answers in a document that answers a sibling
KIND_COMPANION_FLOOR = 0.25  # ... or this covered when it states the kind of value asked
VALUE_KINDS = frozenset(["amount", "time", "quantity", "phone"])  # kinds a sentence states as
# a value (not a name, which almost any sentence holds)
OWN_FLOOR = 0.95  # a later part's own words cover a companion this well
NEIGHBOUR_FLOOR = 0.35  # a sentence this covered next to an earlier part's answer answers a later
NEIGHBOUR_REACH = 2  # sentences either side of an earlier part's answer that stand next to it
NEIGHBOUR_READ = 12  # a later part's first sentences among which its neighbour is looked for


def companion(part: Part, ranked: list[Scored], answering: Collection[str],
              units: Sequence[Sentence], said: Collection[str], threshold: float
              ) -> Scored | None:
    """For a part no sentence answers, a sentence of a document that answers another part of
    the same question (``answering``), raised to ``threshold``: the parts of one question
    (*How much is an outside-only clean, and can I pay by cheque?*) ask about one subject, so
    the document that answers one is where the other is answered (*We no longer accept
    cheques*), however few of its words the short part repeats. That sentence is

    * the first of ``ranked``, at least ``COMPANION_FLOOR`` covered, or ``KIND_COMPANION_FLOOR``
      when the part asks for a value (``VALUE_KINDS``, not yes or no) that it states (*Return
      trips to Westbury Royal Infirmary cost a flat £20* for *How much is the volunteer car to
      Westbury Royal Infirmary and back, and can I pay the driver by card?*);
    * else the one, not yet ``said`` and no table row, that the part's own words (not those it
      leans on) cover at least ``OWN_FLOOR``: *A free repair stand with tools and a pump is
      located next to the lift* for *… and where can I find a pump?*, whose borrowed words
      (*extra rack space for a third bike*) had put it below the threshold."""
    if not ranked:
        return None
    first = ranked[0]
    floor = KIND_COMPANION_FLOOR if part.wants in VALUE_KINDS and \
        not asks_whether(part.text) and not lacks_asked_kind(first, part) else COMPANION_FLOOR
    if first.sentence.key in answering and not first.sentence.elsewhere and \
            floor <= first.coverage < threshold:
        return replace(first, coverage=threshold)
    best = _by_own_words(part, [u for u in units if not u.elsewhere and not u.row_entity],
                         answering, said)
    if best is None or best.coverage < OWN_FLOOR:
        return None
    return replace(best, coverage=max(best.coverage, threshold))


def beyond_said(part: Part, ranked: Sequence[Scored], earlier: Sequence[Scored | None],
                units: Sequence[Sentence], threshold: float) -> Scored | None:
    """For a later part whose first sentence already answers an earlier part, the sentence of
    that document its own words (not those it leans on) cover best, from ``COMPANION_FLOOR``
    up, raised to the threshold; else ``None``."""
    said = {a.sentence.text for a in earlier if a is not None}
    if not ranked or ranked[0].sentence.text not in said:
        return None
    best = _by_own_words(part, units, {ranked[0].sentence.key}, said)
    if best is None or best.coverage < COMPANION_FLOOR:
        return None
    return replace(best, coverage=max(best.coverage, threshold))


def _by_own_words(part: Part, units: Sequence[Sentence], keys: Collection[str],
                  said: Collection[str]) -> Scored | None:
    """The sentence of the documents ``keys``, not in ``said``, that the part's own words cover
    best (scored without the terms it leans on), or ``None`` for a part with no words of its own
    or none it leans on."""
    own = replace(part, terms=tuple(t for t in part.terms if not t.inherited))
    if not own.terms or len(own.terms) == len(part.terms):
        return None
    scored = [score(u, own) for u in units if u.key in keys and u.text not in said]
    return max(scored, key=lambda s: s.score, default=None)


def neighbour(part: Part, ranked: Sequence[Scored], earlier: Sequence[Scored | None],
              threshold: float, reader: Reader | None = None) -> Scored | None:
    """For a later part that no sentence answers, or whose first sentence is an earlier part's
    answer, the best of its first ``NEIGHBOUR_READ`` sentences that stands within
    ``NEIGHBOUR_REACH`` sentences of the nearest earlier answer in the same passage, from
    ``NEIGHBOUR_FLOOR`` up, raised to the threshold; else ``None``, and ``None`` for a part that
    asks a price an earlier answer states (*Band 2 costs £73.50 and covers fillings* answers
    *which band is that and what will it cost me?* whole); a table row never stands next to
    another (the rows of a table are other groups' rules), and a sentence the ``reader`` doubts
    is passed over (*who pays for the team lunch?* is not answered by *Staging deployments need
    one approval from any engineer on the team*). The parts of one question ask about
    one subject, and a document says what belongs together side by side (*After playing, you
    must drag the court* after the shoes the courts need)."""
    answered = [a for a in earlier if a is not None]
    if not answered or (part.wants == "amount" and
                        any(not lacks_asked_kind(a, part) for a in answered)):
        return None
    said = answered[-1].sentence
    texts = {a.sentence.text for a in answered}
    for scored in ranked[:NEIGHBOUR_READ]:
        near = scored.sentence
        if near.key == said.key and near.passage == said.passage and \
                0 < abs(near.index - said.index) <= NEIGHBOUR_REACH and \
                near.text not in texts and scored.coverage >= NEIGHBOUR_FLOOR and \
                not (near.row_entity and said.row_entity):  # rows side by side: other groups
            if doubted(part, scored, reader):
                continue
            return replace(scored, coverage=max(scored.coverage, threshold))
    return None


# A part that asks what follows from not doing what an earlier part asked about (*… and what
# happens if I don't?*, *what if I miss it?*), and a sentence that states it (*If you do not, we
# may charge you a penalty of £70*, *Otherwise …*, *Failing that, …*).
_IF_NOT_ASKED = re.compile(r"^\s*(?:and\s+)?what\s+(?:happens|will\s+happen|would\s+happen|if)\b"
                           r".*\b(?:don['’]?t|do\s+not|doesn['’]?t|does\s+not|didn['’]?t|not|"
                           r"miss|forget|fail)\b", re.IGNORECASE)
_IF_NOT_STATED = re.compile(r"^\s*(?:if\s+(?:you|they|he|she|we)\s+(?:do|does|did)\s+not\b|"
                            r"if\s+(?:you|they|he|she|we)\s+(?:don['’]?t|doesn['’]?t|didn['’]?t|"
                            r"fail|miss|forget)\b|if\s+not\b|otherwise\b|failing\s+(?:this|that)\b|"
                            r"failure\s+to\b)", re.IGNORECASE)


def if_not(part: Part, earlier: Sequence[Scored | None], units: Sequence[Sentence],
           threshold: float) -> Scored | None:
    """For a part that asks what happens if the asker does not do what an earlier part's answer
    requires (``_IF_NOT_ASKED``), the sentence right after that answer when it states just that
    (``_IF_NOT_STATED``), raised to the threshold; else ``None``. Its words are the question's
    least: what it answers is the sentence before it."""
    asking = re.split(r"(?<=[.!?])\s+", part.text.strip())[-1]
    if not _IF_NOT_ASKED.search(asking):
        return None
    for answer in (a for a in reversed(earlier) if a is not None):
        said = answer.sentence
        for unit in units:
            if unit.key == said.key and unit.passage == said.passage and \
                    unit.index == said.index + 1 and _IF_NOT_STATED.search(unit.text):
                found = score(unit, part)
                return replace(found, coverage=max(found.coverage, threshold))
    return None
