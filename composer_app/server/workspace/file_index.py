"""The quick-open index of one workspace: built in the background, kept current, searched fast.

Ranking is editors' quick-open: the query's characters must appear in order; matches inside the
file name rank above matches that need the folders; contiguous runs and matches at word and
path-segment starts score higher (``mwin`` finds ``ui/main_window.py``); ties go to shorter paths.
An empty query lists recently modified entries first.

Invariants: a search that arrives while the first build runs waits for it; afterwards searches
never wait for a rebuild of a large index (they answer from the previous one while a background
rebuild runs) but a small one (``SYNC_REBUILD_MAX`` entries) is rebuilt before answering, so a new
file is found at once; freshness is checked by the modification times of the listed folders (and
git's index), at most every ``CHECK_INTERVAL`` seconds for a large index. Candidate filtering runs
on per-character presence masks (Python integers, one bit per entry, entries ordered by path
length) so a query touches only entries holding all its characters; the in-order check and the
scorer (``rapidfuzz``'s LCS for the subsequence test, then position bonuses) run on at most
``EXAMINE_MAX`` of them, shortest paths first.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz.distance import LCSseq

from composer_app.server.workspace.listing import Entry, Listing, list_workspace

_log = logging.getLogger(__name__)

SYNC_REBUILD_MAX = 20_000
CHECK_INTERVAL = 1.0
EXAMINE_MAX = 4_000
SCORED_MAX = 600
MASK_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_-."


def _mask(strings: list[str], char: str) -> int:
    return int.from_bytes(bytes([char in s for s in strings]), "little")


def _hits(mask: int, count: int) -> Iterable[int]:
    """Indices of the entries set in a byte-per-entry mask, in order."""
    data = mask.to_bytes(count, "little")
    index = data.find(1)
    while index >= 0:
        yield index
        index = data.find(1, index + 1)


def _boundary(path: str, i: int, name_start: int) -> int:
    """The bonus of a match at ``path[i]``: segment start 3, word start 2, else 0."""
    if i == 0 or i == name_start or path[i - 1] == "/":
        return 3
    before = path[i - 1]
    if before in "_-. ":
        return 2
    if path[i].isupper() and before.islower():
        return 2
    return 0


def _fits(query: str, text: str, start: int) -> bool:
    for char in query:
        start = text.find(char, start)
        if start < 0:
            return False
        start += 1
    return True


def match_score(query: str, lower: str, path: str, start: int, name_start: int) -> float | None:
    """The score of ``query`` matched in order inside ``lower[start:]`` (None: no match)."""
    pos, last, score = start, -2, 0.0
    first = -1
    for k, char in enumerate(query):
        j = lower.find(char, pos)
        if j < 0:
            return None
        if j != last + 1 and not _boundary(path, j, name_start):
            t = lower.find(char, j + 1)
            while t >= 0:
                if _boundary(path, t, name_start) and _fits(query[k + 1:], lower, t + 1):
                    j = t
                    break
                t = lower.find(char, t + 1)
        bonus = _boundary(path, j, name_start)
        score += 1.0 + 4.0 * bonus + (8.0 if j == last + 1 else 0.0)
        score += 2.0 if j >= name_start else 0.0
        if first < 0:
            first = j
        last, pos = j, j + 1
    score -= 0.1 * (last - first + 1 - len(query))
    name = lower[name_start:]
    if name.startswith(query):
        score += 25.0
    elif query in name:
        score += 15.0
    return score


@dataclass(frozen=True)
class _Built:
    entries: list[Entry]
    lower: list[str]
    name_starts: list[int]
    path_masks: dict[str, int]
    name_masks: dict[str, int]
    recent: list[int]
    watched: dict[str, float]
    built_at: float


def _build(listing: Listing) -> _Built:
    entries = sorted(listing.entries, key=lambda e: (len(e.path), e.path))
    lower = [e.path.lower() for e in entries]
    name_starts = [p.rfind("/") + 1 for p in lower]
    names = [p[s:] for p, s in zip(lower, name_starts, strict=True)]
    present = set("".join(lower))
    path_masks = {c: _mask(lower, c) for c in MASK_ALPHABET if c in present}
    name_masks = {c: _mask(names, c) for c in MASK_ALPHABET if c in present}
    recent = sorted(range(len(entries)), key=lambda i: -entries[i].mtime)
    return _Built(entries, lower, name_starts, path_masks, name_masks, recent,
                  listing.watched, time.monotonic())


class FileIndex:
    """The index of one workspace folder (thread-safe)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._built: _Built | None = None
        self._lock = threading.Lock()
        self._first = threading.Event()
        self._rebuilding = False
        self._checked = 0.0

    def start(self) -> None:
        """Start the first build in the background (no-op when built or building)."""
        with self._lock:
            if self._rebuilding or self._built is not None:
                return
            self._rebuilding = True
        threading.Thread(target=self._rebuild, name="workspace-index", daemon=True).start()

    def _rebuild(self) -> None:
        try:
            built = _build(list_workspace(self.root))
            with self._lock:
                self._built = built
        except Exception:
            _log.exception("workspace index of %s failed", self.root)
        finally:
            with self._lock:
                self._rebuilding = False
            self._first.set()

    def _stale(self, built: _Built) -> bool:
        return any(_mtime(path) != mtime for path, mtime in built.watched.items())

    def current(self) -> _Built:
        """The index, fresh as the invariants promise (waits for the first build)."""
        self.start()
        self._first.wait()
        built = self._built
        if built is None:  # the build failed: try once more, synchronously
            built = _build(list_workspace(self.root))
            self._built = built
        now = time.monotonic()
        small = len(built.entries) <= SYNC_REBUILD_MAX
        if not small and now - self._checked < CHECK_INTERVAL:
            return built
        self._checked = now
        if not self._stale(built):
            return built
        if small:
            built = _build(list_workspace(self.root))
            self._built = built
            return built
        with self._lock:
            if self._rebuilding:
                return built
            self._rebuilding = True
        threading.Thread(target=self._rebuild, name="workspace-index", daemon=True).start()
        return built

    def search(self, query: str, limit: int) -> list[Entry]:
        """The best ``limit`` entries for ``query`` (see the module docstring)."""
        built = self.current()
        query = "".join(query.lower().split()).replace("\\", "/")
        if not query:
            return [built.entries[i] for i in built.recent[:limit]]
        count = len(built.entries)
        all_bits = (1 << (8 * count)) - 1 if count else 0
        path_mask = name_mask = all_bits
        for char in set(query):
            if char in built.path_masks:
                path_mask &= built.path_masks[char]
                name_mask &= built.name_masks[char]
            elif char in MASK_ALPHABET:
                return []
        # Masks hold one byte per entry (0 or 1); AND keeps that shape.
        scored: list[tuple[float, int]] = []
        seen: set[int] = set()
        examined = 0
        needed = len(query)
        for tier_mask, in_name in ((name_mask, True), (path_mask, False)):
            confirmed = 0
            for i in _hits(tier_mask, count):
                if i in seen:
                    continue
                examined += 1
                if examined > EXAMINE_MAX or confirmed >= SCORED_MAX:
                    break
                lower, start = built.lower[i], built.name_starts[i]
                target = lower[start:] if in_name else lower
                if LCSseq.similarity(query, target) < needed:
                    continue
                score = match_score(query, lower, built.entries[i].path,
                                    start if in_name else 0, start)
                if score is None:
                    continue
                seen.add(i)
                confirmed += 1
                scored.append((score + (50.0 if in_name else 0.0), i))
            if len(scored) >= limit and in_name:
                break
        scored.sort(key=lambda s: (-s[0], len(built.lower[s[1]]), built.lower[s[1]]))
        return [built.entries[i] for _, i in scored[:limit]]


def _mtime(path: str) -> float:
    try:
        return os.lstat(path).st_mtime
    except OSError:
        return -1.0


class WorkspaceIndexes:
    """One ``FileIndex`` per workspace folder, the ``capacity`` most recently used kept."""

    def __init__(self, capacity: int = 16) -> None:
        self.capacity = capacity
        self._indexes: OrderedDict[Path, FileIndex] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, root: Path) -> FileIndex:
        with self._lock:
            index = self._indexes.get(root)
            if index is None:
                index = self._indexes[root] = FileIndex(root)
                while len(self._indexes) > self.capacity:
                    self._indexes.popitem(last=False)
            self._indexes.move_to_end(root)
        index.start()
        return index
