"""The account book: the embedded server first, remote servers unique by URL, a safe file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from composer_app.sync.accounts import (
    ACCOUNTS_FILE,
    EMBEDDED_ID,
    MAX_ACCOUNTS,
    NAME_MAX_CHARS,
    AccountBook,
    AccountError,
    account_id_for,
)


def test_a_new_book_holds_only_the_embedded_server(tmp_path: Path) -> None:
    book = AccountBook.load(tmp_path)
    assert [a.account_id for a in book] == [EMBEDDED_ID]
    assert book.selected == EMBEDDED_ID
    assert book.get(EMBEDDED_ID) is not None and book.get(EMBEDDED_ID).embedded  # type: ignore[union-attr]


def test_added_servers_survive_a_reload_in_order(tmp_path: Path) -> None:
    book = AccountBook.load(tmp_path)
    work = book.add("https://chat.example.com/", "Work")
    home = book.add("http://10.0.0.2:8765")
    again = AccountBook.load(tmp_path)
    assert [(a.name, a.url) for a in again] == [
        ("This computer", ""), ("Work", "https://chat.example.com"), ("10.0.0.2", "http://10.0.0.2:8765")]
    assert again.selected == home.account_id
    assert again.index(work.account_id) == 1


def test_adding_a_known_url_selects_it_instead_of_duplicating(tmp_path: Path) -> None:
    book = AccountBook.load(tmp_path)
    first = book.add("https://a.example", "A")
    book.select(EMBEDDED_ID)
    second = book.add(" https://a.example/ ", "Another name")
    assert second == first and len(book) == 2 and book.selected == first.account_id


@pytest.mark.parametrize("url", ["", "ftp://x", "example.com", "http://", "https://u:p@host"])
def test_bad_urls_are_refused_with_a_sentence(tmp_path: Path, url: str) -> None:
    with pytest.raises(AccountError, match="http"):
        AccountBook.load(tmp_path).add(url)


def test_the_embedded_server_cannot_be_removed(tmp_path: Path) -> None:
    with pytest.raises(AccountError):
        AccountBook.load(tmp_path).remove(EMBEDDED_ID)


def test_remove_and_rename(tmp_path: Path) -> None:
    book = AccountBook.load(tmp_path)
    a = book.add("https://a.example", "A")
    renamed = book.rename(a.account_id, "  Team\nserver  ")
    assert renamed.name == "Team server" and renamed.account_id == a.account_id
    assert AccountBook.load(tmp_path).get(a.account_id).name == "Team server"  # type: ignore[union-attr]
    book.remove(a.account_id)
    assert book.selected == EMBEDDED_ID
    assert [x.account_id for x in AccountBook.load(tmp_path)] == [EMBEDDED_ID]
    assert book.rename(EMBEDDED_ID, "").name == "This computer"
    assert len(book.rename(EMBEDDED_ID, "x" * 500).name) == NAME_MAX_CHARS


def test_a_server_for_this_run_only_is_not_saved(tmp_path: Path) -> None:
    book = AccountBook.load(tmp_path)
    book.add("https://saved.example")
    temporary = book.for_this_run("https://once.example")
    assert book.get(temporary.account_id) is not None
    book.save()
    again = AccountBook.load(tmp_path)
    assert again.get(temporary.account_id) is None
    assert again.selected == account_id_for("https://saved.example")
    # A known URL given with --server is simply that account.
    assert book.for_this_run("https://saved.example/").url == "https://saved.example"


def test_account_ids_are_stable_per_url() -> None:
    assert account_id_for("https://a.example/") == account_id_for("https://a.example")
    assert account_id_for("https://a.example") != account_id_for("https://b.example")
    assert account_id_for("") == EMBEDDED_ID


def test_the_number_of_accounts_is_bounded(tmp_path: Path) -> None:
    book = AccountBook(None)
    for n in range(MAX_ACCOUNTS - 1):
        book.add(f"https://s{n}.example", save=False)
    with pytest.raises(AccountError, match="at most"):
        book.add("https://one-too-many.example", save=False)


@pytest.mark.parametrize("text", ["", "not json", "[]", "null", '{"accounts": 5}',
                                  '{"accounts": [1, {"url": 2}, {"url": "javascript:x"}]}',
                                  "[" * 100_000])
def test_a_damaged_file_never_stops_the_app(tmp_path: Path, text: str) -> None:
    (tmp_path / ACCOUNTS_FILE).write_text(text, encoding="utf-8")
    book = AccountBook.load(tmp_path)
    assert [a.account_id for a in book] == [EMBEDDED_ID]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["accounts", "selected", "url", "name", "id", "x"]), inner, max_size=4),
    max_leaves=20)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
          max_examples=200, deadline=None)  # file I/O per example
@given(json_values)
def test_load_of_any_json_keeps_the_invariants(tmp_path: Path, value: object) -> None:
    (tmp_path / ACCOUNTS_FILE).write_text(json.dumps(value), encoding="utf-8")
    book = AccountBook.load(tmp_path)
    accounts = list(book)
    assert accounts[0].account_id == EMBEDDED_ID
    assert len({a.account_id for a in accounts}) == len(accounts)
    assert all(a.name and len(a.name) <= NAME_MAX_CHARS and "\n" not in a.name for a in accounts)
    assert book.get(book.selected) is not None
