"""Trigger detection, filtering, tickets and the records completion makes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.contracts.records import (
    MentionRecord,
    SkillRecord,
    ThreadRecord,
    decode_record,
    encode_record,
)
from composer_app.ui.context.completion_logic import (
    CompletionItem,
    CompletionTickets,
    Trigger,
    TriggerKind,
    file_items,
    filter_items,
    find_trigger,
    from_units,
    mention_record,
    record_for,
    skill_items,
    skill_record,
    thread_items,
    thread_record,
    to_units,
)


@pytest.mark.parametrize(
    ("line", "caret", "expected"),
    [
        ("@", 1, Trigger(TriggerKind.FILE, 0, 1, "")),
        ("@ma", 3, Trigger(TriggerKind.FILE, 0, 3, "ma")),
        ("see @src/ma", 11, Trigger(TriggerKind.FILE, 4, 11, "src/ma")),
        ("see @src/main.py now", 7, Trigger(TriggerKind.FILE, 4, 16, "sr")),
        ("/rev", 4, Trigger(TriggerKind.SKILL, 0, 4, "rev")),
        ("ask #plan", 9, Trigger(TriggerKind.THREAD, 4, 9, "plan")),
        ("\ufffc@x", 3, Trigger(TriggerKind.FILE, 1, 3, "x")),
        ("a\t#b", 4, Trigger(TriggerKind.THREAD, 2, 4, "b")),
    ],
)
def test_trigger_at_start_or_after_whitespace(line: str, caret: int, expected: Trigger) -> None:
    assert find_trigger(line, caret) == expected


@pytest.mark.parametrize(
    ("line", "caret"),
    [
        ("mail@host", 9),  # not after whitespace
        ("and/or", 6),
        ("issue#4", 7),
        ("@abc def", 8),  # the caret left the token
        ("@abc", 0),  # before the trigger
        ("", 0),
        ("plain", 5),
        ("x", 7),
    ],
)
def test_no_trigger(line: str, caret: int) -> None:
    assert find_trigger(line, caret) is None


def test_utf16_offsets_round_trip_around_emoji() -> None:
    line = "😀 @ab"
    assert to_units(line, 2) == 3
    assert from_units(line, 3) == 2
    assert find_trigger(line, from_units(line, 6)) == Trigger(TriggerKind.FILE, 2, 5, "ab")


@given(st.text(max_size=30), st.integers(min_value=0, max_value=40))
def test_trigger_token_is_inside_the_line(line: str, caret: int) -> None:
    trigger = find_trigger(line, caret)
    if trigger is not None:
        assert 0 <= trigger.start < caret <= trigger.end <= len(line)
        assert line[trigger.start] in "@/#"
        assert line[trigger.start + 1 : caret] == trigger.query
        assert from_units(line, to_units(line, caret)) == caret


def test_tickets_only_the_newest_is_current() -> None:
    tickets = CompletionTickets()
    first = tickets.issue()
    second = tickets.issue()
    assert not tickets.is_current(first)
    assert tickets.is_current(second)
    tickets.cancel()
    assert not tickets.is_current(second)


def test_filter_ranks_prefix_then_word_then_substring_then_scattered() -> None:
    items = [CompletionItem(TriggerKind.SKILL, n, n) for n in
             ["xreview", "pr-review", "review-code", "rxexvxiew", "deploy"]]
    ranked = [item.title for item in filter_items(items, "Review")]
    assert ranked == ["review-code", "pr-review", "xreview", "rxexvxiew"]
    assert [i.title for i in filter_items(items, "")] == [i.title for i in items]


def test_filter_keeps_recency_order_among_equal_matches() -> None:
    rows = thread_items([("t3", "Plan B"), ("t1", "plan A"), ("t2", "Other")])
    assert [r.key for r in filter_items(rows, "plan")] == ["t3", "t1"]


def test_rows_from_catalog_answers() -> None:
    files = file_items(["src/ui/main.py", "docs/", "README.md", "", 7])  # type: ignore[list-item]
    assert [(f.title, f.detail) for f in files] == [
        ("main.py", "src/ui"), ("docs/", ""), ("README.md", "")]
    skills = skill_items([("review", "Review a diff"), ("review", "dup"), (" ", "blank")])
    assert [(s.title, s.detail) for s in skills] == [("review", "Review a diff")]
    assert thread_items([("t1", "  ")])[0].title == "Untitled thread"


def test_mention_record_is_contract_valid_with_file_name_label() -> None:
    record = mention_record("src/ui/main.py")
    assert isinstance(record, MentionRecord)
    assert (record.path, record.label) == ("src/ui/main.py", "main.py")
    assert record.context_id.startswith("mention_src-ui-main-py-")
    assert decode_record(encode_record(record)) == record
    folder = mention_record("docs/")
    assert folder is not None and (folder.path, folder.label) == ("docs", "docs")
    assert mention_record("a/" + "x" * 3000) is None


def test_skill_and_thread_records() -> None:
    skill = skill_record("review")
    assert isinstance(skill, SkillRecord)
    assert (skill.name, skill.label, skill.context_id) == ("review", "review", "skill_review")
    thread = thread_record("env_1", "thr_9", "  Launch plan " + "x" * 300)
    assert isinstance(thread, ThreadRecord)
    assert (thread.environment_id, thread.thread_id) == ("env_1", "thr_9")
    assert thread.title.startswith("Launch plan") and len(thread.title) == 200
    assert thread.context_id == "thread_thr_9"
    assert decode_record(encode_record(thread)) == thread
    assert thread_record("", "thr", "t") is None  # environmentId must not be blank


def test_record_for_each_kind() -> None:
    env = "env_1"
    assert isinstance(record_for(CompletionItem(TriggerKind.FILE, "a.py", "a.py"), env),
                      MentionRecord)
    assert isinstance(record_for(CompletionItem(TriggerKind.SKILL, "s", "s"), env), SkillRecord)
    made = record_for(CompletionItem(TriggerKind.THREAD, "t1", "Title"), env)
    assert isinstance(made, ThreadRecord) and made.title == "Title"
