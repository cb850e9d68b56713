"""The offline assistant's lexicon: words related to a word by WordNet (synonyms, derived forms).

The table (``wordnet/lexicon.txt``, built by ``scripts/build_lexicon.py`` from WordNet 3.1; its
license is ``wordnet/LICENSE``) holds synonym groups, the groups of every lemma and every lemma's
derived forms (*dismiss* / *dismissal*), each lemma with its parts of speech. A word is looked up
through its possible lemmas (``lemmas``: the word itself, its irregular base form, and WordNet's
detachment rules for inflections, each kept only when the table has the lemma as that part of
speech: *costs* → *cost*, *fired* → *fire*, *stopped* → *stop*, but *dinner* is not *din*).

Invariants: the table is read once, on first use, and never written; a lookup never raises (a
missing or unreadable table is an empty lexicon); no related word or stem is ever the word's own
stem; ``lexicon_credit`` is ``DERIVED_CREDIT`` for a derived form, ``LEXICON_CREDIT`` for a
synonym, else 0.0, both below 1.0, so an exact word always beats one the lexicon relates;
relations come only from the table, so they are general English vocabulary, never phrases of a
particular folder.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from functools import lru_cache
from importlib import resources

from composer_app.server.providers.term_forms import SYNONYM_CREDIT, irregular_base, stem

TABLE = "wordnet/lexicon.txt"
LEXICON_CREDIT = 0.5  # below term_forms.SYNONYM_CREDIT: the lexicon is broader than its groups
DERIVED_CREDIT = SYNONYM_CREDIT  # as a shared stem prefix: the same word in another form
# WordNet's detachment rules (morphy) by part of speech: suffix -> replacement.
_DETACH = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
}
_DOUBLED = frozenset({"ed", "ing", "er", "est"})  # stopped -> stop, bigger -> big


def lemmas(word: str) -> tuple[tuple[str, str], ...]:
    """The possible base forms of ``word`` (case-folded), each with the part of speech it must
    have (``""``: any): the word itself, its irregular base form, and WordNet's detachment rules
    (a doubled final consonant left by ``-ed``, ``-ing``, ``-er``, ``-est`` is undoubled too)."""
    word = word.casefold().replace("’", "'").split("'")[0]
    found = [(word, "")]
    base = irregular_base(word)
    if base is not None:
        found.append((base, ""))
    for kind, rules in _DETACH.items():
        for suffix, replacement in rules:
            if word.endswith(suffix) and len(word) - len(suffix) >= 2:
                root = word[: len(word) - len(suffix)] + replacement
                found.append((root, kind))
                if suffix in _DOUBLED and not replacement and len(root) > 2 \
                        and root[-1] == root[-2]:
                    found.append((root[:-1], kind))
    return tuple(dict.fromkeys(found))


class Lexicon:
    """The table as its lines: group lines and the index lines in order (``lemma id id …``,
    found by bisection), each split only when looked up."""

    def __init__(self, text: str) -> None:
        lines = text.split("\n")
        sections: dict[str, list[str]] = {}
        current: list[str] = []
        for line in lines:
            if line.startswith("@"):
                current = sections.setdefault(line[1:], [])
            elif line and not line.startswith("#"):
                current.append(line)
        self._groups = sections.get("groups", [])
        self._index = sorted(line for line in sections.get("index", []) if " " in line)
        self._derived = sorted(line for line in sections.get("derived", []) if " " in line)

    def __len__(self) -> int:
        return len(self._groups)

    def groups_of(self, lemma: str, kind: str = "") -> list[list[str]]:
        """The groups (their words) that hold ``lemma`` (when it is a ``kind``: ``n``, ``v``,
        ``a``, ``r``, or ``""`` for any)."""
        ids = _entry(self._index, lemma, kind)
        return [self._groups[int(i)].split() for i in ids
                if i.isdigit() and int(i) < len(self._groups)]

    def related_words(self, word: str) -> tuple[str, ...]:
        """The words of the groups of ``word``'s lemmas whose stem differs from ``word``'s, in
        table order."""
        own = stem(word)
        found = (w for lemma, kind in lemmas(word) for group in self.groups_of(lemma, kind)
                 for w in group if stem(w) != own)
        return tuple(dict.fromkeys(found))


    def derived_words(self, word: str) -> tuple[str, ...]:
        """The forms derived from ``word``'s lemmas or that they derive from (*dismissal* for
        *dismissed*), without those of ``word``'s stem."""
        own = stem(word)
        found = (w for lemma, kind in lemmas(word) for w in _entry(self._derived, lemma, kind)
                 if stem(w) != own)
        return tuple(dict.fromkeys(found))


def _entry(lines: list[str], key: str, kind: str) -> list[str]:
    """The values of the line of ``lines`` (sorted: ``key kinds value …``) for ``key``, when its
    parts of speech include ``kind`` (any when empty), else ``[]``."""
    prefix = f"{key} "
    at = bisect_left(lines, prefix)
    found = lines[at] if at < len(lines) else ""
    if not found.startswith(prefix):
        return []
    kinds, *values = found[len(prefix):].split()
    return values if kind in kinds else []


_LOCK = threading.Lock()
_LOADED: list[Lexicon] = []


def lexicon() -> Lexicon:
    """The shipped lexicon, read on first use (an empty one when the table cannot be read)."""
    with _LOCK:
        if not _LOADED:
            try:
                text = resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
            _LOADED.append(Lexicon(text))
        return _LOADED[0]


@lru_cache(maxsize=8_192)
def related_words(word: str) -> tuple[str, ...]:
    """Plain words the lexicon relates to ``word``, synonyms then derived forms (for widening a
    search)."""
    table = lexicon()
    return tuple(dict.fromkeys(table.related_words(word) + table.derived_words(word)))


@lru_cache(maxsize=8_192)
def synonym_stems(word: str) -> frozenset[str]:
    """The stems of ``word``'s synonyms in the lexicon (never ``word``'s own stem)."""
    return frozenset(stem(w) for w in lexicon().related_words(word))


@lru_cache(maxsize=8_192)
def derived_stems(word: str) -> frozenset[str]:
    """The stems of ``word``'s derived forms in the lexicon (never ``word``'s own stem)."""
    return frozenset(stem(w) for w in lexicon().derived_words(word))


def lexicon_credit(word: str, present: set[str] | frozenset[str]) -> float:
    """How well the stems in ``present`` stand for ``word`` through the lexicon: ``DERIVED_CREDIT``
    for a derived form (the same word as another part of speech), ``LEXICON_CREDIT`` for a
    synonym, else 0.0."""
    if not derived_stems(word).isdisjoint(present):
        return DERIVED_CREDIT
    if not synonym_stems(word).isdisjoint(present):
        return LEXICON_CREDIT
    return 0.0
