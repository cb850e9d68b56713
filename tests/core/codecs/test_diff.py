"""``parse_git_diff``: statuses, numbered lines, quoting, and never raising on any input."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.diff import (
    file_change_from_wire,
    parse_git_diff,
    untracked_change,
)

DIFF = """diff --git a/src/app.py b/src/app.py
index 1..2 100644
--- a/src/app.py
+++ b/src/app.py
@@ -10,3 +10,4 @@ def main():
 keep
-old
+new
+more
 tail
\\ No newline at end of file
diff --git "a/sp ace\\303\\251.txt" "b/sp ace\\303\\251.txt"
new file mode 100644
--- /dev/null
+++ "b/sp ace\\303\\251.txt"
@@ -0,0 +1 @@
+hi
diff --git a/logo.png b/logo.png
deleted file mode 100644
Binary files a/logo.png and /dev/null differ
"""


def test_parse_numbers_lines_and_reads_statuses() -> None:
    app, spaced, logo = parse_git_diff(DIFF)
    assert (app.path, app.status) == ("src/app.py", "modified")
    hunk = app.hunks[0]
    assert (hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines) == (10, 3, 10, 4)
    assert [(line.kind, line.text, line.old_line, line.new_line) for line in hunk.lines] == [
        (" ", "keep", 10, 10), ("-", "old", 11, None), ("+", "new", None, 11),
        ("+", "more", None, 12), (" ", "tail", 12, 13)]
    assert (spaced.path, spaced.status) == ("sp aceé.txt", "added")
    assert (logo.path, logo.status, logo.hunks) == ("logo.png", "deleted", ())


def test_wire_round_trip() -> None:
    for change in parse_git_diff(DIFF):
        assert file_change_from_wire(change.to_wire()) == change
    assert file_change_from_wire({"nope": 1}) is None


def test_untracked_change_is_all_plus_lines() -> None:
    change = untracked_change("n.txt", "a\nb\n")
    assert change.status == "untracked"
    assert [(line.kind, line.new_line) for line in change.hunks[0].lines] == [("+", 1), ("+", 2)]
    assert untracked_change("e.txt", "").hunks == ()


@given(st.text())
def test_parse_never_raises_and_numbers_stay_consistent(text: str) -> None:
    for change in parse_git_diff("diff --git a/x b/x\n" + text):
        for hunk in change.hunks:
            olds = [line.old_line for line in hunk.lines if line.old_line is not None]
            news = [line.new_line for line in hunk.lines if line.new_line is not None]
            assert olds == list(range(hunk.old_start, hunk.old_start + len(olds)))
            assert news == list(range(hunk.new_start, hunk.new_start + len(news)))


def test_a_c_quoted_path_with_octal_escapes_is_decoded() -> None:
    text = ('diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"\n'
            "new file mode 100644\n"
            "index 0000000..587be6b\n"
            "--- /dev/null\n"
            '+++ "b/caf\\303\\251.txt"\n'
            "@@ -0,0 +1 @@\n"
            "+x\n")
    [change] = parse_git_diff(text)
    assert change.path == "café.txt"
    quoted = text.replace("caf\\303\\251", "tab\\there")
    [change] = parse_git_diff(quoted)
    assert change.path == "tab\there.txt"


def test_hunks_that_are_not_objects_are_skipped_on_the_wire() -> None:
    change = file_change_from_wire({"path": "a.py", "status": "modified", "hunks": ["junk", 3]})
    assert change is not None and change.hunks == ()


def test_rename_preamble_and_no_trailing_newline_are_parsed_the_same_every_run() -> None:
    text = (
        "warning: a line before any file header is ignored\n"
        'diff --git "a/old name.txt" "b/new name.txt"\n'
        "similarity index 90%\n"
        'rename from "old name.txt"\n'
        'rename to "new name.txt"\n'
        "--- a/old name.txt\n"
        "+++ b/new name.txt\n"
        "@@ -1 +1 @@\n"
        "-a\n"
        "+b\n"
    )
    [change] = parse_git_diff(text)
    assert (change.path, change.status) == ("new name.txt", "renamed")
    assert change.old_path == "old name.txt"
    assert change.to_wire()["oldPath"] == "old name.txt"
    assert file_change_from_wire(change.to_wire()) == change
    untracked = untracked_change("n.txt", "one\ntwo")
    assert [line.text for line in untracked.hunks[0].lines] == ["one", "two"]


def test_header_only_files_take_their_path_from_the_header() -> None:
    text = "diff --git a/one b/other\nold mode 100644\nnew mode 100755\ndiff --git odd header\n"
    assert [c.path for c in parse_git_diff(text)] == ["other", "odd header"]
