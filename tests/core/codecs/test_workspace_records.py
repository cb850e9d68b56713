"""Review-comment records from changes and terminal records from command runs: always valid."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.diff import file_change_from_wire, parse_git_diff
from composer_app.core.codecs.workspace_records import (
    fence_language,
    range_label,
    review_comment_record,
    terminal_record,
)
from composer_app.core.contracts.records import decode_record, encode_record
from composer_app.core.limits import REVIEW_DIFF_MAX_CHARS, TERMINAL_TEXT_MAX_CHARS
from composer_app.core.text import trim, utf16_len

DIFF = """diff --git a/src/app.py b/src/app.py
--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,3 @@
 a
-b
+B
 c
@@ -20,2 +20,3 @@
 x
+y
 z
"""


def test_a_comment_on_lines_of_a_change() -> None:
    change = parse_git_diff(DIFF)[0]
    record = review_comment_record(change, 2, 3, "Why?", source_revision="abc123")
    assert (record.file_path, record.section_id, record.section_title) == (
        "src/app.py", "change:src/app.py", "src/app.py")
    assert (record.start_index, record.end_index, record.range_label) == (2, 3, "L2-L3")
    assert record.diff == "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c"
    assert record.fence_language == "python" and record.source_revision == "abc123"
    assert record.text == "Why?"
    assert decode_record(encode_record(record)) == record
    both = review_comment_record(change, 1, 21, "All")
    assert both.diff.count("@@ -") == 2
    assert review_comment_record(change, 21, 21, "").range_label == "L21"


def test_labels_and_languages() -> None:
    assert range_label(12, 14) == "L12-L14" and range_label(3, 3) == "L3"
    assert fence_language("a/b.TS") == "typescript" and fence_language("Makefile") is None


def test_a_terminal_record_from_an_exit_line() -> None:
    exit_line = {"type": "exit", "exitCode": 0, "timedOut": False, "lineCount": 2,
                 "text": "hello\nworld\n", "truncated": False}
    record = terminal_record("run_1", "echo hello; echo world", exit_line)
    assert (record.terminal_id, record.terminal_label) == ("run_1", "echo hello; echo world")
    assert (record.line_start, record.line_end, record.text) == (1, 2, "hello\nworld\n")
    assert record.context_id == "terminal_run_1"


@given(path=st.text(min_size=1, max_size=3000), comment=st.text(max_size=20000),
       body=st.lists(st.text(alphabet=st.characters(blacklist_characters="\n\r"), max_size=400),
                     max_size=150),
       start=st.integers(0, 200), span=st.integers(0, 50), revision=st.text(max_size=100))
def test_review_comment_records_are_always_contract_valid(
        path: str, comment: str, body: list[str], start: int, span: int, revision: str) -> None:
    lines = "".join(f"+{line}\n" for line in body)
    diff = f"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -0,0 +1,{len(body)} @@\n{lines}"
    change = parse_git_diff(diff)[0]
    change = type(change)(path, change.status, change.hunks)
    if not trim(path):  # a file path of blanks only cannot make a record
        with pytest.raises(ValueError):
            review_comment_record(change, start, start + span, comment)
        return
    record = review_comment_record(change, start, start + span, comment,
                                   source_revision=revision or None)
    assert decode_record(encode_record(record)) == record
    assert utf16_len(record.diff) <= REVIEW_DIFF_MAX_CHARS


@given(run_id=st.text(max_size=300), command=st.text(max_size=600), text=st.text(max_size=70000),
       count=st.one_of(st.integers(-5, 10**6), st.none(), st.booleans()))
def test_terminal_records_are_always_contract_valid(run_id: str, command: str, text: str,
                                                   count: object) -> None:
    record = terminal_record(run_id, command, {"text": text, "lineCount": count})
    assert decode_record(encode_record(record)) == record
    assert record.line_end >= record.line_start == 1
    assert utf16_len(record.text) <= TERMINAL_TEXT_MAX_CHARS


def test_a_blank_file_path_is_refused() -> None:
    change = parse_git_diff("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n")[0]
    with pytest.raises(ValueError, match="file path"):
        review_comment_record(type(change)(" \r", change.status, change.hunks), 1, 1, "why")


def test_a_blank_path_from_the_wire_is_refused() -> None:
    change = file_change_from_wire({"path": "  ", "status": "modified", "hunks": []})
    assert change is not None
    with pytest.raises(ValueError, match="file path"):
        review_comment_record(change, 1, 1, "why?")


def test_a_reversed_line_range_is_refused() -> None:
    change = file_change_from_wire({"path": "a.py", "status": "modified", "hunks": []})
    assert change is not None
    with pytest.raises(ValueError, match="line range"):
        review_comment_record(change, 5, 2, "why?")
