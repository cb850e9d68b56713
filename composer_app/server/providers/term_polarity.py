"""Negated terms and permission questions: which words of a text are denied, and which verb a
*Can I …?* question asks permission for.

A question that denies a term (*someone who does **not live** in the district*) is answered by a
sentence that denies it too (*Non-residents pay …*), not by one that affirms it (*free for
residents*); a permission question (*Can I bring a potted plant?*) is answered by a sentence that
grants or refuses permission (*Potted plants are not allowed*), whatever verb the question used.

Invariants: ``negated_stems`` holds the stems of the words that follow a negator (``not``,
``no``, ``never``, ``cannot``, ``without``, ``nor``, a ``n't`` contraction) within
``NEGATION_REACH`` words in the same clause, and of the words prefixed with ``non-``;
``without_stems`` holds those that follow ``without`` (a thing the sentence's case lacks), and
``without_objects`` only the word right after it (past an article: what the case is without);
``unprefixed`` tells whether stems hold a word's ``un-`` negative; ``prefixed_stems`` holds only
the ``non-`` words (a ``non-`` word names the opposite of the
plain word, whereas a sentence's *not* usually denies its verb, not its subject);
``permission_verb`` is the
stem of the main verb of a question that asks whether something may be done, else ``None``;
everything is case-insensitive and deterministic.
"""

from __future__ import annotations

import re

from composer_app.server.providers.term_forms import irregular_base, stem, words

NEGATION_REACH = 3
_NEGATORS = frozenset({"not", "no", "never", "cannot", "without", "nor", "t"})
_CLAUSE_BREAK = re.compile(r"[,;:()]|\b(?:but|and|or|which|who|that)\b", re.I)
# The words a sentence grants or refuses permission with.
_PERMISSION_TEXT = "allowed permitted forbidden prohibited banned welcome may"
PERMISSION_STEMS = frozenset(stem(w) for w in _PERMISSION_TEXT.split())
_PERMISSION = re.compile(
    r"^\s*(?:(?:can|may|could)\s+(?:i|we|you|one|they|he|she|someone|anyone|people)|am\s+i\s+"
    r"allowed\s+to|are\s+(?:we|you|they)\s+allowed\s+to|is\s+it\s+(?:allowed|possible|ok|okay|"
    r"permitted)\s+to)\s+(?:still\s+|also\s+)?(?P<verb>[^\W\d_]+)\b"
    r"|^\s*(?:can|may|could)\s+(?:[^\W\d_]+\s+){1,4}?be\s+(?P<passive>[^\W\d_]+)\b", re.I)
_NON = re.compile(r"\bnon-([^\W_]+)", re.IGNORECASE)
_WITHOUT_OBJECT = re.compile(r"\bwithout\s+(?:(?:a|an|the|their|its|your|any|his|her|our)\s+)?"
                             r"([^\W\d_]+)", re.IGNORECASE)
_NOT_VERBS = frozenset({"be", "have", "get", "i", "we", "you"})


def _clauses(text: str) -> list[str]:
    return [c for c in _CLAUSE_BREAK.split(text) if c.strip()]


def negated_stems(text: str) -> frozenset[str]:
    """Stems of the words ``text`` denies (see the module invariant)."""
    found: set[str] = set()
    for clause in _clauses(text.replace("’", "'")):
        tokens = [w.casefold() for w in words(clause)]
        reach = 0
        for token in tokens:
            if token in _NEGATORS:
                reach = NEGATION_REACH
            elif reach:
                found.add(stem(token))
                reach -= 1
    return frozenset(found) | prefixed_stems(text)


def without_stems(text: str) -> frozenset[str]:
    """Stems of the words ``text`` holds only as lacking (*without rims*, *without an
    appointment*): the ``NEGATION_REACH`` words after ``without`` in the same clause."""
    found: set[str] = set()
    if "without" not in text.casefold():
        return frozenset()
    for clause in _clauses(text):
        tokens = [w.casefold() for w in words(clause)]
        for index, token in enumerate(tokens):
            if token == "without":
                found.update(stem(t) for t in tokens[index + 1: index + 1 + NEGATION_REACH])
    return frozenset(found)


def without_objects(text: str) -> frozenset[str]:
    """Stems of what ``text`` says a thing is without: the word right after each *without*,
    past an article or a possessive (*rims* in *tyres without rims*, *appointment* in *without
    an appointment*)."""
    return frozenset(stem(w) for w in _WITHOUT_OBJECT.findall(text))


def unprefixed(term: str, own: set[str] | frozenset[str]) -> bool:
    """Whether the stems ``own`` hold the ``un-`` negative of the stem ``term`` (*unsold* for
    *sell*, *unpaid* for *pay*)."""
    for word in own:
        if word.startswith("un") and len(word) > 4:
            rest = word[2:]
            if stem(irregular_base(rest) or rest) == term:
                return True
    return False


def prefixed_stems(text: str) -> frozenset[str]:
    """Stems of the words ``text`` writes with a ``non-`` prefix (``Non-residents``)."""
    return frozenset(stem(m.group(1)) for m in _NON.finditer(text))


def permission_verb(question: str) -> str | None:
    """The stem of the verb a *Can I …? / May visitors …? / Is it allowed to …?* question asks
    permission for (``bring`` in *Can I bring a plant?*), or ``None``."""
    match = _PERMISSION.search(question)
    if match is None:
        return None
    verb = (match.group("verb") or match.group("passive")).casefold()
    return None if verb in _NOT_VERBS else stem(verb)
