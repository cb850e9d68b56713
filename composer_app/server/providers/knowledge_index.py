"""The knowledge folder's persistent full-text index, kept current as files change.

Invariants: the index lives in the server data directory (one SQLite file per folder, named by a
hash of the folder's resolved path), never inside the folder; ``refresh`` makes the index equal to
the folder's current text files: a file is re-read only when its size or mtime changed and
re-indexed only when its SHA-256 changed; deleted files leave the index; PDF, .docx and HTML files
are indexed by their text (``document_text``); binary files, files over ``MAX_FILE_BYTES``, hidden
entries and symlinks are never indexed (binary and over-size files are remembered as unsearchable
so they are not re-read every time, a document that could not be read with the reason why);
document keys are POSIX paths relative to the folder.
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from composer_app.server.providers.document_text import read_document
from composer_app.server.providers.passage_store import Hit, PassageStore
from composer_app.server.providers.passages import passages_for

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_FILES = 50_000
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "target", "build", "dist"})


@dataclass(frozen=True, slots=True)
class RefreshStats:
    """What one ``refresh`` did."""

    scanned: int = 0
    indexed: int = 0
    unchanged: int = 0
    skipped: int = 0
    deleted: int = 0
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class FileInfo:
    """A listed knowledge file: relative POSIX path, size and modification time."""

    path: str
    size: int
    mtime_ns: int


def index_path_for(data_dir: Path, folder: Path) -> Path:
    """Where the index of ``folder`` lives inside the server data directory."""
    digest = hashlib.sha256(str(folder.resolve()).encode("utf-8")).hexdigest()[:16]
    return data_dir / "knowledge" / f"index-{digest}.sqlite3"


def _walk(root: Path) -> Iterator[tuple[str, os.stat_result]]:
    stack: list[tuple[str, str]] = [(str(root), "")]
    count = 0
    while stack:
        current, prefix = stack.pop()
        try:
            with os.scandir(current) as entries:
                found = list(entries)
        except OSError:
            continue
        for entry in found:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIPPED_DIRS:
                        stack.append((entry.path, f"{prefix}{entry.name}/"))
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                count += 1
                if count > MAX_FILES:
                    return
                yield prefix + entry.name, info


class KnowledgeIndex:
    """The index of one knowledge folder, persisted at ``index_path``."""

    def __init__(self, folder: Path, index_path: Path) -> None:
        self.folder = folder
        index_path.parent.mkdir(parents=True, exist_ok=True)
        self.store = PassageStore(index_path)
        self._refresh_lock = threading.Lock()
        self._files: dict[str, FileInfo] = {}
        self._seen: dict[str, FileInfo] = {}

    @classmethod
    def in_data_dir(cls, folder: Path, data_dir: Path) -> KnowledgeIndex:
        """The index of ``folder`` stored in the server data directory ``data_dir``."""
        return cls(folder, index_path_for(data_dir, folder))

    def close(self) -> None:
        self.store.close()

    def refresh(self) -> RefreshStats:
        """Bring the index up to date with the folder (see the module invariant)."""
        started = time.perf_counter()
        with self._refresh_lock:
            known = self.store.states()
            seen: dict[str, FileInfo] = {}
            indexed = unchanged = skipped = touched = 0
            with self.store.transaction():
                for rel, info in _walk(self.folder) if self.folder.is_dir() else ():
                    seen[rel] = FileInfo(rel, info.st_size, info.st_mtime_ns)
                    state = known.get(rel)
                    if (
                        state is not None
                        and state.size == info.st_size
                        and state.mtime_ns == info.st_mtime_ns
                    ):
                        unchanged += 1
                        skipped += 0 if state.searchable else 1
                        continue
                    touched += 1
                    outcome = self._index_file(rel, info, state.sha256 if state else None)
                    indexed += outcome == "indexed"
                    unchanged += outcome == "same"
                    skipped += outcome == "skipped"
                gone = [key for key in known if key not in seen]
                for key in gone:
                    self.store.delete_document(key)
            states = self.store.states() if touched or gone else known  # else: no second read
            searchable = {k for k, s in states.items() if s.searchable}
            self._files = {k: v for k, v in seen.items() if k in searchable}
            self._seen = seen
        return RefreshStats(
            len(seen), indexed, unchanged, skipped, len(gone), time.perf_counter() - started
        )

    def _index_file(self, rel: str, info: os.stat_result, old_sha: str | None) -> str:
        path = self.folder / rel
        name = PurePosixPath(rel).name
        if info.st_size > MAX_FILE_BYTES:
            self.store.put_document(
                rel, name, (), size=info.st_size, mtime_ns=info.st_mtime_ns, searchable=False,
                problem="It is larger than the 4 MB the offline assistant reads.",
            )
            return "skipped"
        try:
            data = path.read_bytes()
        except OSError:
            return "skipped"
        digest = hashlib.sha256(data).hexdigest()
        if digest == old_sha:
            self.store.touch_document(rel, info.st_size, info.st_mtime_ns)
            return "same"
        document = read_document(name, data)
        if document.text is None:
            self.store.put_document(
                rel, name, (), size=info.st_size, mtime_ns=info.st_mtime_ns, sha256=digest,
                searchable=False, problem=document.problem or "",
            )
            return "skipped"
        self.store.put_document(
            rel, name, passages_for(name, document.text, prose=document.prose),
            size=info.st_size, mtime_ns=info.st_mtime_ns, sha256=digest,
        )
        return "indexed"

    def unreadable(self) -> list[tuple[FileInfo, str]]:
        """The folder's documents that could not be read and why (as of the last ``refresh``)."""
        problems = self.store.problems()
        return [(self._seen[key], problems[key]) for key in sorted(problems)
                if key in self._seen]

    def files(self) -> list[FileInfo]:
        """The searchable files as of the last ``refresh``, ordered by path."""
        return [self._files[key] for key in sorted(self._files)]

    def search(self, terms: list[str], limit: int = 8) -> list[Hit]:
        """Ranked passages of the folder's files (call ``refresh`` first to see changes)."""
        return self.store.search(terms, limit)
