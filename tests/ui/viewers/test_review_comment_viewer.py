"""The review-comment viewer marks the commented lines of the hunk."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from composer_app.core.codecs.workspace_records import review_comment_for_lines
from composer_app.core.contracts.records import PullRequestMetadata
from composer_app.ui.changes.changes_logic import decode_changes
from composer_app.ui.context.pull_requests import PullRequestRef, pull_request_record
from composer_app.ui.viewers.review_comment_viewer import ReviewCommentViewer
from tests.support.sample_changes import sample


def test_commented_lines_are_marked(qtbot: QtBot) -> None:
    app = decode_changes(sample()).files[0]
    record = review_comment_for_lines(app, [(0, 2), (0, 3)], "Why?", source_revision="abc")
    viewer = ReviewCommentViewer(record)
    qtbot.addWidget(viewer)
    viewer.show()
    assert viewer.objectName() == "reviewCommentViewer"
    assert viewer.comment.text() == "Why?"
    rows = viewer.diff.toPlainText().split("\n")
    assert [rows[r] for r in viewer.marked_rows] == ["   11 +     run(2)", '   12 +     log("ok")']
    assert viewer.diff.isReadOnly()
    assert len(viewer.diff.extraSelections()) == 3  # the removed line and the two marked


def test_deleted_file_marks_old_lines(qtbot: QtBot) -> None:
    gone = decode_changes(sample()).files[2]
    record = review_comment_for_lines(gone, [(0, 1)], "x")
    viewer = ReviewCommentViewer(record)
    qtbot.addWidget(viewer)
    assert [viewer.lines[r].text for r in viewer.marked_rows] == ["b"]


def test_pull_request_opens_its_url(qtbot: QtBot) -> None:
    ref = PullRequestRef("octo", "app", 3)
    meta = PullRequestMetadata.model_validate({
        "number": 3, "title": "Tidy", "url": ref.url, "headBranch": "t", "baseBranch": "main",
        "state": "merged", "isDraft": False})
    opened: list[str] = []
    viewer = ReviewCommentViewer(pull_request_record(ref, meta),
                                 open_url=lambda u: opened.append(u) or True)
    qtbot.addWidget(viewer)
    assert viewer.heading.text().startswith("Merged pull request #3: Tidy")
    assert viewer.open_button is not None
    viewer.open_button.click()
    assert opened == ["https://github.com/octo/app/pull/3"]
    assert viewer.diff.isHidden()
