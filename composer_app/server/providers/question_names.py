"""The names a question gives (*at the Birkenhof*, *at Lingua Viva*, *a Nordhost plan*): the
place, firm or product it is about, which a sentence of another document does not answer for.

Invariants: a name is a capitalised word of the question that does not open one of its
sentences, is neither *I* nor a stop word, nor a day, month or language (those are conditions
and subjects, not the thing asked about), and has at least two letters; so is a place the
question names by what it is (*at the rink*, *at your ice rink*: the words after *at the*, *at
your* or *at this*, at most two, up to the first stop word; *the hearing centre*, *the
campsite*: a kind of place after *the*, *your* or *this*, with the word before it); a name
*counts* only when the title or the opening line (first heading) of some searched document holds
it (the folder has a document about that place or firm), so an unknown name never changes an
answer; the documents that hold a question's names are those holding every counted name anywhere.
No name counted means no restriction (``None``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from composer_app.server.providers.questions import STOP_WORDS

__all__ = ["holding_documents", "question_names"]

_NOT_NAMES_TEXT = """i monday tuesday wednesday thursday friday saturday sunday january
    february march april may june july august september october november december english french
    german spanish italian dutch polish portuguese russian chinese japanese arabic turkish greek
    ok okay mr mrs ms dr"""
_NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())
_SENTENCE = re.compile(r"(?:^|[.!?:;]\s+|\n\s*)(?=[^\W\d_])")
_WORD = re.compile(r"[^\W\d_][^\W_]*(?:['’-][^\W\d_]+)*")
# A place named by what it is (*at the rink*, *at your ice rink*): its words up to the next
# stop word or punctuation, at most two.
_AT_PLACE = re.compile(r"\bat\s+(?:the|your|this)\s+(?P<place>[^\W\d_]+(?:\s+[^\W\d_]+)?)",
                       re.IGNORECASE)
# A place named by its kind, with the word before it (*does the hearing centre close*, *the
# campsite*).
_PLACE_KINDS = ("centre|center|clinic|library|park|pool|gym|museum|campsite|surgery|practice|"
                "hospital|hotel|hostel|club|shop|store|salon|studio|garage|depot|zoo|theatre|"
                "cinema|school|nursery|pharmacy|spa|restaurant|cafe|café|kitchen|farm|marina")
_KIND_PLACE = re.compile(
    rf"\b(?:the|your|this)\s+(?P<place>(?:[^\W\d_]+\s+)?(?:{_PLACE_KINDS}))\b", re.IGNORECASE)


def question_names(question: str) -> list[str]:
    """The names ``question`` gives, case-folded, in first-occurrence order (see the module
    invariant)."""
    openings = {m.end() for m in _SENTENCE.finditer(question)}
    names: list[str] = []
    for match in _WORD.finditer(question):
        word = match.group(0)
        if match.start() in openings or not word[0].isupper():
            continue
        for piece in re.split(r"['’-]", word):
            folded = piece.casefold()
            if _nameable(folded) and piece[:1].isupper() and folded not in names:
                names.append(folded)
    for match in (*_AT_PLACE.finditer(question), *_KIND_PLACE.finditer(question)):
        for word in match.group("place").split():
            folded = word.casefold()
            if not _nameable(folded):
                break
            if folded not in names:
                names.append(folded)
    return names


def _nameable(folded: str) -> bool:
    """Whether a case-folded word can be a name: two letters or more, neither a stop word nor a
    day, month or language, also in the plural (*Sundays*), nor *I*."""
    return len(folded) >= 2 and folded not in STOP_WORDS and folded not in _NOT_NAMES \
        and folded.removesuffix("s") not in _NOT_NAMES


def holding_documents(names: Iterable[str], naming: Callable[[str], bool],
                      holding: Callable[[str], set[str]]) -> frozenset[str] | None:
    """The documents that hold every name of ``names`` that names some document, by the caller's
    lookups: ``naming`` (whether some document's title or opening line holds a name) and
    ``holding`` (the documents of interest that hold a name anywhere); ``None`` when no name
    names a document."""
    holders: set[str] | None = None
    for name in names:
        if not naming(name):
            continue
        found = holding(name)
        holders = found if holders is None else holders & found
    return None if holders is None else frozenset(holders)
