"""An SQLite FTS5 store of document passages, ranked by FTS5's built-in ``bm25()``.

Invariants: every passage belongs to exactly one document (``documents.key`` is unique) and
replacing or deleting a document replaces or deletes all of its passages in the same transaction;
ranking is SQLite's ``bm25()`` (title weighted above body), never a hand-written scorer; a query is
built only from quoted terms, so user text can never inject FTS5 query syntax; sentence vectors
(``sentence_vectors``) are kept by sentence digest, independent of documents, and dropped with
an index of another schema version; all access goes
through one connection guarded by a lock, so the store may be used from worker threads.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from composer_app.server.providers.passages import Passage

MARK_OPEN = "\x01"
MARK_CLOSE = "\x02"
SCHEMA_VERSION = "4"  # 2: prose passages hold one joined block per line; 3: table rows carry
# their column headers, PDF headings and aligned tables are structure; 4: Markdown's emphasis and
# code-span markers are left out of the prose

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents(
    doc_id INTEGER PRIMARY KEY,
    key TEXT UNIQUE NOT NULL,
    title TEXT NOT NULL,
    size INTEGER NOT NULL DEFAULT 0,
    mtime_ns INTEGER NOT NULL DEFAULT 0,
    sha256 TEXT NOT NULL DEFAULT '',
    searchable INTEGER NOT NULL DEFAULT 1,
    problem TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS passages(
    passage_id INTEGER PRIMARY KEY,
    doc_id INTEGER NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    line_start INTEGER NOT NULL,
    line_end INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS passages_doc ON passages(doc_id);
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
    title, body, tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS sentence_vectors(digest BLOB PRIMARY KEY, vector BLOB NOT NULL);
"""
_TITLE_WEIGHT = 2.0
_BODY_WEIGHT = 1.0


@dataclass(frozen=True, slots=True)
class DocumentState:
    """What the store remembers about a document to detect changes."""

    doc_id: int
    size: int
    mtime_ns: int
    sha256: str
    searchable: bool


@dataclass(frozen=True, slots=True)
class Hit:
    """One ranked passage: lower ``score`` is better (``bm25()``); ``marked`` is the body with
    each matched token wrapped in ``MARK_OPEN``/``MARK_CLOSE``; ``matched`` counts the query terms
    found in the passage."""

    key: str
    title: str
    line_start: int
    line_end: int
    text: str
    marked: str
    score: float
    matched: int


def quote_term(term: str) -> str:
    """One FTS5 string token: the term in double quotes, inner quotes doubled."""
    return '"' + term.replace('"', '""') + '"'


def unmark(text: str) -> str:
    """``text`` without highlight marks."""
    return text.replace(MARK_OPEN, "").replace(MARK_CLOSE, "")


_WS_RUN = re.compile(r"\s+")
_WORDS = re.compile(r"[^\W_]+")
_FEW_PASSAGES = 10_000
_OPENING_CHARS = 200


