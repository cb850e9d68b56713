"""A sentence that gives one rule per case, answered for the asker's case.

Documents often put two cases in one sentence: *Audio guides cost £3 for adults and £1.50 for
children under 16*; *On weekdays the pool opens at 7:00; on Saturdays it opens at 9:00*; *you
can get a bike worth up to £2,000, or an electric bike worth up to £3,500*. Someone who says
their niece is 13 should read the children's price, not both: ``for_the_case`` keeps the clauses
whose case the question's situation or group fits and drops those it contradicts.

Invariants: a sentence is cut at the first of these levels that splits it into clauses of at
least ``MIN_WORDS`` words each: ``; ``; then *, but*, *, while*, *, whereas*; then *, and*,
*, or*; then *and*, *or* between two clauses that both state a number and hold no comma or
colon (*£3 for adults and £1.50 for children*, not *Saturdays after 12:00, Sundays and public
holidays: 80 euros*), never inside a range *between … and …*. A clause is out when a condition
of it fails for the question's situation (``conditions.read``), or it names another group of a
dimension the question names (``qualifiers.read``) and none of its conditions holds; it is in
when a condition holds or a group matches, and it is not out. A clause that only
states the other side (*otherwise …*, *after that …*, *shorter contracts …*) is not in: it
reads only after the clause it answers. The sentence comes back cut only when at least one
clause is in and one is out, keeping the clauses that are in, in their order. A kept clause
that is not the first follows the first clause's label when that clause opens with one
(*Cosmic bowling, per hour: … Saturdays: 44 euros.*), or else, when the kept clause starts with
a value (*£1.50 for children under 16*), the first clause's opening words up to its first value
(*Audio guides cost … £1.50 for children under 16.*); when every clause is a table row's cell
(``Heading: value``), the kept cells follow the first cell, which names what the row is about.
Anything else returns the sentence unchanged.
"""

from __future__ import annotations

import re

from composer_app.server.providers.conditions import read as read_conditions
from composer_app.server.providers.qualifiers import read as read_qualifiers

__all__ = ["for_the_case"]

MIN_WORDS = 3
_LEVELS = (
    re.compile(r";\s+"),
    re.compile(r",\s+(?:but|while|whereas)\s+"),
    re.compile(r",\s+(?:and|or)\s+"),
    re.compile(r"\s+(?:and|or)\s+"),
)
_VALUE = re.compile(r"[£$€]\s?\d|\d")
_LABEL = re.compile(r"^[^:;\d£$€]{3,80}:(?=\s)")
_FRAMED = re.compile(r"^(?:[£$€]\s?\d|\d|(?:about|around|up\s+to|only)\s+[£$€]?\d)",
                     re.IGNORECASE)


def _clauses(sentence: str) -> list[str]:
    """``sentence`` cut at the first level that splits it (see the module invariant)."""
    body = sentence.rstrip(" .")
    for number, level in enumerate(_LEVELS):
        pieces = [p.strip() for p in level.split(body)]
        if len(pieces) < 2 or any(len(p.split()) < MIN_WORDS for p in pieces):
            continue
        if number == len(_LEVELS) - 1 and (
                not all(_VALUE.search(p) and not re.search(r"[:,]", p) for p in pieces)
                or any(re.search(r"\bbetween\b", p, re.I) for p in pieces[:-1])):
            continue  # "between 1 January and 31 March" is one range
        return pieces
    return [body]


def _standing(question: str, clause: str) -> tuple[bool, bool]:
    """(in, out) for one clause: whether its case fits the question's, or contradicts it."""
    conditions = read_conditions(question, clause)
    qualifiers = read_qualifiers(question, clause)
    out = conditions.failed or (qualifiers.contrasted and not conditions.met)
    fits = (conditions.met or bool(qualifiers.matched)) and not out
    return fits, out


def _framed(first: str, kept: str) -> str:
    """``kept`` after the first clause's label or opening words (see the module invariant)."""
    label = _LABEL.match(first)
    if label:
        return f"{label.group(0)} … {kept}"
    if not _FRAMED.match(kept):
        return kept
    value = _VALUE.search(first)
    opening = first[: value.start()].rstrip(" £$€") if value else ""
    words = opening.split()
    if words and words[-1].casefold() == kept.split()[0].casefold():
        words = words[:-1]
    return f"{' '.join(words)} … {kept}" if words else kept


def for_the_case(question: str, sentence: str) -> str:
    """``sentence`` narrowed to the clauses for the question's case (see the module
    invariant)."""
    clauses = _clauses(sentence)
    if len(clauses) < 2:
        return sentence
    standing = [_standing(question, clause) for clause in clauses]
    if not any(out for _, out in standing):
        return sentence
    kept = [c for c, (fits, _) in zip(clauses, standing, strict=True) if fits]
    if not kept or len(kept) == len(clauses):
        return sentence
    text = "; ".join(kept)
    if kept[0] != clauses[0] and all(": " in c for c in clauses):  # a table row's cells
        text = f"{clauses[0]}; {text}"
    elif kept[0] != clauses[0]:
        text = _framed(clauses[0], text)
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
