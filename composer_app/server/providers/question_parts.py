"""A question read into the parts a sentence is scored against.

A question is read into one or two *parts* (``Which command rolls back production, and how soon
must it start?`` has two; the second also holds the first's key terms at ``INHERITED_WEIGHT``,
and its ``meaning`` for the sentence model names them: *and how much warning do we get?* after
*When does the maintenance take place?* is about the maintenance); each part has weighted key
terms (rarer terms weigh more: inverse document frequency from the searched stores; a word that
only says what kind of answer is wanted weighs ``ANSWER_WORD_WEIGHT`` of that) and the pairs of
key terms that stand next to each other in the question (its subjects, such as ``new employees``
or ``secondary database``).

Invariants: a part's terms are its own words first, then those of the statements around the
asking sentence (at most ``questions.MAX_TERMS``); the kind of answer wanted and the thing asked
for are read from the asking part alone; phrasal verbs are read as single verbs (*taken home* →
*borrow*) and an age in words as digits (*my eight-year-old* → *8-year-old*).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import pairwise

from composer_app.server.providers.answer_kinds import (
    ANSWER_WORDS,
    DIGITS,
    answer_words,
    asked_for,
    wanted_kind,
)
from composer_app.server.providers.questions import MAX_TERMS, asked_pieces, question_terms
from composer_app.server.providers.term_forms import (
    NUMBER_VALUES,
    phrasal_sources,
    single_verbs,
    stem,
)
from composer_app.server.providers.term_polarity import negated_stems, permission_verb

INHERITED_WEIGHT = 0.5
ANSWER_WORD_WEIGHT = 0.3
# An age written in words ("my eight-year-old") is read as its number, so ranges can hold it.
_AGE_WORDS = re.compile(rf"\b({'|'.join(NUMBER_VALUES)})([- ](?:years?|months?)[- ]olds?\b)",
                        re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[^\W\d_])")
_ASKING = re.compile(r"^\s*(?:how|when|what|which|who|whom|whose|where|why|is|are|was|were|does|do|"
                     r"did|can|could|must|should|will|would|may|might|has|have|had|shall)\b",
                     re.I)


@dataclass(frozen=True, slots=True)
class Term:
    """A key term of a question part: its word, stem and weight."""

    word: str
    stem: str
    weight: float
    number: bool
    inherited: bool = False  # a second part's term of the first part, which it leans on


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a question: its text, key terms, subject pairs and wanted answer kind."""

    text: str
    terms: tuple[Term, ...]
    pairs: tuple[tuple[str, str], ...]
    wants: str | None  # "amount" (of money), "time", "quantity", "name" or None
    compounds: tuple[tuple[str, str, str], ...] = ()  # ("roll", "back", "rollback")
    focus: frozenset[str] = frozenset()  # stems of what is asked for: "phone number" of ...
    negated: frozenset[str] = frozenset()  # stems the question denies: "not live"
    permission: str | None = None  # the verb a "Can I ...?" question asks permission for
    phrasal: tuple[tuple[str, str, str], ...] = ()  # ("collect", "pick", "up") of "pick up"
    subject: str = ""  # a second part's words of the first: "maintenance" of "and how much
    # warning do we get beforehand?" after "When does the monthly maintenance take place?"

    @property
    def meaning(self) -> str:
        """The text a sentence model compares: the part with its phrasal verbs and set phrases
        in the plain words documents use (*call off* is *cancel*: the model alone finds *We will
        call you …* close to it), with the first part's key words for a second part that leans
        on them."""
        text = single_verbs(self.text)
        return f"{text} ({self.subject})" if self.subject else text


def read_question(question: str, weight_of: Callable[[str], float]) -> list[Part]:
    """The parts of ``question`` (one or two) with weighted terms; ``[]`` without key terms.

    Only its asking sentences are split into parts (a sentence ending in ``?`` or opening like a
    question); the statements around them (*My daughter has the flu.*) are the situation, which
    every part keeps (its words after the part's own, and in ``Part.text``) while the kind of
    answer wanted and the thing asked for are read from the asking part alone."""
    said = [s.strip() for s in _SENTENCE_END.split(question.strip()) if s.strip()]
    asking = [s for s in said if s.endswith("?") or _ASKING.match(s)]
    context = " ".join(s for s in said if s not in asking).strip(" .!") if asking else ""
    asked = " ".join(asking) if asking else question.strip()
    pieces = asked_pieces(asked)
    parts = [_part(piece, weight_of, context) for piece in pieces[:3]]
    parts = [p for p in parts if p.terms]
    if len(parts) > 2:
        parts = [_part(asked.strip(" ?"), weight_of, context)]
    if len(parts) == 2:  # a second part is about the first one's subject too
        first, second = parts
        extra = tuple(Term(t.word, t.stem, t.weight * INHERITED_WEIGHT, t.number, inherited=True)
                      for t in first.terms if all(t.stem != s.stem for s in second.terms))
        subject = " ".join(t.word for t in first.terms if t.word not in ANSWER_WORDS)
        parts[1] = replace(second, terms=second.terms + extra, subject=subject)
    return parts


def _normal(text: str) -> str:
    """``text`` with single verbs for its phrasal verbs and digits for an age in words."""
    return _AGE_WORDS.sub(lambda m: f"{NUMBER_VALUES[m.group(1).casefold()]}{m.group(2)}",
                          single_verbs(text))


def _part(piece: str, weight_of: Callable[[str], float], context: str = "") -> Part:
    asked = f"{context}. {piece}" if context else piece
    text, whole = _normal(piece), _normal(asked)
    own = question_terms(text)
    words = (own + [w for w in question_terms(_normal(context)) if w not in own])[:MAX_TERMS]
    kind_words = answer_words(text)
    terms = tuple(
        Term(w, stem(w), weight_of(w) * (ANSWER_WORD_WEIGHT if w in kind_words else 1.0),
             bool(DIGITS.search(w)))
        for w in words)
    sequence = [stem(w) for w in re.findall(r"[^\W_]+", whole.casefold())]
    keys = {t.stem for t in terms if t.word not in ANSWER_WORDS}
    pairs = tuple(dict.fromkeys(
        (a, b) for a, b in pairwise(sequence)
        if a in keys and b in keys and a != b))
    wants = wanted_kind(text)
    stemmed = {t.stem for t in terms}
    compounds = tuple((a, b, a + b) for a, b in pairwise(sequence)
                      if a in stemmed and b in stemmed and a != b)
    phrasal = tuple((verb, *words) for verb, words in phrasal_sources(asked).items())
    return Part(asked, terms, pairs, wants, compounds, asked_for(text, stemmed),
                negated_stems(whole) & stemmed, permission_verb(text), phrasal)
