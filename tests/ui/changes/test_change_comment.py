"""The review-comment record built from lines of a change."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.labels import TRUNCATION_MARKER
from composer_app.core.contracts.records import decode_record, encode_record
from composer_app.core.text import utf16_len
from composer_app.ui.changes.change_comment import (
    change_excerpt,
    fence_language,
    review_comment_for_change,
)
from composer_app.ui.changes.changes_logic import decode_changes
from tests.ui.changes.sample_changes import line, sample


def ids() -> str:
    return "c0ffee"


def test_record_fields_for_a_range_of_new_lines() -> None:
    app = decode_changes(sample()).files[0]
    record = review_comment_for_change(app, [(0, 1), (0, 2), (0, 3)], "Why 2?", "abc123", ids)
    wire = encode_record(record)
    assert decode_record(wire) == record
    assert wire["filePath"] == "src/app.py"
    assert wire["sectionId"] == "change:src/app.py"
    assert wire["sectionTitle"] == "src/app.py"
    assert (wire["startIndex"], wire["endIndex"], wire["rangeLabel"]) == (11, 12, "L11-L12")
    assert wire["label"] == "app.py L11-L12"
    assert wire["text"] == "Why 2?"
    assert wire["diff"] == (
        '@@ -10,4 +10,5 @@ def main():\n     start()\n-    run(1)\n+    run(2)\n+    log("ok")\n'
        "     stop()"
    )
    assert wire["fenceLanguage"] == "python"
    assert wire["sourceRevision"] == "abc123"
    assert wire["contextId"].startswith("review-comment_change-c0ffee")


def test_single_line_and_across_hunks() -> None:
    app = decode_changes(sample()).files[0]
    one = review_comment_for_change(app, [(1, 1)], "t", None, ids)
    assert (one.start_index, one.end_index, one.range_label) == (41, 41, "L41")
    assert one.source_revision is None
    both = review_comment_for_change(app, [(0, 4), (1, 0), (1, 1)], "t", None, ids)
    assert both.diff.count("@@ -") == 2
    assert both.diff.endswith("@@ -40,2 +41,2 @@\n-x = 1\n+x = 2\n y = 3")
    assert (both.start_index, both.end_index) == (13, 41)


def test_removed_lines_anchor_at_the_new_position() -> None:
    app = decode_changes(sample()).files[0]
    record = review_comment_for_change(app, [(0, 1)], "gone?", None, ids)
    assert (record.start_index, record.end_index, record.range_label) == (11, 11, "L11")


def test_deleted_file_uses_old_lines() -> None:
    gone = decode_changes(sample()).files[2]
    record = review_comment_for_change(gone, [(0, 0), (0, 1)], "why", None, ids)
    assert (record.start_index, record.end_index) == (1, 2)
    assert record.range_label == "L1-L2 (before)"
    assert record.fence_language is None


def test_renamed_title_and_long_inputs_are_clamped() -> None:
    data = sample()
    data["files"][1]["hunks"][0]["lines"] = [line("+", "y" * 500, None, n) for n in range(1, 200)]
    renamed = decode_changes(data).files[1]
    positions = [(0, n) for n in range(199)]
    record = review_comment_for_change(renamed, positions, "z" * 20_000, None, ids)
    assert record.section_title == "docs/old.md → docs/new.md"
    assert utf16_len(record.diff) <= 32_000 and record.diff.endswith(TRUNCATION_MARKER)
    assert utf16_len(record.text) <= 16_000 and record.text.endswith(TRUNCATION_MARKER)
    assert record.fence_language == "markdown"
    assert change_excerpt(renamed, positions[:1]).startswith("@@ -1 +1 @@\n+" + "y" * 500 + "\n+y")


def test_fence_languages() -> None:
    assert fence_language("a/b.TS") == "typescript"
    assert fence_language("Dockerfile") == "dockerfile"
    assert fence_language("LICENSE") is None
    assert fence_language("x.unknown") is None


@given(st.data())
def test_any_selection_makes_a_valid_record(data: st.DataObject) -> None:
    changes = decode_changes(sample())
    f = data.draw(st.integers(0, len(changes.files) - 1))
    change = changes.files[f]
    every = [(h, n) for h, hunk in enumerate(change.hunks) for n in range(len(hunk.lines))]
    picked = sorted(set(data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=6))))
    text = data.draw(st.text(max_size=50))
    record = review_comment_for_change(change, picked, text, None, ids)
    assert decode_record(encode_record(record)) == record
    assert record.start_index <= record.end_index
    assert record.range_label.startswith(f"L{record.start_index}")
    assert all(change.hunks[h].header in record.diff for h, _ in picked)
