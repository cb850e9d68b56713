"""The sentence that goes on with an answer by referring back to it, and the one an answer
goes on from.

A document often states a rule in two sentences, the second leaning on the first through a
pronoun: *Young people aged 14 and 15 may travel alone on daytime services … They may not travel
alone on any service departing after 21:00.* *Short-term visitors … do not take the full
induction. Instead, they receive a 45-minute escorted briefing …* The first alone is half the
answer, and the second alone does not say who *they* are, so an answer quotes both.

Invariants: a continuation is the sentence right after the answer in the same paragraph (same
document, passage and block), that opens with a word referring back (``_OPENERS``: *they*, *it*,
*this*, *these*, *instead*; not *there*, which refers to nothing), is no table row and states no
former value (*It was previously £2.10 per hour*, *This replaces the deposit of £250 in the 2025
terms*): what held before a change is no part of what holds now. An answer that itself opens
with such a word is quoted after the sentence right before it in its paragraph (its
``antecedent``), unless the answer states a former value or an exception to that sentence's
rule (``_EXCEPTION``: *This discount does not apply to emergency emptying*, whose case it names
itself), or either is a table row. Pure functions of the sentences they are given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from composer_app.server.providers.answer_ranking import Sentence
from composer_app.server.providers.former_rules import states_former

_OPENERS = re.compile(r"^\s*(?:they|it|this|these|instead)\b", re.IGNORECASE)
# An answer that excepts a case from the rule before it names that case itself: *This discount
# does not apply to emergency emptying* answers alone whether the discount applies.
_EXCEPTION = re.compile(r"\b(?:does|do|will)\s+not\s+apply\b|\bcannot\s+be\s+combined\b|"
                        r"\b(?:is|are)\s+not\s+(?:valid|available)\b", re.IGNORECASE)
_FORMER = re.compile(r"\b(?:previously|formerly|replac(?:es|ed|ing))\b", re.IGNORECASE)


def continuation(answer: Sentence, units: Sequence[Sentence]) -> Sentence | None:
    """The sentence of ``units`` that goes on with ``answer`` (see the module invariant), or
    ``None``."""
    after = _beside(answer, units, 1)
    return after if after is not None and _leans_back(after.text) else None


def antecedent(answer: Sentence, units: Sequence[Sentence]) -> Sentence | None:
    """The sentence of ``units`` that ``answer`` goes on from (see the module invariant), or
    ``None`` when it opens with no word referring back."""
    if not _leans_back(answer.text) or _EXCEPTION.search(answer.text):
        return None
    return _beside(answer, units, -1)


def _leans_back(text: str) -> bool:
    return _OPENERS.match(text) is not None


def _beside(answer: Sentence, units: Sequence[Sentence], step: int) -> Sentence | None:
    """The sentence ``step`` places from ``answer`` in its paragraph, when neither is a table
    row and the later of the two states no former value."""
    if answer.row_entity:
        return None
    for unit in units:
        if unit.key == answer.key and unit.passage == answer.passage and \
                unit.block == answer.block and unit.index == answer.index + step:
            later = unit if step > 0 else answer
            if unit.row_entity or _FORMER.search(later.text) or states_former(later.text):
                return None
            return unit
    return None
