"""Review-comment records from changes and terminal records from command runs: always valid."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.diff import (
    FileChange,
    Hunk,
    HunkLine,
    file_change_from_wire,
    parse_git_diff,
)
from composer_app.core.codecs.labels import TRUNCATION_MARKER
from composer_app.core.codecs.workspace_records import (
    change_excerpt,
    fence_language,
    range_label,
    review_comment_for_lines,
    review_comment_record,
    terminal_record,
)
from composer_app.core.contracts.records import decode_record, encode_record
from composer_app.core.limits import REVIEW_DIFF_MAX_CHARS, TERMINAL_TEXT_MAX_CHARS
from composer_app.core.text import trim, utf16_len
from tests.support.sample_changes import line, sample

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
    assert range_label(1, 2, before=True) == "L1-L2 (before)"
    assert fence_language("a/b.TS") == "typescript"
    assert fence_language("Dockerfile") == "dockerfile"
    assert fence_language("LICENSE") is None
    assert fence_language("x.unknown") is None
    assert fence_language("trailing.") is None


def _sample_change(index: int, data: dict[str, Any] | None = None) -> FileChange:
    change = file_change_from_wire((data or sample())["files"][index])
    assert change is not None
    return change


def test_a_comment_on_selected_lines_of_the_changes_pane() -> None:
    app = _sample_change(0)
    record = review_comment_for_lines(app, [(0, 1), (0, 2), (0, 3)], "Why 2?",
                                      source_revision="abc123", context_id="review-comment_c0")
    wire = encode_record(record)
    assert decode_record(wire) == record
    assert (wire["filePath"], wire["sectionId"], wire["sectionTitle"]) == (
        "src/app.py", "change:src/app.py", "src/app.py")
    assert (wire["startIndex"], wire["endIndex"], wire["rangeLabel"]) == (11, 12, "L11-L12")
    assert wire["label"] == "app.py L11-L12"
    assert wire["text"] == "Why 2?"
    assert wire["diff"] == (
        '@@ -10,4 +10,5 @@ def main():\n     start()\n-    run(1)\n+    run(2)\n+    log("ok")\n'
        "     stop()"
    )
    assert (wire["fenceLanguage"], wire["sourceRevision"]) == ("python", "abc123")
    assert wire["contextId"] == "review-comment_c0"


def test_selected_lines_single_and_across_hunks() -> None:
    app = _sample_change(0)
    one = review_comment_for_lines(app, [(1, 1)], "t")
    assert (one.start_index, one.end_index, one.range_label) == (41, 41, "L41")
    assert one.source_revision is None
    both = review_comment_for_lines(app, [(0, 4), (1, 0), (1, 1)], "t")
    assert both.diff.count("@@ -") == 2
    assert both.diff.endswith("@@ -40,2 +41,2 @@\n-x = 1\n+x = 2\n y = 3")
    assert (both.start_index, both.end_index) == (13, 41)


def test_removed_lines_anchor_at_the_new_position() -> None:
    app = _sample_change(0)
    record = review_comment_for_lines(app, [(0, 1)], "gone?")
    assert (record.start_index, record.end_index, record.range_label) == (11, 11, "L11")
    tail = FileChange("a.py", "modified", (Hunk("@@ -3,1 +2,0 @@", 3, 1, 2, 0,
                                                (HunkLine("-", "gone", 3, None),)),))
    at_end = review_comment_for_lines(tail, [(0, 0)], "why")
    assert (at_end.start_index, at_end.end_index) == (2, 2)


def test_a_deleted_file_uses_old_lines() -> None:
    gone = _sample_change(2)
    record = review_comment_for_lines(gone, [(0, 0), (0, 1)], "why")
    assert (record.start_index, record.end_index) == (1, 2)
    assert record.range_label == "L1-L2 (before)"
    assert record.label.endswith("L1-L2 (before)")
    assert record.fence_language is None


def test_a_renamed_title_and_long_inputs_are_clamped() -> None:
    data = sample()
    data["files"][1]["hunks"][0]["lines"] = [line("+", "y" * 500, None, n) for n in range(1, 200)]
    renamed = _sample_change(1, data)
    positions = [(0, n) for n in range(199)]
    record = review_comment_for_lines(renamed, positions, "z" * 20_000)
    assert record.section_title == "docs/old.md → docs/new.md"
    assert utf16_len(record.diff) <= 32_000 and record.diff.endswith(TRUNCATION_MARKER)
    assert utf16_len(record.text) <= 16_000 and record.text.endswith(TRUNCATION_MARKER)
    assert record.fence_language == "markdown"
    assert change_excerpt(renamed, positions[:1]).startswith("@@ -1 +1 @@\n+" + "y" * 500 + "\n+y")


def test_an_empty_selection_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one line"):
        review_comment_for_lines(_sample_change(0), [], "why")


@given(st.data())
def test_any_selection_makes_a_valid_record(data: st.DataObject) -> None:
    files = sample()["files"]
    change = _sample_change(data.draw(st.integers(0, len(files) - 1)))
    every = [(h, n) for h, hunk in enumerate(change.hunks) for n in range(len(hunk.lines))]
    picked = sorted(set(data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=6))))
    record = review_comment_for_lines(change, picked, data.draw(st.text(max_size=50)))
    assert decode_record(encode_record(record)) == record
    assert record.start_index <= record.end_index
    assert record.range_label.startswith(f"L{record.start_index}")
    assert all(change.hunks[h].header in record.diff for h, _ in picked)


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
