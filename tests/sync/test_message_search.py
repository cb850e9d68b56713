"""Ctrl+F over message text: the FTS5 index follows the messages table and never raises."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.references import format_reference
from composer_app.sync.message_search import match_expression, plain_text
from composer_app.sync.store import ClientStore, MessageRow


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ClientStore]:
    made = ClientStore(tmp_path / "client.sqlite3")
    yield made
    made.close()


def _ids(store: ClientStore, query: str, thread_id: str | None = None) -> list[str]:
    return [hit.message_id for hit in store.search_messages(query, thread_id=thread_id)]


def test_finds_messages_by_every_word_and_by_prefix(store: ClientStore) -> None:
    store.upsert_message(MessageRow("m1", "t1", "user", "The staging rollout happens on Fridays"))
    store.upsert_message(MessageRow("m2", "t2", "assistant", "Production deploys weekly."))
    assert _ids(store, "rollout fri") == ["m1"]
    assert _ids(store, "PRODUCTION") == ["m2"]
    assert _ids(store, "staging production") == []
    assert _ids(store, "rollout", thread_id="t2") == []


def test_chips_are_found_by_label_not_by_address(store: ClientStore) -> None:
    chip = format_reference("file", "file-abc", "budget.xlsx")
    store.upsert_message(MessageRow("m1", "t1", "user", f"see {chip} please"))
    assert _ids(store, "budget") == ["m1"]
    assert _ids(store, "context") == []
    assert _ids(store, "abc") == []


def test_the_index_follows_updates_deletes_and_snapshots(store: ClientStore) -> None:
    store.upsert_message(MessageRow("m1", "t1", "assistant", "draft answer", is_streaming=True))
    store.upsert_message(MessageRow("m1", "t1", "assistant", "final answer about kiwis"))
    assert _ids(store, "draft") == []
    assert _ids(store, "kiwis") == ["m1"]
    store.replace_messages("t1", [MessageRow("m2", "t1", "user", "mangoes", sequence=1)])
    assert _ids(store, "kiwis") == []
    assert _ids(store, "mangoes") == ["m2"]
    store.delete_thread("t1")
    assert _ids(store, "mangoes") == []


def test_an_older_database_is_indexed_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "client.sqlite3"
    store = ClientStore(path)
    store.upsert_message(MessageRow("m1", "t1", "user", "pineapple pizza"))
    store.close()
    db = sqlite3.connect(path)  # as a version without the index left it
    db.executescript("DROP TABLE message_search; DROP TRIGGER message_search_insert;"
                     "DROP TRIGGER message_search_delete; DROP TRIGGER message_search_update;")
    db.close()
    again = ClientStore(path)
    assert _ids(again, "pineapple") == ["m1"]
    again.close()


def test_hits_carry_thread_role_and_a_one_line_excerpt(store: ClientStore) -> None:
    store.upsert_message(MessageRow("m1", "t9", "assistant", "first line\nthe answer is 42",
                                    created_at="2026-01-01T00:00:00Z"))
    (hit,) = store.search_messages("answer")
    assert (hit.thread_id, hit.role, hit.created_at) == ("t9", "assistant", "2026-01-01T00:00:00Z")
    assert "\n" not in hit.excerpt and "answer is 42" in hit.excerpt


@pytest.mark.parametrize("query", ['"', "a OR", "NEAR(", "body:x", "*", "-x", "^", "()", "   "])
def test_operators_typed_by_a_person_never_raise(store: ClientStore, query: str) -> None:
    store.upsert_message(MessageRow("m1", "t1", "user", "a body with x"))
    store.search_messages(query)


@given(st.text())
def test_match_expression_is_always_valid_fts5(query: str) -> None:
    with closing(sqlite3.connect(":memory:")) as db:
        db.execute("CREATE VIRTUAL TABLE s USING fts5(body)")
        expression = match_expression(query)
        if expression is not None:
            db.execute("SELECT * FROM s WHERE s MATCH ?", (expression,)).fetchall()


@given(st.text())
def test_plain_text_never_raises_and_keeps_text_without_references(text: str) -> None:
    result = plain_text(text)
    if "t3-context://" not in text:
        assert result == text
