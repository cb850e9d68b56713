"""The thread list grouped by server: rows, collapsing, search, Ctrl+digit and unread counts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.sync.store import ThreadRow
from composer_app.ui.threads.server_groups_logic import (
    GroupHeader,
    SeenMarks,
    ServerGroup,
    UnreadCounter,
    header_text,
    jump_shortcut,
    jump_target,
    list_entries,
    state_color,
    thread_to_show,
)


def _row(thread_id: str, title: str, updated: str) -> ThreadRow:
    return ThreadRow(thread_id, title, updated_at=updated)


HOME = ServerGroup("embedded", "This computer", "connected", (
    _row("a1", "Notes", "2026-01-01T10:00:00Z"), _row("a2", "Plans", "2026-01-02T10:00:00Z")))
TEAM = ServerGroup("srv-1", "Team", "offline", (_row("b1", "Release notes",
                                                      "2026-01-03T10:00:00Z"),), unread=1)


def _shape(entries: list[GroupHeader | ThreadRow]) -> list[str]:
    return [f"#{e.name}" if isinstance(e, GroupHeader) else e.thread_id for e in entries]


def test_groups_keep_the_servers_order_and_sort_their_threads() -> None:
    assert _shape(list_entries([HOME, TEAM])) == ["#This computer", "a2", "a1", "#Team", "b1"]


def test_a_collapsed_group_shows_only_its_header_until_a_search_is_typed() -> None:
    entries = list_entries([HOME, TEAM], collapsed={"embedded"})
    assert _shape(entries) == ["#This computer", "#Team", "b1"]
    header = entries[0]
    assert isinstance(header, GroupHeader) and header.collapsed
    assert _shape(list_entries([HOME, TEAM], "notes", collapsed={"embedded"})) == [
        "#This computer", "a1", "#Team", "b1"]


def test_a_search_leaves_out_servers_without_a_match() -> None:
    assert _shape(list_entries([HOME, TEAM], "plans")) == ["#This computer", "a2"]


def test_without_inline_headers_only_threads_are_listed() -> None:
    assert _shape(list_entries([HOME], inline_headers=False)) == ["a2", "a1"]


def test_archived_threads_stay_hidden_in_their_group() -> None:
    assert _shape(list_entries([HOME, TEAM], archived={"a2"})) == [
        "#This computer", "a1", "#Team", "b1"]


def test_ctrl_digits_map_to_the_first_nine_servers() -> None:
    ids = [f"s{i}" for i in range(12)]
    assert jump_target(ids, 1) == "s0"
    assert jump_target(ids, 9) == "s8"
    assert jump_target(ids, 10) is None
    assert jump_target(ids[:2], 3) is None
    assert jump_target(ids, 0) is None
    assert jump_shortcut(0) == "Ctrl+1"
    assert jump_shortcut(9) == ""


@given(st.integers(min_value=1, max_value=40), st.integers(min_value=-5, max_value=50))
def test_a_jump_target_is_always_one_of_the_servers(count: int, number: int) -> None:
    ids = [f"s{i}" for i in range(count)]
    target = jump_target(ids, number)
    assert target is None or ids.index(target) == number - 1 < 9


def test_a_jump_opens_the_last_thread_opened_there_else_the_newest() -> None:
    assert thread_to_show(HOME.threads, "a1") == "a1"
    assert thread_to_show(HOME.threads, "gone") == "a2"
    assert thread_to_show(HOME.threads, "", archived={"a2"}) == "a1"
    assert thread_to_show((), "") == ""


def test_unread_counts_messages_that_arrived_in_other_threads() -> None:
    unread = UnreadCounter()
    unread.message_arrived("a1", open_thread="a2")
    unread.message_arrived("a2", open_thread="a2")  # the open thread is being read
    assert unread.is_unread("a1") and not unread.is_unread("a2")
    assert unread.by_group({"embedded": HOME.threads, "srv-1": TEAM.threads}) == {
        "embedded": 1, "srv-1": 0}
    unread.opened("a1")
    assert unread.count(["a1", "a2"]) == 0


def test_headers_say_their_state_unread_count_and_shortcut() -> None:
    header = list_entries([HOME, TEAM], collapsed={"srv-1"})[3]
    assert isinstance(header, GroupHeader)
    assert header_text(header) == "Team, offline, 1 unread, collapsed, Ctrl+2"
    assert state_color("connected") != state_color("offline") != state_color("signed-out")
    assert state_color("whatever") == state_color("signed-out")


def test_unread_counter_starts_from_what_was_kept_and_says_what_changed() -> None:
    unread = UnreadCounter(["t1", ""])
    assert unread.ids() == frozenset({"t1"})
    assert not unread.message_arrived("t1", "t2")  # already unread
    assert unread.message_arrived("t3", "t2")
    assert not unread.message_arrived("t2", "t2")  # the open thread
    assert unread.opened("t1") and not unread.opened("t1")
    assert unread.ids() == frozenset({"t3"})


def _rows(*pairs: tuple[str, int]) -> list[ThreadRow]:
    return [ThreadRow(thread_id, last_sequence=sequence) for thread_id, sequence in pairs]


def test_a_first_run_marks_nothing_unread_and_remembers_what_it_listed() -> None:
    unread = UnreadCounter()
    assert not unread.listed("local", _rows(("a", 5), ("b", 9)), open_thread="a")
    assert unread.ids() == frozenset()
    assert unread.marks == SeenMarks({"a": 5, "b": 9}, {"local": 9})


def test_what_happened_while_the_app_was_closed_is_unread_at_the_next_start() -> None:
    stored = SeenMarks({"a": 5, "b": 9, "c": 4}, {"local": 9}).to_json()
    unread = UnreadCounter((), SeenMarks.from_json(stored))  # the next run
    rows = _rows(("a", 12), ("b", 9), ("c", 11), ("new", 10), ("old-elsewhere", 3))
    assert unread.listed("local", rows, open_thread="c")
    # a: a reply came; new: a thread created on another device; c is open; b unchanged
    assert unread.ids() == frozenset({"a", "new"})
    assert unread.marks.threads["c"] == 11 and unread.marks.servers["local"] == 12
    assert not unread.listed("local", rows, open_thread="c")  # the same list again: no news


def test_a_server_seen_for_the_first_time_floods_nothing() -> None:
    unread = UnreadCounter((), SeenMarks({"a": 1}, {"local": 1}))
    assert not unread.listed("remote", _rows(("r1", 40), ("r2", 41)), open_thread="")
    assert unread.ids() == frozenset()
    assert unread.listed("remote", _rows(("r1", 42), ("r2", 41)), open_thread="")
    assert unread.ids() == frozenset({"r1"})


def test_the_users_own_change_is_absorbed_once() -> None:
    unread = UnreadCounter((), SeenMarks({"a": 5}, {"local": 5}))
    unread.expect_own_change("a")  # renamed from the list while another thread is open
    assert not unread.listed("local", _rows(("a", 6)), open_thread="b")
    assert unread.listed("local", _rows(("a", 7)), open_thread="b")  # then a real message
    assert unread.ids() == frozenset({"a"})


def test_opening_a_thread_reads_everything_listed_of_it() -> None:
    unread = UnreadCounter((), SeenMarks({"a": 5}, {"local": 5}))
    unread.listed("local", _rows(("a", 8)), open_thread="")
    assert unread.opened("a")
    assert unread.marks.threads["a"] == 8 and not unread.is_unread("a")
    assert not unread.listed("local", _rows(("a", 8)), open_thread="b")


@pytest.mark.parametrize("stored", [None, 3, "", "not json", "[]", '{"threads": []}',
                                    '{"threads": {"a": "5", "b": -1, "c": true}, "servers": 7}'])
def test_unreadable_seen_marks_start_empty(stored: object) -> None:
    assert SeenMarks.from_json(stored) == SeenMarks()


@given(st.dictionaries(st.text(max_size=8), st.integers(0, 2**53)),
       st.dictionaries(st.text(max_size=8), st.integers(0, 2**53)))
def test_seen_marks_round_trip(threads: dict[str, int], servers: dict[str, int]) -> None:
    marks = SeenMarks(threads, servers)
    assert SeenMarks.from_json(marks.to_json()) == marks
