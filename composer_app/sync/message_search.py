"""Full-text search over the client cache's messages (SQLite FTS5), for Ctrl+F.

Messages are indexed as a person reads them: every reference is replaced by its label, so a chip
is found by its name and never by its ``t3-context://`` address. ``install`` adds the index and
the triggers that keep it equal to the ``messages`` table on every insert, update and delete, and
fills it once for a database made before it existed.

Invariants: ``match_expression`` turns any user text into a valid FTS5 query or ``None`` (no
operator, quote or column filter typed by a person reaches FTS5, so a search never raises a syntax
error); every word must match, the last one as a prefix (search as you type); the index row of a
message has the message's ``rowid``.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from composer_app.core.codecs.references import Reference, replace_references

MAX_QUERY_WORDS = 16
_WORD = re.compile(r"\w+", re.UNICODE)

_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS message_search USING fts5(
    body, tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS message_search_insert AFTER INSERT ON messages BEGIN
    INSERT INTO message_search(rowid, body) VALUES (new.rowid, composer_plain_text(new.text));
END;
CREATE TRIGGER IF NOT EXISTS message_search_delete AFTER DELETE ON messages BEGIN
    DELETE FROM message_search WHERE rowid = old.rowid;
END;
CREATE TRIGGER IF NOT EXISTS message_search_update AFTER UPDATE OF text ON messages BEGIN
    DELETE FROM message_search WHERE rowid = old.rowid;
    INSERT INTO message_search(rowid, body) VALUES (new.rowid, composer_plain_text(new.text));
END;
"""


@dataclass(frozen=True)
class MessageHit:
    """One message that matched, with a one-line excerpt around the match."""

    message_id: str
    thread_id: str
    role: str
    excerpt: str
    created_at: str | None


def plain_text(text: str | None) -> str:
    """``text`` as read: references replaced by their labels."""
    if not text:
        return ""
    return replace_references(text, _label)


def _label(reference: Reference) -> str:
    return reference.label


def match_expression(query: str) -> str | None:
    """A safe FTS5 query for ``query``: every word quoted, the last one a prefix."""
    words = _WORD.findall(query)[:MAX_QUERY_WORDS]
    if not words:
        return None
    quoted = [f'"{word}"' for word in words]
    if query[-1:].isalnum() or query.endswith("_"):
        quoted[-1] += "*"
    return " ".join(quoted)


def install(db: sqlite3.Connection) -> None:
    """Register the text function, create the index and its triggers, fill it if it is new."""
    db.create_function("composer_plain_text", 1, plain_text, deterministic=True)
    existed = db.execute("SELECT 1 FROM sqlite_master WHERE name='message_search'").fetchone()
    db.executescript(_SCHEMA)
    if existed is None:
        db.execute("INSERT INTO message_search(rowid, body) "
                   "SELECT rowid, composer_plain_text(text) FROM messages")


def search(db: sqlite3.Connection, query: str, limit: int,
           thread_id: str | None = None) -> list[MessageHit]:
    """The best ``limit`` matches for ``query``, best first (optionally in one thread)."""
    expression = match_expression(query)
    if expression is None or limit <= 0:
        return []
    sql = ("SELECT m.message_id, m.thread_id, m.role, "
           "snippet(message_search, 0, '', '', '…', 12), m.created_at "
           "FROM message_search JOIN messages m ON m.rowid = message_search.rowid "
           "WHERE message_search MATCH ?")
    args: list[object] = [expression]
    if thread_id is not None:
        sql += " AND m.thread_id = ?"
        args.append(thread_id)
    sql += " ORDER BY rank LIMIT ?"
    args.append(limit)
    return [MessageHit(r[0], r[1], r[2], " ".join(str(r[3]).split()), r[4])
            for r in db.execute(sql, args).fetchall()]
