"""Ranking by the question's situation: the rule whose condition holds comes first.

A question that states its situation (*I ordered at half past eleven*, *we're four people*) is
answered by the sentence whose condition holds for it (*Orders received after 11:00 are ready
the next working day*), not by its sibling with the condition that fails (*orders before 11:00
are ready the same day*), however much closer that sibling's words or meaning are. ``settle``
re-ranks scored sentences of one question part by ``conditions.read``:

* a sentence whose conditions hold gains ``MET_BONUS``; so does a sentence that states the
  other side of the sentence just before it, whose condition fails (*Cancellations received
  later take effect at the end of the following year* after *… by 30 September …*, for a
  letter sent on 15 October);
* a sentence whose condition fails loses ``FAILED_PENALTY``, but only when some sentence of the
  same document holds for the situation: without such a sibling, the failing rule may be the
  answer itself (*Dogs must be at least four months old* for a three-month-old puppy).

Invariants: only ``score`` (the ranking) changes, never ``coverage`` (the calibrated relevance
that decides ``used``); a question that states no situation leaves the ranking as it was; ties
keep the given order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from composer_app.server.providers.answer_ranking import Part, Scored
from composer_app.server.providers.conditions import read, situation

MET_BONUS = 0.12
FAILED_PENALTY = 0.25
_OTHER_SIDE = re.compile(r"\b(?:later|after\s+(?:that|this|the\s+deadline)|afterwards|thereafter|"
                         r"otherwise|if\s+not|past\s+that|beyond\s+that|any\s+later)\b", re.I)


def settle(part: Part, ranked: Sequence[Scored]) -> list[Scored]:
    """``ranked`` re-ranked by the situation ``part`` states (see the module invariant)."""
    if not ranked or not situation(part.text):
        return list(ranked)
    readings = [read(part.text, s.sentence.text) for s in ranked]
    failed_at = {(s.sentence.key, s.sentence.passage, s.sentence.index)
                 for s, r in zip(ranked, readings, strict=True) if r.failed}
    met = [r.met or (not r.failed and (s.sentence.key, s.sentence.passage, s.sentence.index - 1)
                     in failed_at and _OTHER_SIDE.search(s.sentence.text) is not None)
           for s, r in zip(ranked, readings, strict=True)]
    holding = {s.sentence.key for s, m in zip(ranked, met, strict=True) if m}
    settled = []
    for scored, reading, good in zip(ranked, readings, met, strict=True):
        change = MET_BONUS if good else (
            -FAILED_PENALTY if reading.failed and scored.sentence.key in holding else 0.0)
        settled.append(replace(scored, score=scored.score + change) if change else scored)
    order = sorted(range(len(settled)), key=lambda i: (-settled[i].score, i))
    return [settled[i] for i in order]
