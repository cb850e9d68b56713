"""The quick-open index of one workspace: built in the background, kept current, searched fast.

Ranking is editors' quick-open: the query's characters must appear in order; matches inside the
file name rank above matches that need the folders; contiguous runs and matches at word and
path-segment starts score higher (``mwin`` finds ``ui/main_window.py``); ties go to shorter paths.
An empty query lists recently modified entries first. Only entries that still exist are answered.

Invariants: a search that arrives while the first build runs waits for it; afterwards searches
never wait for a rebuild of a large index (they answer from the previous one while a background
rebuild runs, and a change that arrives during it makes one more) but a small one
(``SYNC_REBUILD_MAX`` entries) is rebuilt before answering, so a new file is found at once.
Freshness costs a search almost nothing: the listed folders (and git's folder) are watched with
inotify (``FolderWatch``), so a search reads pending folder events without blocking and stats
nothing; a change between listing and watching is caught by comparing the folders' modification
times once, in the background. Where inotify is not available (another system, the watch limit
reached) the modification times of the listed folders (and git's index) are compared instead, at
most every ``CHECK_INTERVAL`` seconds for a large index. Candidate filtering runs
on per-character presence masks (Python integers, one byte per entry, entries ordered by path
length) so a query touches only entries holding all its letters and digits; the in-order check
(``rapidfuzz``'s LCS: the query is a subsequence when the LCS is the whole query) and the scorer
run on at most ``EXAMINE_MAX`` of them, shortest paths first, keeping ``NAME_MATCHES_MAX`` name
matches and ``PATH_MATCHES_MAX`` folder matches. Modification times and the masks of characters
not asked for yet are made after the first build, in the background (a query that needs a mask
first makes it); an empty query waits for the modification times.
"""

from __future__ import annotations

import logging
import operator
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path

from rapidfuzz.distance import LCSseq

from composer_app.server.workspace.folder_watch import FolderWatch
from composer_app.server.workspace.listing import Entry, Listing, list_workspace

_log = logging.getLogger(__name__)

SYNC_REBUILD_MAX = 20_000
CHECK_INTERVAL = 1.0
EXAMINE_MAX = 2_000
NAME_MATCHES_MAX = 150
PATH_MATCHES_MAX = 100
NAME_BONUS = 50.0
MASK_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"


def _mask(strings: list[str], char: str) -> int:
    """One byte per string, 1 where it holds ``char``."""
    return int.from_bytes(bytes(map(operator.contains, strings, repeat(char))), "little")


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


@dataclass
class _Built:
    paths: list[str]
    directories: set[str]
    lower: list[str]
    name_starts: list[int]
    ones: int
    watched: dict[str, float]
    built_at: float
    git_index: str | None = None
    git_dir: str | None = None
    changed_while_watching: bool = False
    recent: list[int] = field(default_factory=list)
    recent_ready: threading.Event = field(default_factory=threading.Event)
    masks: dict[str, int] = field(default_factory=dict)
    present: frozenset[str] = frozenset()

    def mask(self, char: str) -> int | None:
        """The presence mask of ``char`` (made on first use; None when no path holds it)."""
        found = self.masks.get(char)
        if found is None:
            if char not in self.present:
                return None
            found = self.masks[char] = _mask(self.lower, char)
        return found

    def fill_masks(self) -> None:
        """Make every mask ahead of use (after the first build, in the background)."""
        for char in MASK_ALPHABET:
            self.mask(char)

    def entry(self, i: int) -> Entry:
        path = self.paths[i]
        return Entry(path, "directory" if path in self.directories else "file")


def _build(listing: Listing) -> _Built:
    paths = sorted(listing.paths, key=len)  # stable: ties keep the listing's order
    # whole-list string work in C: NUL cannot occur in a path
    joined = "\0".join(paths).lower()
    lower = joined.split("\0") if paths else []
    name_starts = [slash + 1 for slash in map(str.rfind, lower, repeat("/"))]
    present = frozenset(char for char in MASK_ALPHABET if char in joined)
    ones = int.from_bytes(b"\x01" * len(paths), "little")
    git_index = os.path.join(listing.git_dir, "index") if listing.git_dir else None
    return _Built(paths, listing.directories, lower, name_starts, ones, listing.watched,
                  time.monotonic(), git_index=git_index, git_dir=listing.git_dir,
                  present=present)


def _read_recency(root: Path, built: _Built) -> None:
    """Modification times of every entry, newest first, into ``built.recent``."""
    base = str(root)
    times = [_mtime(os.path.join(base, path)) for path in built.paths]
    built.recent = sorted(range(len(times)), key=times.__getitem__, reverse=True)
    built.recent_ready.set()


