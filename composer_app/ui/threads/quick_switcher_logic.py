"""Fuzzy matching for the quick thread switcher (Ctrl+K). Qt-free.

Invariants: a title matches when every character of the query (spaces ignored, case-folded)
appears in it in order; a better match scores higher: consecutive runs, matches at word starts
and at the very start beat scattered ones, and a shorter title wins a tie; ``rank`` is stable (equal
scores keep the given, most-recent-first order) and an empty query keeps every item in order.
``switcher_entries`` orders threads by their last activity (the later of the thread's update and
its last message; a thread not dated yet — just made here — first), marks exactly the current
thread, and previews the last message's first line as read (chips by their labels).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from composer_app.core.codecs.references import Reference, replace_references
from composer_app.core.contracts.wire import parse_timestamp
from composer_app.core.errors import ContractError
from composer_app.sync.store import MessageRow, ThreadRow

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


PREVIEW_CHARS = 90
_OLDEST = datetime.min.replace(tzinfo=UTC)
_NEWEST = datetime.max.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SwitcherEntry:
    """One thread of the quick switcher."""

    thread_id: str
    title: str
    preview: str  # the last message's first line ("" for a thread without messages)
    activity: str | None  # RFC 3339 time of the last activity (None: not dated yet)
    current: bool  # the thread the window shows
    server: str = ""  # the server's name when the window shows several ("" otherwise)


def first_line(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The first non-empty line of a message as read (references by their labels), cut to
    ``limit`` characters with an ellipsis."""
    plain = replace_references(text or "", _label)
    line = next((ln.strip() for ln in plain.splitlines() if ln.strip()), "")
    line = " ".join(line.lstrip("#>*- ").split())
    return line if len(line) <= limit else line[:limit - 1].rstrip() + "\u2026"


def _label(reference: Reference) -> str:
    return reference.label


def _moment(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return parse_timestamp(text).astimezone(UTC)
    except (ContractError, ValueError):
        return None


def last_activity(row: ThreadRow, last: MessageRow | None) -> str | None:
    """The later of the thread's update time and its last message's creation time."""
    stamps = [t for t in (row.updated_at, last.created_at if last else None) if _moment(t)]
    return max(stamps, key=lambda t: _moment(t) or _OLDEST) if stamps else None


def switcher_entries(rows: Sequence[ThreadRow], last_messages: Mapping[str, MessageRow],
                     current: str, title_of: Callable[[ThreadRow], str],
                     server_of: Callable[[str], str] | None = None) -> list[SwitcherEntry]:
    """The switcher's threads, most recently active first (ties keep the given order), each
    with its server's name when ``server_of`` names one."""
    entries = []
    for row in rows:
        last = last_messages.get(row.thread_id)
        entries.append(SwitcherEntry(row.thread_id, title_of(row),
                                     first_line(last.text) if last else "",
                                     last_activity(row, last), row.thread_id == current,
                                     server_of(row.thread_id) if server_of else ""))
    entries.sort(key=lambda e: _moment(e.activity) or _NEWEST, reverse=True)
    return entries
