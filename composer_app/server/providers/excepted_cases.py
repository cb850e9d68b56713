"""A case the question names that the document excepts from the rule an answer states.

A rule is often followed by the cases it does not cover: *Customers aged 70 and over get 10% off
labour on weekday daytime jobs. The discount does not apply to the call-out fee or to parts.* For
*I'm 74. Do I get a discount on the call-out charge?* the rule holds for the asker's age and
leads, yet the exception answers: it names the very thing asked about.

Invariants: an exception is one of the ``EXCEPTION_REACH`` sentences right after the answer in
the same passage, that says something *does not apply to* a case (``_NOT_APPLYING``), no table
row; it answers instead when every word of the first case it names (up to *or*, a comma or the
end: *the call-out fee*) is a word of the question by one of its forms or synonyms (stop words
aside), and one of them is a word the answer does not hold (*call-out*): a case the question
names and the rule does not. A pure function of the sentences and the part it is given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from composer_app.server.providers.answer_ranking import Scored, Sentence
from composer_app.server.providers.question_parts import Part
from composer_app.server.providers.questions import STOP_WORDS
from composer_app.server.providers.term_forms import stems, term_credit

EXCEPTION_REACH = 2  # sentences after an answer among which its exception is looked for

_NOT_APPLYING = re.compile(r"\b(?:does|do|will)\s+not\s+apply\s+to\s+(?P<case>[^,;.]+?)"
                           r"(?=\s+or\b|\s+and\b|[,;.]|$)", re.IGNORECASE)


def exception_for(part: Part, top: Scored, units: Sequence[Sentence]) -> Sentence | None:
    """The sentence after ``top`` that excepts a case ``part`` names from its rule (see the
    module invariant), or ``None``."""
    said = top.sentence
    asked = {t.stem for t in part.terms if not t.number}
    own = set(said.stems)
    for unit in units:
        if unit.key != said.key or unit.passage != said.passage or unit.row_entity or \
                not 0 < unit.index - said.index <= EXCEPTION_REACH:
            continue
        match = _NOT_APPLYING.search(unit.text)
        if match is None:
            continue
        case = [s for s in stems(match["case"]) if s not in STOP_WORDS and s.isalpha()]
        if case and all(term_credit(s, asked) > 0 or any(term_credit(a, {s}) > 0 for a in asked)
                        for s in case) and any(term_credit(s, own) == 0 for s in case):
            return unit
    return None
