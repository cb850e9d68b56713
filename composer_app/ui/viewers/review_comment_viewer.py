"""``ReviewCommentViewer``: a review comment with its hunk, the commented lines marked.

For a pull-request record (``pullRequest`` set) it shows the snapshot (kind, title, branches)
and *Open pull request* instead of a diff.

Invariants: the diff is numbered from its hunk headers (``viewer_logic.parse_review_diff``);
exactly the lines inside ``startIndex..endIndex`` are marked (old lines when the range label says
"(before)"); text that is not a hunk is shown unmarked; the viewer is read-only.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QDesktopServices, QFontDatabase, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from composer_app.core.codecs.labels import pull_request_kind_label, review_comment_label
from composer_app.core.contracts.records import ReviewCommentRecord
from composer_app.ui.viewers.viewer_logic import ReviewDiffLine, is_commented, parse_review_diff

VIEWER_OBJECT_NAME = "reviewCommentViewer"
ADDED = QColor(46, 160, 67, 48)
REMOVED = QColor(248, 81, 73, 48)
COMMENTED = QColor(210, 153, 34, 110)


def _open_url(url: str) -> bool:
    return QDesktopServices.openUrl(QUrl(url))


def _row_text(line: ReviewDiffLine, width: int) -> str:
    if line.kind in ("@", "?"):
        return line.text
    old = "" if line.old_line is None else str(line.old_line)
    new = "" if line.new_line is None else str(line.new_line)
    return f"{old:>{width}} {new:>{width}} {line.kind} {line.text}"


class ReviewCommentViewer(QDialog):
    """Shows one review-comment record; see the module docstring."""

    def __init__(self, record: ReviewCommentRecord, parent: QWidget | None = None, *,
                 open_url: Callable[[str], bool] = _open_url) -> None:
        super().__init__(parent)
        self.setObjectName(VIEWER_OBJECT_NAME)
        self.record = record
        self._open_url = open_url
        label = review_comment_label(record)
        self.setWindowTitle(label)
        layout = QVBoxLayout(self)
        meta = record.pull_request
        if meta is not None:
            heading = (f"{pull_request_kind_label(meta)} #{meta.number}: {meta.title}\n"
                       f"{meta.head_branch} → {meta.base_branch}")
        else:
            heading = f"{record.file_path}  {record.range_label}"
            if record.source_revision:
                heading += f"  (at {record.source_revision[:10]})"
        self.heading = QLabel(heading, self)
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.comment = QLabel(record.text, self)
        self.comment.setObjectName("reviewCommentText")
        self.comment.setWordWrap(True)
        layout.addWidget(self.comment)
        self.lines = parse_review_diff(record.diff) if record.diff else []
        self.marked_rows: list[int] = []
        self.diff = QPlainTextEdit(self)
        self.diff.setObjectName("reviewCommentDiff")
        self.diff.setReadOnly(True)
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.diff.setAccessibleName(f"Diff of {label}")
        layout.addWidget(self.diff, 1)
        self.open_button: QPushButton | None = None
        if meta is not None:
            bar = QHBoxLayout()
            self.open_button = QPushButton("Open pull request", self)
            self.open_button.setObjectName("openPullRequest")
            self.open_button.clicked.connect(lambda: self._open_url(meta.url))
            bar.addStretch(1)
            bar.addWidget(self.open_button)
            layout.addLayout(bar)
        if not self.lines:
            self.diff.hide()
        else:
            self._fill()
        self.resize(820, 560)

    def _fill(self) -> None:
        numbers = [n for line in self.lines for n in (line.old_line, line.new_line) if n]
        width = len(str(max(numbers, default=1)))
        self.diff.setPlainText("\n".join(_row_text(line, width) for line in self.lines))
        before = self.record.range_label.endswith("(before)")
        selections: list[QTextEdit.ExtraSelection] = []
        first_marked: QTextCursor | None = None
        for row, line in enumerate(self.lines):
            marked = is_commented(line, self.record.start_index, self.record.end_index,
                                  before=before)
            color = (COMMENTED if marked else ADDED if line.kind == "+"
                     else REMOVED if line.kind == "-" else None)
            if color is None:
                continue
            cursor = QTextCursor(self.diff.document().findBlockByNumber(row))
            selection = QTextEdit.ExtraSelection()
            selection.format.setBackground(color)
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            selection.cursor = cursor
            selections.append(selection)
            if marked:
                self.marked_rows.append(row)
                first_marked = first_marked or cursor
        self.diff.setExtraSelections(selections)
        if first_marked is not None:
            self.diff.setTextCursor(first_marked)
            self.diff.centerCursor()