class PassageStore:
    """Documents and their passages in one SQLite database (``":memory:"`` for a scratch store)."""

    def __init__(self, path: Path | str = ":memory:") -> None:
        self._lock = threading.RLock()
        self._openings: dict[str, set[str]] | None = None  # word -> keys naming it (a cache)
        self._opening_words: dict[str, set[str]] = {}  # key -> the words of its opening
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA foreign_keys=ON")
        if str(path) != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=5000")
        with self._lock:
            self._db.executescript(_SCHEMA)
            if self.get_meta("schema") not in (None, SCHEMA_VERSION):
                self._rebuild()
            self._db.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,)
            )

    def _rebuild(self) -> None:
        """Drop an index written by another schema version (it is rebuilt from the files)."""
        self._db.executescript(
            "DROP TABLE IF EXISTS passages_fts; DROP TABLE IF EXISTS passages; "
            "DROP TABLE IF EXISTS documents; DROP TABLE IF EXISTS sentence_vectors; "
            "DELETE FROM meta;")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        with self._lock:
            self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (re-entrant calls join the outer one)."""
        with self._lock:
            if self._db.in_transaction:
                yield
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def states(self) -> dict[str, DocumentState]:
        """Every document's change-detection state, by key."""
        with self._lock:
            rows = self._db.execute(
                "SELECT key, doc_id, size, mtime_ns, sha256, searchable FROM documents"
            ).fetchall()
        return {r[0]: DocumentState(r[1], r[2], r[3], r[4], bool(r[5])) for r in rows}

    def put_document(
        self,
        key: str,
        title: str,
        passages: Sequence[Passage],
        *,
        size: int = 0,
        mtime_ns: int = 0,
        sha256: str = "",
        searchable: bool = True,
        problem: str = "",
    ) -> None:
        """Insert or replace a document and all of its passages (``problem``: why an unsearchable
        document could not be read, user-safe; empty when it is simply not a document)."""
        with self.transaction():
            self.delete_document(key)
            if searchable and passages and self._openings is not None:
                first = min(passages, key=lambda p: p.line_start)
                self._add_opening(key, title, first.text)
            cur = self._db.execute(
                "INSERT INTO documents(key, title, size, mtime_ns, sha256, searchable, problem) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, title, size, mtime_ns, sha256, int(searchable), problem),
            )
            doc_id = cur.lastrowid
            for passage in passages:
                cur = self._db.execute(
                    "INSERT INTO passages(doc_id, line_start, line_end) VALUES (?, ?, ?)",
                    (doc_id, passage.line_start, passage.line_end),
                )
                self._db.execute(
                    "INSERT INTO passages_fts(rowid, title, body) VALUES (?, ?, ?)",
                    (cur.lastrowid, title, passage.text),
                )

    def touch_document(self, key: str, size: int, mtime_ns: int) -> None:
        """Record a new size/mtime for a document whose content did not change."""
        with self._lock:
            self._db.execute(
                "UPDATE documents SET size = ?, mtime_ns = ? WHERE key = ?", (size, mtime_ns, key)
            )

    def delete_document(self, key: str) -> None:
        """Remove a document and its passages (no-op when absent)."""
        with self.transaction():
            row = self._db.execute("SELECT doc_id FROM documents WHERE key = ?", (key,)).fetchone()
            if row is None:
                return
            self._drop_opening(key)
            self._db.execute(
                "DELETE FROM passages_fts WHERE rowid IN "
                "(SELECT passage_id FROM passages WHERE doc_id = ?)",
                (row[0],),
            )
            self._db.execute("DELETE FROM passages WHERE doc_id = ?", (row[0],))
            self._db.execute("DELETE FROM documents WHERE doc_id = ?", (row[0],))

    def document_titles(self, *, searchable_only: bool = True) -> list[tuple[str, str]]:
        """``(key, title)`` of the documents, ordered by key."""
        where = " WHERE searchable = 1" if searchable_only else ""
        with self._lock:
            rows = self._db.execute(f"SELECT key, title FROM documents{where} ORDER BY key")
            return [(str(k), str(t)) for k, t in rows.fetchall()]

    def problems(self) -> dict[str, str]:
        """``key -> problem`` of the documents that could not be read."""
        with self._lock:
            rows = self._db.execute(
                "SELECT key, problem FROM documents WHERE problem != '' ORDER BY key").fetchall()
        return {str(k): str(p) for k, p in rows}

    def passage_count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM passages").fetchone()[0])

    def frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """How many passages contain each of ``terms`` (FTS5's own tokenization)."""
        counts: dict[str, int] = {}
        with self._lock:
            for term in dict.fromkeys(terms):
                if term.strip():
                    counts[term] = int(self._db.execute(
                        "SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?",
                        (quote_term(term),)).fetchone()[0])
        return counts

    def frequency_any(self, terms: Sequence[str]) -> int:
        """How many passages contain at least one of ``terms`` (FTS5's own tokenization)."""
        terms = [t for t in dict.fromkeys(terms) if t.strip()]
        if not terms:
            return 0
        with self._lock:
            return int(self._db.execute(
                "SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?",
                (" OR ".join(quote_term(t) for t in terms),)).fetchone()[0])

    def naming_documents(self, word: str) -> set[str]:
        """The keys of the searchable documents whose title or opening line (a Markdown
        document's first heading) holds ``word`` (case-folded; in the opening line only as a
        capitalised word; read from the database once, then kept up to date as documents
        change)."""
        with self._lock:
            if self._openings is None:
                self._openings, self._opening_words = {}, {}
                rows = self._db.execute(
                    f"SELECT d.key, d.title, substr(f.body, 1, {_OPENING_CHARS * 2}) "
                    "FROM documents d JOIN passages_fts f "
                    "ON f.rowid = (SELECT p.passage_id FROM passages p WHERE p.doc_id = d.doc_id "
                    "ORDER BY p.line_start LIMIT 1) WHERE d.searchable = 1").fetchall()
                for key, title, body in rows:
                    self._add_opening(str(key), str(title), str(body))
            return set(self._openings.get(word.casefold(), ()))

    def _add_opening(self, key: str, title: str, body: str) -> None:
        """Keep the words of ``title`` and the capitalised words of the opening line (at most
        ``_OPENING_CHARS`` of it) as naming document ``key``."""
        if self._openings is None:
            return  # not read yet: the first lookup reads every document's opening
        opening = next((line for line in body.lstrip()[:_OPENING_CHARS].splitlines()
                        if line.strip()), "")
        words = {found.casefold() for found in _WORDS.findall(title)}
        words.update(found.casefold() for found in _WORDS.findall(opening) if found[0].isupper())
        self._opening_words[key] = words
        for word in words:
            self._openings.setdefault(word, set()).add(key)

    def _drop_opening(self, key: str) -> None:
        if self._openings is not None:
            for word in self._opening_words.pop(key, ()):
                self._openings[word].discard(key)

    def holding(self, keys: Iterable[str], word: str) -> set[str]:
        """Those of ``keys`` whose document contains ``word`` anywhere (FTS5's own tokenization).
        A word in few passages is looked up once, a common one document by document."""
        wanted = set(keys)
        if not word.strip() or not wanted:
            return set()
        term = quote_term(word)
        with self._lock:
            count = int(self._db.execute(
                "SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?", (term,)
            ).fetchone()[0])
            if count <= _FEW_PASSAGES:
                rows = self._db.execute(
                    "SELECT DISTINCT d.key FROM passages_fts f JOIN passages p "
                    "ON p.passage_id = f.rowid JOIN documents d ON d.doc_id = p.doc_id "
                    "WHERE passages_fts MATCH ?", (term,)).fetchall() if count else []
                return {str(r[0]) for r in rows} & wanted
            return {key for key in sorted(wanted) if self._db.execute(
                "SELECT 1 FROM passages_fts WHERE passages_fts MATCH ? AND rowid IN "
                "(SELECT p.passage_id FROM passages p JOIN documents d ON d.doc_id = p.doc_id "
                "WHERE d.key = ?) LIMIT 1", (term, key)).fetchone() is not None}

    def search(self, terms: Sequence[str], limit: int = 8) -> list[Hit]:
        """The best ``limit`` passages matching any of ``terms``, best first, with term coverage."""
        terms = [t for t in dict.fromkeys(terms) if t.strip()]
        if not terms:
            return []
        query = " OR ".join(quote_term(t) for t in terms)
        with self._lock:
            rows = self._db.execute(
                "SELECT f.rowid, bm25(passages_fts, ?, ?) AS score, f.body, "
                "highlight(passages_fts, 1, ?, ?), d.key, d.title, p.line_start, p.line_end "
                "FROM passages_fts f JOIN passages p ON p.passage_id = f.rowid "
                "JOIN documents d ON d.doc_id = p.doc_id "
                "WHERE passages_fts MATCH ? ORDER BY score LIMIT ?",
                (_TITLE_WEIGHT, _BODY_WEIGHT, MARK_OPEN, MARK_CLOSE, query, limit),
            ).fetchall()
            matched = self._coverage([int(r[0]) for r in rows], terms)
        return [
            Hit(r[4], r[5], r[6], r[7], r[2], r[3], float(r[1]), matched.get(int(r[0]), 0))
            for r in rows
        ]

    def all_passages(self) -> list[Hit]:
        """Every passage of the searchable documents (unranked: ``score`` 0, nothing marked), in
        document and line order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT d.key, d.title, p.line_start, p.line_end, f.body FROM passages p "
                "JOIN documents d ON d.doc_id = p.doc_id "
                "JOIN passages_fts f ON f.rowid = p.passage_id "
                "WHERE d.searchable = 1 ORDER BY d.key, p.line_start").fetchall()
        return [Hit(str(r[0]), str(r[1]), int(r[2]), int(r[3]), str(r[4]), str(r[4]), 0.0, 0)
                for r in rows]

    def vectors(self, digests: Sequence[bytes]) -> dict[bytes, bytes]:
        """The stored sentence vectors (raw bytes) of those of ``digests`` that have one."""
        found: dict[bytes, bytes] = {}
        with self._lock:
            for start in range(0, len(digests), 500):
                chunk = list(digests[start : start + 500])
                marks = ",".join("?" * len(chunk))
                found.update((bytes(d), bytes(v)) for d, v in self._db.execute(
                    f"SELECT digest, vector FROM sentence_vectors WHERE digest IN ({marks})",
                    chunk).fetchall())
        return found

    def put_vectors(self, vectors: Iterable[tuple[bytes, bytes]]) -> None:
        """Store sentence vectors by their sentence's digest (replacing any stored one)."""
        with self.transaction():
            self._db.executemany(
                "INSERT OR REPLACE INTO sentence_vectors(digest, vector) VALUES (?, ?)",
                list(vectors))

    def keep_vectors(self, digests: Iterable[bytes]) -> int:
        """Delete every stored sentence vector whose digest is not in ``digests``; how many."""
        keep = set(digests)
        with self.transaction():
            stored = [bytes(r[0]) for r in
                      self._db.execute("SELECT digest FROM sentence_vectors").fetchall()]
            gone = [(d,) for d in stored if d not in keep]
            self._db.executemany("DELETE FROM sentence_vectors WHERE digest = ?", gone)
        return len(gone)

    def _coverage(self, rowids: Iterable[int], terms: Sequence[str]) -> dict[int, int]:
        ids = list(rowids)
        counts = dict.fromkeys(ids, 0)
        if not ids:
            return counts
        marks = ",".join("?" * len(ids))
        for term in terms:
            found = self._db.execute(
                f"SELECT rowid FROM passages_fts WHERE passages_fts MATCH ? AND rowid IN ({marks})",
                (quote_term(term), *ids),
            ).fetchall()
            for (rowid,) in found:
                counts[int(rowid)] += 1
        return counts
