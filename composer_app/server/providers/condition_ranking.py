"""Ranking by the question's situation: the rule whose condition holds comes first.

A question that states its situation (*I ordered at half past eleven*, *we're four people*) is
answered by the sentence whose condition holds for it (*Orders received after 11:00 are ready
the next working day*), not by its sibling with the condition that fails (*orders before 11:00
are ready the same day*), however much closer that sibling's words or meaning are. ``settle``
re-ranks scored sentences of one question part by ``conditions.read``:

* a sentence whose conditions hold gains ``MET_BONUS``;
* a sentence that states the other side of the sentence just before it, whose condition fails
  (*Cancellations received later take effect at the end of the following year* after *… by 30
  September …*, for a letter sent on 15 October), is the rule for the situation: it takes that
  sentence's coverage and score (when higher than its own) plus ``MET_BONUS``;
* a sentence whose condition fails loses ``FAILED_PENALTY``, but only when some sentence of the
  same document holds for the situation: without such a sibling, the failing rule may be the
  answer itself (*Dogs must be at least four months old* for a three-month-old puppy).

Invariants: only the other side of a failed rule changes its ``coverage`` (to that rule's, its
relevance being the same rule's); every other sentence keeps its coverage and only its ``score``
(the ranking) changes; whether the first sentence reaches the threshold to answer never
changes (a situation never turns an answer into "not found": a sentence below the threshold is
not raised above one that reaches it); a question that states no situation leaves the ranking
as it was; ties keep the given order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from composer_app.server.providers.answer_ranking import Part, Scored
from composer_app.server.providers.conditions import read, situation

MET_BONUS = 0.2
FAILED_PENALTY = 0.25
_OTHER_SIDE = re.compile(r"\b(?:later|after\s+(?:that|this|the\s+deadline)|afterwards|thereafter|"
                         r"otherwise|if\s+not|past\s+that|beyond\s+that|any\s+later)\b", re.I)


def _place(scored: Scored, offset: int) -> tuple[str, int, int]:
    return scored.sentence.key, scored.sentence.passage, scored.sentence.index + offset


def settle(part: Part, ranked: Sequence[Scored], threshold: float) -> list[Scored]:
    """``ranked`` (best first) re-ranked by the situation ``part`` states (see the module
    invariant); ``threshold`` is the coverage a sentence needs to answer."""
    if not ranked or not situation(part.text):
        return list(ranked)
    readings = [read(part.text, s.sentence.text) for s in ranked]
    failed_at: dict[tuple[str, int, int], Scored] = {}
    for scored, reading in zip(ranked, readings, strict=True):
        if reading.failed:
            failed_at.setdefault(_place(scored, 0), scored)
    other_side = [None if r.met or r.failed or _OTHER_SIDE.search(s.sentence.text) is None
                  else failed_at.get(_place(s, -1)) for s, r in zip(ranked, readings, strict=True)]
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
    reached = ranked[0].coverage >= threshold  # then what reaches it stays ahead of the rest
    order = sorted(range(len(settled)), key=lambda i: (
        reached and settled[i].coverage < threshold, -settled[i].score, i))
    return [settled[i] for i in order]
