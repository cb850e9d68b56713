"""Reading the changes answer, the pane's rows and selections."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.ui.changes.changes_logic import (
    ChangesError,
    DiffRow,
    RowKind,
    decode_changes,
    describe_line,
    diff_rows,
    selected_range,
)
from tests.support.sample_changes import sample


def test_decode_sample() -> None:
    changes = decode_changes(sample())
    assert changes.revision == "0123456789abcdef0123456789abcdef01234567"
    app, renamed, gone = changes.files
    assert (app.path, app.status, len(app.hunks)) == ("src/app.py", "modified", 2)
    assert app.hunks[0].lines[2].new_line == 11 and app.hunks[0].lines[2].old_line is None
    assert renamed.title == "docs/old.md → docs/new.md"
    assert gone.status == "deleted"


def test_malformed_entries_are_skipped_and_the_rest_kept() -> None:
    data = sample()
    data["files"].insert(0, {"path": "x", "status": "exploded", "hunks": []})
    data["files"].insert(0, "nonsense")
    data["files"][2]["hunks"].insert(0, {"header": 3})
    data["files"][2]["hunks"][1]["lines"][0]["oldLine"] = True  # bool is not a line number
    changes = decode_changes(data)
    assert [f.path for f in changes.files] == ["src/app.py", "docs/new.md", "gone.txt"]
    assert len(changes.files[0].hunks) == 1


@pytest.mark.parametrize("data", [None, [], {}, {"files": {}}, {"files": [], "revision": 7}])
def test_wrong_shape_raises_changes_error(data: Any) -> None:
    with pytest.raises(ChangesError):
        decode_changes(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["files", "path", "status", "hunks", "lines", "kind", "text", "header",
                         "oldStart", "newStart", "oldLines", "newLines", "revision"]),
        inner, max_size=6),
    max_leaves=30,
)


@given(json_values)
def test_decode_never_raises_anything_else(data: Any) -> None:
    try:
        changes = decode_changes(data)
    except ChangesError:
        return
    assert all(f.path for f in changes.files)


def test_rows_and_selection() -> None:
    changes = decode_changes(sample())
    rows = diff_rows(changes)
    assert rows[:3] == [DiffRow(RowKind.FILE, 0), DiffRow(RowKind.HUNK, 0, 0),
                        DiffRow(RowKind.LINE, 0, 0, 0)]
    assert len(rows) == 1 + 1 + 5 + 1 + 3 + 1 + 1 + 2 + 1 + 1 + 2
    picked = selected_range(rows, [5, 4, 3])
    assert picked is not None and picked.positions == ((0, 1), (0, 2), (0, 3))
    hunk = selected_range(rows, [7])  # the second hunk's header
    assert hunk is not None and hunk.positions == ((1, 0), (1, 1), (1, 2))
    across = selected_range(rows, [10, 11, 12])  # last line of file 0 and file 1's rows
    assert across is not None and across.file == 0 and across.positions == ((1, 2),)
    assert selected_range(rows, []) is None
    assert selected_range(rows, [999]) is None


def test_spoken_lines() -> None:
    app = decode_changes(sample()).files[0]
    assert describe_line(app.hunks[0].lines[2]) == "Line 11 added:     run(2)"
    assert describe_line(app.hunks[0].lines[1]) == "Line 11 removed:     run(1)"
    assert describe_line(app.hunks[0].lines[0]) == "Line 10:     start()"
