"""Fuzzy matching for the quick thread switcher (Ctrl+K). Qt-free.

Invariants: a title matches when every character of the query (spaces ignored, case-folded)
appears in it in order; a better match scores higher: consecutive runs, matches at word starts
and at the very start beat scattered ones, and a shorter title wins a tie; ``rank`` is stable (equal
scores keep the given, most-recent-first order) and an empty query keeps every item in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

_START_BONUS = 8
_WORD_BONUS = 6
_RUN_BONUS = 4
_MATCH = 1
_GAP_PENALTY = 1


@dataclass(frozen=True)
class Match:
    """A scored match: ``positions`` are the matched character indexes of the title."""

    score: int
    positions: tuple[int, ...]


def _is_word_start(title: str, index: int) -> bool:
    if index == 0:
        return True
    before, here = title[index - 1], title[index]
    return (not before.isalnum()) or (before.islower() and here.isupper())


def fuzzy_match(query: str, title: str) -> Match | None:
    """The best in-order match of ``query`` in ``title``, or None when there is none.

    Greedy from each possible first position, keeping the best score: cheap and good enough for
    thread titles (at most a few hundred characters).
    """
    needle = "".join(query.split()).casefold()
    if not needle:
        return Match(0, ())
    folded = title.casefold()
    if len(folded) != len(title):  # casefold changed lengths (e.g. ß): fall back to lower()
        folded = title.lower()
    best: Match | None = None
    start = folded.find(needle[0])
    while start != -1:
        found = _greedy(needle, folded, title, start)
        if found is not None and (best is None or found.score > best.score):
            best = found
        start = folded.find(needle[0], start + 1)
    return best


def _greedy(needle: str, folded: str, title: str, start: int) -> Match | None:
    positions = [start]
    at = start
    for char in needle[1:]:
        # prefer the next character right here, then the next word start, then anywhere
        nxt = at + 1
        if nxt < len(folded) and folded[nxt] == char:
            positions.append(nxt)
            at = nxt
            continue
        candidate = folded.find(char, nxt)
        if candidate == -1:
            return None
        word = candidate
        while word != -1 and not _is_word_start(title, word):
            word = folded.find(char, word + 1)
        at = word if word != -1 else candidate
        positions.append(at)
    return Match(_score(title, positions), tuple(positions))


def _score(title: str, positions: Sequence[int]) -> int:
    score = 0
    previous = -2
    for index in positions:
        score += _MATCH
        if index == 0:
            score += _START_BONUS
        elif _is_word_start(title, index):
            score += _WORD_BONUS
        if index == previous + 1:
            score += _RUN_BONUS
        elif previous >= 0:
            score -= min(index - previous - 1, 5) * _GAP_PENALTY
        previous = index
    return score


def rank[T](query: str, items: Sequence[T], title_of: Callable[[T], str],
            limit: int | None = None) -> list[tuple[T, Match]]:
    """Matching items, best first (ties: shorter title, then the given order)."""
    scored: list[tuple[int, int, int, T, Match]] = []
    for order, item in enumerate(items):
        title = title_of(item)
        found = fuzzy_match(query, title)
        if found is not None:
            scored.append((-found.score, len(title) if query.strip() else 0, order, item, found))
    scored.sort(key=lambda entry: entry[:3])
    out = [(item, found) for _, _, _, item, found in scored]
    return out if limit is None else out[:limit]