class FileIndex:
    """The index of one workspace folder (thread-safe)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._built: _Built | None = None
        self._lock = threading.Lock()
        self._first = threading.Event()
        self._rebuilding = False
        self._again = False
        self._checked = 0.0
        self._watch = FolderWatch()
        self._watching = False

    @property
    def watching(self) -> bool:
        """True when folder events (inotify) keep the index fresh, False when it compares
        modification times."""
        return self._watching

    def start(self) -> None:
        """Start the first build in the background (no-op when built or building)."""
        with self._lock:
            if self._rebuilding or self._built is not None:
                return
            self._rebuilding = True
        threading.Thread(target=self._rebuild, name="workspace-index", daemon=True).start()

    def close(self) -> None:
        """Stop watching the folder (the index answers on, from modification times)."""
        self._watch.close()
        self._watching = False

    def _rebuild(self) -> None:
        while True:
            built = None
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
            if built is not None:
                self._watch_folders(built)
                _read_recency(self.root, built)
                built.fill_masks()
            with self._lock:
                if not self._again or self._rebuilding:
                    return
                self._again = False  # a change arrived while this build listed: once more
                self._rebuilding = True

    def _watch_folders(self, built: _Built) -> None:
        """Watch the listed folders; a change between listing and watching is caught by
        comparing their modification times once (then the next search rebuilds)."""
        folders = [path for path in built.watched if path != built.git_index]
        self._watching = self._watch.add(folders, git_dir=built.git_dir)
        if self._watching and self._stale(built):
            built.changed_while_watching = True

    def _build_now(self) -> _Built:
        built = _build(list_workspace(self.root))
        self._watch_folders(built)
        _read_recency(self.root, built)
        self._built = built
        return built

    def _stale(self, built: _Built) -> bool:
        return any(_mtime(path) != mtime for path, mtime in built.watched.items())

    def _changed(self, built: _Built) -> bool:
        """Whether the listing may have changed: a non-blocking read of folder events when
        watching (microseconds), else the folders' modification times (at most every
        ``CHECK_INTERVAL`` for a large index)."""
        if self._watching:
            found = self._watch.changed() or built.changed_while_watching
            built.changed_while_watching = False
            return found
        now = time.monotonic()
        if len(built.paths) > SYNC_REBUILD_MAX and now - self._checked < CHECK_INTERVAL:
            return False
        self._checked = now
        return self._stale(built)

    def current(self) -> _Built:
        """The index, fresh as the invariants promise (waits for the first build)."""
        self.start()
        self._first.wait()
        built = self._built
        if built is None:  # the build failed: try once more, synchronously
            built = self._build_now()
        if not self._changed(built):
            return built
        if len(built.paths) <= SYNC_REBUILD_MAX:
            return self._build_now()
        with self._lock:
            if self._rebuilding:
                self._again = True
                return built
            self._rebuilding = True
        threading.Thread(target=self._rebuild, name="workspace-index", daemon=True).start()
        return built

    def search(self, query: str, limit: int) -> list[Entry]:
        """The best ``limit`` entries for ``query`` (see the module docstring)."""
        built = self.current()
        query = "".join(query.lower().split()).replace("\\", "/")
        if not query:
            built.recent_ready.wait()
            return self._existing(built, built.recent, limit)
        count = len(built.paths)
        mask = built.ones
        for char in set(query) & set(MASK_ALPHABET):
            char_mask = built.mask(char)
            if char_mask is None:
                return []
            mask &= char_mask
        needed = len(query)
        in_name: list[tuple[float, int]] = []
        in_path: list[tuple[float, int]] = []
        for examined, i in enumerate(_hits(mask, count)):
            if examined >= EXAMINE_MAX or len(in_name) >= max(NAME_MATCHES_MAX, limit):
                break
            lower, start = built.lower[i], built.name_starts[i]
            if LCSseq.similarity(query, lower[start:]) >= needed:
                score = match_score(query, lower, built.paths[i], start, start)
                if score is not None:
                    in_name.append((score + NAME_BONUS, i))
            elif len(in_path) < PATH_MATCHES_MAX and LCSseq.similarity(query, lower) >= needed:
                score = match_score(query, lower, built.paths[i], 0, start)
                if score is not None:
                    in_path.append((score, i))
        scored = in_name + in_path
        scored.sort(key=lambda s: (-s[0], len(built.lower[s[1]]), built.lower[s[1]]))
        return self._existing(built, [i for _, i in scored], limit)

    def _existing(self, built: _Built, order: Iterable[int], limit: int) -> list[Entry]:
        """The first ``limit`` entries of ``order`` that still exist (a tracked file deleted
        from the working tree, or anything deleted since the last build, drops out)."""
        found: list[Entry] = []
        base = str(self.root)
        for i in order:
            if len(found) >= limit:
                break
            if os.path.lexists(os.path.join(base, built.paths[i])):
                found.append(built.entry(i))
        return found


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
                    self._indexes.popitem(last=False)[1].close()
            self._indexes.move_to_end(root)
        index.start()
        return index
