"""A question whether something exists or is offered, and a document that never names the thing.

*Is there Wi-Fi I can use with my laptop in the reading room?* comes near *Laptops are welcome*
by its words, but a document that never names Wi-Fi cannot say whether there is any: such a part
is not answered from it (``never_named``), nor is a later part that speaks of the same thing
(*Does Granby Hall have a sauna, and is it included in the membership?*: ``speaks_of``), which
a membership sentence would otherwise answer as if about the sauna.

Invariants: the thing is read only from the asking sentence (the last of the part), after the
words of ``_WHETHER_OFFERED``; it is the first key term among ``THING_REACH`` words that is no
number, no word of the kind asked for (``ANSWER_WORDS``), of paying or of help (``_NOT_THINGS``);
a document names it when any of its retrieved sentences or headings holds it by any of its forms
or synonyms (``term_forms.term_credit``); a part that asks about no such thing is never affected.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from composer_app.server.providers.answer_kinds import ANSWER_WORDS
from composer_app.server.providers.answer_ranking import Scored, Sentence
from composer_app.server.providers.question_parts import Part, Term
from composer_app.server.providers.questions import STOP_WORDS
from composer_app.server.providers.term_forms import stem, stems, term_credit, words

__all__ = ["never_named", "speaks_of", "thing_asked"]


# A question whether something exists or is offered, up to the words naming it: *Is there
# Wi-Fi …?*, *Does Sitwell Puppy School run agility classes?*, *Does the clinic give the rabies
# vaccine?*, *Can I buy a gift voucher …?*, *How much does it cost to hire a flute?*, *What do
# they charge to hire snowshoes?* (not *Do I have to …?*, *Can I get my money back?*).
_WHETHER_OFFERED = re.compile(
    r"^\s*(?:is|are)\s+there\s+(?:a|an|any)?\b|^\s*(?:does|do)\s+(?:[\w&'’-]+\s+){1,5}?"
    r"(?:(?:offer|offers|run|runs|sell|sells|provide|provides|stock|stocks|give|gives|"
    r"organise|organize|organises|organizes)\b|(?:have|has)\s+(?=(?:a|an|any)\s))|"
    r"^\s*can\s+(?:i|we)\s+(?:buy|hire|rent|order)\s+(?:a|an)\b|"
    r"\b(?:cost|charge)\s+(?:me\s+|us\s+)?to\s+(?:hire|rent)\s+(?:(?:a|an)\b)?", re.IGNORECASE)
# Words of paying, of places and of help in general (*Is there any help with winter bills?*):
# what a question asks about is seldom one of them.
_NOT_THINGS_TEXT = """charge charges fee fees cost costs price prices discount discounts cheaper
    free pay paid extra somewhere anywhere anything way need worth help support assistance"""
_NOT_THINGS = frozenset(_NOT_THINGS_TEXT.split())


THING_REACH = 3  # words after the asking ones in which the thing asked about is named


def thing_asked(part: Part) -> Term | None:
    """The thing ``part`` asks whether it exists or is offered (``_WHETHER_OFFERED``): the first
    key term among the ``THING_REACH`` words after the asking ones (no number, no word of the
    kind asked for or of paying; *Is there any way she can …* names none)."""
    asking = re.split(r"(?<=[.!?])\s+", part.text.strip())[-1]
    offered = _WHETHER_OFFERED.search(asking)
    if offered is None:
        return None
    keys = {t.stem: t for t in part.terms if not t.number}
    for word in [w.casefold() for w in words(asking[offered.end():])][:THING_REACH]:
        term = keys.get(stem(word))
        if term is None or word in ANSWER_WORDS or word in STOP_WORDS or word in _NOT_THINGS:
            continue
        return term
    return None


def never_named(part: Part, top: Scored, units: Sequence[Sentence]) -> bool:
    """Whether ``part`` asks whether something exists or is offered (``thing_asked``) and
    the document of ``top`` never names it: the thing is in none of that document's retrieved
    sentences and headings, by any of its forms or synonyms (*Is there Wi-Fi I can use with my
    laptop in the reading room?*: *Laptops are welcome*)."""
    term = thing_asked(part)
    return term is not None and not any(
        term_credit(term.stem, u.stems) > 0.0 or term_credit(term.stem, u.heading) > 0.0
        for u in units if u.key == top.sentence.key)


# A later part's word for the first part's thing (*…, and what do they cost?*).
_BACK_REFERENCE = re.compile(r"\b(?:it|its|they|them|their|that|those|one|ones)\b", re.IGNORECASE)


def speaks_of(part: Part, first: Part) -> bool:
    """Whether a later ``part`` speaks of the thing the ``first`` asks whether it is offered: its
    own words (after the situation both keep) refer back to it (*and how much does it cost per
    session?*) or name it (*and what does a cat groom cost?*)."""
    thing = thing_asked(first)
    if thing is None:
        return False
    own = re.split(r"(?<=[.!?])\s+", part.text.strip())[-1]
    return _BACK_REFERENCE.search(own) is not None or \
        thing.stem in stems(own.casefold())
