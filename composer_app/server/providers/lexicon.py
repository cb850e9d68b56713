"""The offline assistant's lexicon: words related to a word by WordNet (synonyms, derived forms).

The table (``wordnet/lexicon.txt``, built by ``scripts/build_lexicon.py`` from WordNet 3.1; its
license is ``wordnet/LICENSE``) holds groups of related words (a synonym group, or a word and a
form derived from it) and, for every lemma, the groups that hold it. A word is looked up through
its possible lemmas (``lemmas``: the word itself, its base form when it is irregular, and WordNet's
detachment rules for inflections: *costs* → *cost*, *fired* → *fire*, *stopped* → *stop*).

Invariants: the table is read once, on first use, and never written; a lookup never raises (a
missing or unreadable table is an empty lexicon); ``related_words`` never includes the word asked
about or a word of the same stem, and ``related_stems`` never includes the word's own stem;
relations come only from the table, so they are general English vocabulary, never phrases of a
particular folder.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from functools import lru_cache
from importlib import resources

from composer_app.server.providers.term_forms import irregular_base, stem

TABLE = "wordnet/lexicon.txt"
LEXICON_CREDIT = 0.5  # below term_forms.SYNONYM_CREDIT: the lexicon is broader than its groups
# WordNet's detachment rules (morphy) for nouns, verbs and adjectives: suffix -> replacement.
_DETACH = (("ies", "y"), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
           ("shes", "sh"), ("men", "man"), ("es", "e"), ("es", ""), ("s", ""), ("ed", "e"),
           ("ed", ""), ("ing", "e"), ("ing", ""), ("er", ""), ("er", "e"), ("est", ""),
           ("est", "e"))


def lemmas(word: str) -> tuple[str, ...]:
    """The possible base forms of ``word`` (case-folded), itself first; a doubled final consonant
    left by a detached suffix is undoubled too (*planned* → *plan*)."""
    word = word.casefold().replace("’", "'").split("'")[0]
    found = [word]
    base = irregular_base(word)
    if base is not None:
        found.append(base)
    for suffix, replacement in _DETACH:
        if word.endswith(suffix) and len(word) - len(suffix) >= 2:
            root = word[: len(word) - len(suffix)] + replacement
            found.append(root)
            if not replacement and len(root) > 2 and root[-1] == root[-2]:
                found.append(root[:-1])
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

    def __len__(self) -> int:
        return len(self._groups)

    def groups_of(self, lemma: str) -> list[list[str]]:
        """The groups (their words) that hold ``lemma``."""
        ids = _entry(self._index, lemma)
        return [self._groups[int(i)].split() for i in ids.split()
                if i.isdigit() and int(i) < len(self._groups)]

    def related_words(self, word: str) -> tuple[str, ...]:
        """The words of the groups of ``word``'s lemmas whose stem differs from ``word``'s, in
        table order."""
        own = stem(word)
        found = (w for lemma in lemmas(word) for group in self.groups_of(lemma) for w in group
                 if stem(w) != own)
        return tuple(dict.fromkeys(found))


def _entry(lines: list[str], key: str) -> str:
    """The rest of the line of ``lines`` (sorted) that starts with ``key`` and a space, else
    ``""``."""
    prefix = f"{key} "
    at = bisect_left(lines, prefix)
    found = lines[at] if at < len(lines) else ""
    return found[len(prefix):] if found.startswith(prefix) else ""


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
    """Plain words the lexicon relates to ``word`` (for widening a search)."""
    return lexicon().related_words(word)


@lru_cache(maxsize=8_192)
def related_stems(word: str) -> frozenset[str]:
    """The stems of the words the lexicon relates to ``word`` (never ``word``'s own stem)."""
    return frozenset(stem(w) for w in related_words(word))
