"""What a sentence states a price for, against what a price question asks the price of.

*How much does the official language exam cost?* is not answered by *Course books are not included
and cost between 25 and 35 euros*, nor *How much does a managed hosting plan cost per month?* by
*… each further restore costs 49 euros*: the sentence names what costs the amount, and it is none
of the things the question names.

Invariants: ``priced_things(text)`` lists, for every *cost*, *costs* or *costing* of the sentence,
the stems of the words before it in its clause (a clause starts after ``;``, ``:``, ``,`` or
``(``), without stop words, pronouns, the words that only say a price is meant (*fee*,
*price*, *charge*) and those that name what is paid for only through its context (*entry*,
*a session*, *children*, *per day*); a clause whose words before the verb are only those names
nothing and is left out. ``priced_elsewhere(text, terms, heading)`` is true only when the
sentence names at least one priced thing and every one of them shares no stem with the
question's key terms (a synonym or a related form counts as shared, ``term_forms.term_credit``):
a sentence that names no priced thing, or names one the question names too (or sits under a
heading that does), is never a near miss here. Words alone cannot see a paraphrase (*a dental
hygiene session*, *professional teeth cleaning*): ``answer_meaning`` asks the sentence model
about the clause before the near miss stands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from composer_app.server.providers.questions import STOP_WORDS
from composer_app.server.providers.term_forms import stems, term_credit

_COST_VERB = re.compile(r"\bcost(?:s|ing)?\b", re.IGNORECASE)
_CLAUSE_START = re.compile(r"[;:,(]")
# Words that say a price is meant, not what it is the price of.
_PRICE_WORDS = frozenset(stems("fee fees price prices charge charges cost costs amount rate "
                               "sum total one ones each every further additional extra"))
# Words that name what is paid for only through its context (*Entry costs 12 euros* under the
# sauna's heading, *A session costs 40 euros*, *Children aged 6 to 14 cost 5 euros*): the kind
# of use, who pays and for how long, not a thing of their own.
_CONTEXT_WORDS = frozenset(stems(
    "entry admission ticket tickets visit visits session sessions use usage hire rental access "
    "single return full half standard normal regular basic first second "
    "adult adults child children senior seniors student students person persons people guest "
    "guests member members visitor visitors family families group groups age aged "
    "minute minutes hour hours day days night nights week weeks month months year years"))
_IGNORED = frozenset(stems(" ".join(STOP_WORDS))) | _PRICE_WORDS | _CONTEXT_WORDS


def priced_clauses(text: str) -> list[tuple[str, frozenset[str]]]:
    """Per cost verb of ``text`` that names what costs: the words before it in its clause and
    their stems naming the thing (see the module invariant)."""
    found: list[tuple[str, frozenset[str]]] = []
    for verb in _COST_VERB.finditer(text):
        before = text[:verb.start()]
        starts = [m.end() for m in _CLAUSE_START.finditer(before)]
        clause = (before[starts[-1]:] if starts else before).strip()
        named = frozenset(s for s in stems(clause) if s not in _IGNORED and not s.isdigit())
        if named:
            found.append((clause, named))
    return found


def priced_things(text: str) -> list[frozenset[str]]:
    """Per cost verb of ``text``: the stems naming what costs (see the module invariant)."""
    return [named for _, named in priced_clauses(text)]


def priced_elsewhere(text: str, terms: Iterable[str], heading: str = "") -> bool:
    """Whether the sentence ``text`` states its prices only for things none of the question's
    key term stems ``terms`` names, and the ``heading`` of its section names none of them either
    (see the module invariant)."""
    things = priced_things(text)
    if not things:
        return False
    asked = [t for t in terms if t not in _PRICE_WORDS]
    return all(all(term_credit(t, thing) == 0.0 for t in asked)
               for thing in [*things, frozenset(stems(heading))])
