"""Rules of the composer's typed-trigger completion (Qt-free).

``@`` opens workspace files, ``/`` skills and ``#`` threads, when the trigger character starts a
token: it is at the start of the line or follows whitespace or a chip (U+FFFC). The token runs to
the next whitespace or chip; its text after the trigger, up to the caret, is the query.

Invariants:
* ``find_trigger`` works on Python ``str`` indices; ``to_units`` / ``from_units`` convert to and
  from Qt's UTF-16 positions, so text with emoji maps to the right document positions.
* ``CompletionTickets`` hands out one ticket per request; only the newest ticket is current, so an
  answer for an older query (or one that arrives after the popup closed) is dropped.
* The record builders return contract-valid records (``None`` when a field cannot be valid, e.g. a
  path longer than 2,048 units); labels and title snapshots are cut to 200 units.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from composer_app.core.codecs.ids import to_kind_scoped_context_id
from composer_app.core.contracts.records import (
    MentionRecord,
    SkillRecord,
    ThreadRecord,
    decode_record,
)
from composer_app.core.errors import ContractError
from composer_app.core.limits import LABEL_MAX_CHARS
from composer_app.core.text import WS, cut_utf16, trim, utf16_len

CHIP_CHARACTER = "\ufffc"
FILE_RESULT_LIMIT = 50
_BOUNDARY = frozenset(WS) | {CHIP_CHARACTER}


class TriggerKind(StrEnum):
    """What a trigger character completes."""

    FILE = "file"
    SKILL = "skill"
    THREAD = "thread"


TRIGGER_CHARACTERS: dict[str, TriggerKind] = {
    "@": TriggerKind.FILE,
    "/": TriggerKind.SKILL,
    "#": TriggerKind.THREAD,
}

POPUP_NAMES: dict[TriggerKind, str] = {
    TriggerKind.FILE: "Workspace files",
    TriggerKind.SKILL: "Skills",
    TriggerKind.THREAD: "Threads",
}


class ContextCatalog(Protocol):
    """Where completion gets its data. Each ``done`` may run later, on the GUI thread."""

    def search_files(self, query: str, limit: int, done: Callable[[list[str]], None]) -> None: ...

    def list_skills(self, done: Callable[[list[tuple[str, str]]], None]) -> None: ...

    def list_threads(self, done: Callable[[list[tuple[str, str]]], None]) -> None: ...


@dataclass(frozen=True)
class Trigger:
    """An open trigger in one line: ``text[start]`` is the trigger character, ``text[start:end]``
    the whole token (replaced on insertion), ``query`` the part after it up to the caret."""

    kind: TriggerKind
    start: int
    end: int
    query: str


@dataclass(frozen=True)
class CompletionItem:
    """One row of the popup: ``key`` identifies it (path, skill name or thread id)."""

    kind: TriggerKind
    key: str
    title: str
    detail: str = ""

    @property
    def spoken(self) -> str:
        """What a screen reader says for the row."""
        return f"{self.title}, {self.detail}" if self.detail else self.title


def find_trigger(line: str, caret: int) -> Trigger | None:
    """The trigger whose token holds ``caret`` in ``line``, or None."""
    if not 0 <= caret <= len(line):
        return None
    start = caret
    while start > 0 and line[start - 1] not in _BOUNDARY:
        start -= 1
    if start == caret:  # nothing typed before the caret in this token
        return None
    kind = TRIGGER_CHARACTERS.get(line[start])
    if kind is None:
        return None
    end = caret
    while end < len(line) and line[end] not in _BOUNDARY:
        end += 1
    return Trigger(kind, start, end, line[start + 1 : caret])


def to_units(text: str, index: int) -> int:
    """The UTF-16 offset of Python index ``index`` in ``text``."""
    return utf16_len(text[:index])


def from_units(text: str, units: int) -> int:
    """The Python index of UTF-16 offset ``units`` in ``text`` (inside a pair: the pair's end)."""
    count = 0
    for index, char in enumerate(text):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(text)


class CompletionTickets:
    """Numbers requests so that only the newest answer is used."""

    def __init__(self) -> None:
        self._current = 0

    def issue(self) -> int:
        """A ticket for a new request; every earlier ticket becomes stale."""
        self._current += 1
        return self._current

    def cancel(self) -> None:
        """Make every outstanding ticket stale (the popup closed)."""
        self._current += 1

    def is_current(self, ticket: int) -> bool:
        """True when ``ticket`` belongs to the newest request."""
        return ticket == self._current


def _match_rank(text: str, query: str) -> int | None:
    """0 prefix, 1 word start, 2 substring, 3 characters in order; None when no match."""
    if not query:
        return 0
    hay = text.casefold()
    needle = query.casefold()
    if hay.startswith(needle):
        return 0
    at = hay.find(needle)
    if at > 0:
        return 1 if not hay[at - 1].isalnum() else 2
    position = 0
    for char in needle:
        position = hay.find(char, position)
        if position < 0:
            return None
        position += 1
    return 3


def filter_items(items: Sequence[CompletionItem], query: str) -> list[CompletionItem]:
    """The items matching ``query`` (on the title), best matches first; equal matches keep their
    order (threads arrive most recent first, skills as the catalog lists them)."""
    ranked: list[tuple[int, int, CompletionItem]] = []
    for order, item in enumerate(items):
        rank = _match_rank(item.title, query)
        if rank is not None:
            ranked.append((rank, order, item))
    ranked.sort(key=lambda entry: (entry[0], entry[1]))
    return [item for _, _, item in ranked]


def file_items(paths: Iterable[str]) -> list[CompletionItem]:
    """Rows for workspace paths (a trailing ``/`` marks a folder): the name, then its folder."""
    rows: list[CompletionItem] = []
    for path in paths:
        if not isinstance(path, str) or not trim(path):
            continue
        name, folder = _split_path(path)
        rows.append(CompletionItem(TriggerKind.FILE, path, name, folder))
    return rows


def skill_items(skills: Iterable[tuple[str, str]]) -> list[CompletionItem]:
    """Rows for ``(name, description)`` pairs, duplicates and blank names left out."""
    rows: list[CompletionItem] = []
    seen: set[str] = set()
    for name, description in skills:
        if not trim(name) or name in seen:
            continue
        seen.add(name)
        rows.append(CompletionItem(TriggerKind.SKILL, name, name, description))
    return rows


def thread_items(threads: Iterable[tuple[str, str]]) -> list[CompletionItem]:
    """Rows for ``(thread id, title)`` pairs in the catalog's order (most recent first)."""
    rows: list[CompletionItem] = []
    for thread_id, title in threads:
        if not trim(thread_id):
            continue
        rows.append(CompletionItem(TriggerKind.THREAD, thread_id, trim(title) or "Untitled thread"))
    return rows


def _split_path(path: str) -> tuple[str, str]:
    bare = path.rstrip("/")
    name = posixpath.basename(bare) or bare
    folder = posixpath.dirname(bare)
    return (name + "/" if path.endswith("/") else name), folder


def _decode(wire: dict[str, object]) -> object | None:
    try:
        record: object = decode_record(wire)
    except ContractError:
        return None
    return record


def mention_record(path: str) -> MentionRecord | None:
    """A ``mention`` of a workspace path; the label is the file (or folder) name."""
    bare = path.rstrip("/") or path
    name = posixpath.basename(bare) or bare
    record = _decode(
        {
            "version": 1,
            "contextId": to_kind_scoped_context_id("mention", bare),
            "kind": "mention",
            "label": cut_utf16(name, LABEL_MAX_CHARS),
            "path": bare,
        }
    )
    return record if isinstance(record, MentionRecord) else None


def skill_record(name: str) -> SkillRecord | None:
    """A ``skill`` record for a skill name."""
    record = _decode(
        {
            "version": 1,
            "contextId": to_kind_scoped_context_id("skill", trim(name)),
            "kind": "skill",
            "label": cut_utf16(trim(name), LABEL_MAX_CHARS),
            "name": name,
        }
    )
    return record if isinstance(record, SkillRecord) else None


def thread_record(environment_id: str, thread_id: str, title: str) -> ThreadRecord | None:
    """A ``thread`` record with a title snapshot taken now."""
    snapshot = cut_utf16(trim(title), LABEL_MAX_CHARS)
    record = _decode(
        {
            "version": 1,
            "contextId": to_kind_scoped_context_id("thread", trim(thread_id)),
            "kind": "thread",
            "label": snapshot or "thread",
            "environmentId": environment_id,
            "threadId": thread_id,
            "title": snapshot,
        }
    )
    return record if isinstance(record, ThreadRecord) else None


def record_for(item: CompletionItem, environment_id: str) -> object | None:
    """The record inserting ``item`` makes (None when it cannot be a valid record)."""
    if item.kind is TriggerKind.FILE:
        return mention_record(item.key)
    if item.kind is TriggerKind.SKILL:
        return skill_record(item.key)
    return thread_record(environment_id, item.key, item.title)


def trigger_text(before_caret: str, character: str) -> str:
    """What to type so that ``character`` opens its popup at the caret: a space first when the
    caret follows a word (``see@`` would not be a trigger)."""
    if before_caret and before_caret[-1] not in _BOUNDARY:
        return " " + character
    return character
