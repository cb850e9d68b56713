"""Whether two documents can be versions of one another, so that the newer may correct the older.

Two rules of a folder that give the same kind of value (*Youth members: 30 euros a year*) are a
conflict only when their documents are about the same thing: a club's 2026 notice corrects the
club's guide, but the model railway club's fee does not correct the rowing club's. A document is
named by its file name: the words that are not a date, a number, a word any name may hold
(*and*, *the*) or a word that only marks a version (*notice*, *update*, *changes*, *2026*,
*March*). Its *lead* is the first of them (``rowing`` of ``rowing_club.md``, ``sauna`` of
``sauna_notice_2026.md``), the thing or place the document is about.

Invariants: two documents may revise each other when the lead of either is among the other's
name or heading words (a sentence's ``heading`` holds the stems of its file name, its document's
title and its section headings: ``fees-update-2026.md`` revises ``repairs-policy.md`` when its
title reads *Changes to Fees and Repair Targets*), or when either name has no lead (*2026
notice.md* says nothing of what it changes, so it may change anything); words are compared as
stems (``term_forms.stem``), so *repairs* leads to *Repair*. Results depend only on the two
sentences' titles and headings.
"""

from __future__ import annotations

from pathlib import PurePath

from composer_app.server.providers.answer_ranking import Sentence
from composer_app.server.providers.questions import STOP_WORDS
from composer_app.server.providers.term_forms import stem, words

__all__ = ["lead", "may_revise"]

_VERSION_TEXT = (
    "notice notices update updates updated change changes changed amendment amendments "
    "addendum revised revision new latest current old final draft version edition supplement "
    "jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june "
    "july august september october november december spring summer autumn fall winter")
_VERSION_WORDS = frozenset(_VERSION_TEXT.split())


def lead(title: str) -> str | None:
    """The stem of the first word of a document's file name that says what it is about, or
    ``None`` when its name says nothing of that (see the module docstring)."""
    name = PurePath(title).stem if "." in title else title
    for word in words(name.replace("_", " ")):
        folded = word.casefold()
        if folded in STOP_WORDS or folded in _VERSION_WORDS or len(folded) < 3 or \
                any(ch.isdigit() for ch in folded):
            continue
        return stem(folded)
    return None


def may_revise(first: Sentence, second: Sentence) -> bool:
    """Whether the documents of two sentences can be versions of one another (see the module
    invariant)."""
    one, other = lead(first.title), lead(second.title)
    if one is None or other is None:
        return True
    return one in second.heading or other in first.heading
