"""``ChangesDock``: the workspace's changed files and hunks, with comments on selected lines.

A ``QDockWidget`` (object name ``changesDock``) holding a summary line with *Refresh*, a list of
diff rows (file headers, hunk headers, lines with old/new numbers, Pygments colours, added/removed
tints) and *Comment…*. Lines are selected with the mouse (click, Shift+click, drag) or the keyboard
(arrows, Shift+arrows); *Comment…* or C opens a small inline editor under the selection; Enter
emits ``comment_created(record)`` (a ``review-comment`` record), Shift+Enter adds a line, Esc
cancels.

Invariants: ``set_changes`` never raises for a malformed answer (the pane says it could not read
it); the record comes from core's ``review_comment_for_lines`` only; a selection never spans two
files (the comment is about the first file's lines); the pane asks for data only through
``refresh_requested`` (the window answers with ``set_changes`` / ``set_unavailable``).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QKeyEvent,
    QPainter,
    QPalette,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from composer_app.core.codecs.diff import FileChange
from composer_app.core.codecs.ids import to_kind_scoped_context_id
from composer_app.core.codecs.workspace_records import review_comment_for_lines
from composer_app.ui.changes.changes_logic import (
    Changes,
    ChangesError,
    DiffRow,
    LineRange,
    RowKind,
    decode_changes,
    describe_line,
    diff_rows,
    selected_range,
)
from composer_app.ui.changes.syntax_logic import Span, highlight_lines

_log = logging.getLogger(__name__)
DOCK_OBJECT_NAME = "changesDock"
_Index = QModelIndex | QPersistentModelIndex
ADDED = QColor(46, 160, 67, 48)
REMOVED = QColor(248, 81, 73, 48)
COMMENTED = QColor(210, 153, 34)
STATUS_WORDS = {"modified": "M", "added": "A", "deleted": "D", "renamed": "R", "untracked": "U"}


class ChangesModel(QAbstractListModel):
    """The rows of the pane over one ``Changes`` value, with highlight spans per line."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.changes = Changes(None, ())
        self.rows: list[DiffRow] = []
        self.spans: dict[tuple[int, int], list[list[Span]]] = {}
        self.commented: set[tuple[str, int]] = set()
        self.dark = False

    def set_changes(self, changes: Changes) -> None:
        """Show ``changes`` (highlighting each hunk as one text)."""
        self.beginResetModel()
        self.changes = changes
        self.rows = diff_rows(changes)
        self.spans = {
            (f, h): highlight_lines(change.path, [line.text for line in hunk.lines],
                                    dark=self.dark)
            for f, change in enumerate(changes.files)
            for h, hunk in enumerate(change.hunks)
        }
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        change = self.changes.files[row.file]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            if row.kind is RowKind.FILE:
                return f"{change.title} ({change.status})"
            hunk = change.hunks[row.hunk]
            if row.kind is RowKind.HUNK:
                return hunk.header
            line = hunk.lines[row.line]
            return describe_line(line) if role == Qt.ItemDataRole.AccessibleTextRole else line.text
        if role == Qt.ItemDataRole.ToolTipRole and row.kind is RowKind.FILE:
            return change.title
        return None


class DiffDelegate(QStyledItemDelegate):
    """Paints file rows, hunk headers and lines (gutter, tint, coloured tokens)."""

    def __init__(self, model: ChangesModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.metrics = QFontMetrics(self.font)

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        height = self.metrics.height() + 4
        return QSize(200, height + (6 if self._row(index).kind is RowKind.FILE else 0))

    def _row(self, index: _Index) -> DiffRow:
        return self._model.rows[index.row()]

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        row = self._row(index)
        change = self._model.changes.files[row.file]
        rect: QRect = option.rect
        palette: QPalette = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        try:
            painter.setFont(self.font)
            if row.kind is RowKind.FILE:
                self._paint_file(painter, rect, palette, change, selected)
            elif row.kind is RowKind.HUNK:
                self._fill(painter, rect, palette, selected,
                           palette.color(QPalette.ColorRole.AlternateBase))
                painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
                painter.drawText(rect.adjusted(6, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter,
                                 change.hunks[row.hunk].header)
            else:
                self._paint_line(painter, rect, palette, row, change, selected)
        except Exception:  # a paint virtual must never raise
            _log.exception("painting a diff row failed")
        finally:
            painter.restore()

    @staticmethod
    def _fill(painter: QPainter, rect: QRect, palette: QPalette, selected: bool,
              color: QColor | None) -> None:
        if selected:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        elif color is not None:
            painter.fillRect(rect, color)

    def _paint_file(self, painter: QPainter, rect: QRect, palette: QPalette, change: FileChange,
                    selected: bool) -> None:
        self._fill(painter, rect, palette, selected, palette.color(QPalette.ColorRole.Button))
        font = QFont(self.font)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(palette.color(QPalette.ColorRole.HighlightedText if selected
                                     else QPalette.ColorRole.ButtonText))
        text = f"{STATUS_WORDS.get(change.status, '?')}  {change.title}"
        painter.drawText(rect.adjusted(6, 0, -6, 0), Qt.AlignmentFlag.AlignVCenter, text)

    def _paint_line(self, painter: QPainter, rect: QRect, palette: QPalette, row: DiffRow,
                    change: FileChange, selected: bool) -> None:
        line = change.hunks[row.hunk].lines[row.line]
        tint = ADDED if line.kind == "+" else REMOVED if line.kind == "-" else None
        self._fill(painter, rect, palette, selected, tint)
        metrics = self.metrics
        digit = metrics.horizontalAdvance("0")
        gutter = digit * 5
        muted = palette.color(QPalette.ColorRole.PlaceholderText)
        text_color = palette.color(QPalette.ColorRole.HighlightedText if selected
                                   else QPalette.ColorRole.Text)
        if line.new_line is not None and (change.path, line.new_line) in self._model.commented:
            painter.fillRect(QRect(rect.left(), rect.top(), 3, rect.height()), COMMENTED)
        painter.setPen(muted if not selected else text_color)
        for offset, number in ((0, line.old_line), (gutter, line.new_line)):
            if number is not None:
                painter.drawText(QRect(rect.left() + offset, rect.top(), gutter - digit,
                                       rect.height()),
                                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                                 str(number))
        x = rect.left() + 2 * gutter
        painter.setPen(text_color)
        painter.drawText(QRect(x, rect.top(), digit * 2, rect.height()),
                         Qt.AlignmentFlag.AlignVCenter, line.kind)
        x += digit * 2
        spans = self._model.spans.get((row.file, row.hunk), [])
        styled = spans[row.line] if row.line < len(spans) and not selected else []
        position = 0
        baseline = rect.top() + (rect.height() + metrics.ascent() - metrics.descent()) // 2
        for start, end, style in [*styled, (len(line.text), len(line.text), None)]:
            if start > position:  # unstyled text before the span
                piece = line.text[position:start]
                painter.setPen(text_color)
                painter.drawText(x, baseline, piece)
                x += metrics.horizontalAdvance(piece)
            if style is not None and end > start:
                piece = line.text[start:end]
                painter.setPen(QColor(style.color) if style.color else text_color)
                painter.drawText(x, baseline, piece)
                x += metrics.horizontalAdvance(piece)
            position = max(position, end)
            if x > rect.right():
                break


class CommentEditor(QWidget):
    """The inline comment editor: Enter adds, Shift+Enter breaks the line, Esc cancels."""

    accepted = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("changesCommentEditor")
        self.setAutoFillBackground(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel(self)
        self.edit = QPlainTextEdit(self)
        self.edit.setObjectName("changesCommentText")
        self.edit.setPlaceholderText("Comment…  (Enter adds it to the message, Esc cancels)")
        self.edit.setTabChangesFocus(True)
        self.edit.installEventFilter(self)
        layout.addWidget(self.title)
        layout.addWidget(self.edit)
        self.hide()

    def open(self, title: str) -> None:
        """Show the editor, empty, with ``title`` above it, and focus it."""
        self.title.setText(title)
        self.edit.setAccessibleName(title)
        self.edit.clear()
        self.show()
        self.raise_()
        self.edit.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if key == Qt.Key.Key_Escape:
                self.hide()
                self.cancelled.emit()
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            ):
                text = self.edit.toPlainText().strip()
                if text:
                    self.hide()
                    self.accepted.emit(text)
                return True
        return super().eventFilter(watched, event)


class ChangesDock(QDockWidget):
    """The Changes pane; see the module docstring."""

    comment_created = Signal(object)
    """A ``review-comment`` record to insert at the composer's caret."""
    refresh_requested = Signal()

    def __init__(self, parent: QWidget | None = None, *,
                 new_id: Callable[[], str] = lambda: uuid.uuid4().hex) -> None:
        super().__init__("Changes", parent)
        self.setObjectName(DOCK_OBJECT_NAME)
        self._new_id = new_id
        self.model = ChangesModel(self)
        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        bar = QHBoxLayout()
        self.summary = QLabel("No changes loaded", body)
        self.summary.setObjectName("changesSummary")
        self.refresh_button = QPushButton("Refresh", body)
        self.refresh_button.setObjectName("refreshChanges")
        self.refresh_button.clicked.connect(self.refresh_requested)
        self.comment_button = QPushButton("Comment…", body)
        self.comment_button.setObjectName("commentOnChange")
        self.comment_button.setToolTip("Comment on the selected lines (C)")
        self.comment_button.clicked.connect(self.open_comment)
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.comment_button)
        bar.addWidget(self.refresh_button)
        layout.addLayout(bar)
        self.view = QListView(body)
        self.view.setObjectName("changesView")
        self.view.setAccessibleName("Changed files and lines")
        self.view.setModel(self.model)
        self.view.setItemDelegate(DiffDelegate(self.model, self.view))
        self.view.setUniformItemSizes(False)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.view.installEventFilter(self)
        self.view.selectionModel().selectionChanged.connect(self._update_actions)
        layout.addWidget(self.view, 1)
        self.editor = CommentEditor(self.view.viewport())
        self.editor.accepted.connect(self._create_comment)
        self.editor.cancelled.connect(self.view.setFocus)
        self._pending: LineRange | None = None
        self.setWidget(body)
        self._update_actions()

    # -- data -------------------------------------------------------------------------------
    def set_changes(self, data: object) -> bool:
        """Show the changes answer; False (and a message) when it could not be read."""
        try:
            changes = decode_changes(data)
        except ChangesError:
            self.set_unavailable("The changes could not be read.")
            return False
        self.model.dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        self.model.set_changes(changes)
        count = len(changes.files)
        self.summary.setText("No changes" if not count else
                             f"{count} changed file{'s' if count != 1 else ''}"
                             + (f" against {changes.revision[:10]}" if changes.revision else ""))
        self.editor.hide()
        self._update_actions()
        return True

    def set_unavailable(self, reason: str) -> None:
        """No changes to show (no workspace, not a repository, offline…): say why."""
        self.model.set_changes(Changes(None, ()))
        self.summary.setText(reason)
        self.editor.hide()
        self._update_actions()

    # -- selection and comments -----------------------------------------------------------------
    def selected_lines(self) -> LineRange | None:
        """The commentable lines of the selection."""
        rows = [index.row() for index in self.view.selectionModel().selectedIndexes()]
        return selected_range(self.model.rows, rows)

    def select_rows(self, first: int, last: int) -> None:
        """Select rows ``first..last`` (inclusive), as a Shift+click would."""
        selection = QItemSelection(self.model.index(first, 0), self.model.index(last, 0))
        model = self.view.selectionModel()
        model.setCurrentIndex(self.model.index(last, 0), QItemSelectionModel.SelectionFlag.NoUpdate)
        model.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def open_comment(self) -> bool:
        """Open the inline editor under the selection; False when no lines are selected."""
        lines = self.selected_lines()
        if lines is None:
            return False
        self._pending = lines
        change = self.model.changes.files[lines.file]
        preview = review_comment_for_lines(change, lines.positions, "x")
        last = max(index.row() for index in self.view.selectionModel().selectedIndexes())
        below = self.view.visualRect(self.model.index(last, 0))
        height = 96
        viewport = self.view.viewport()
        top = min(below.bottom() + 1, max(viewport.height() - height, 0))
        self.editor.setGeometry(0, top, viewport.width(), height)
        self.editor.open(f"Comment on {preview.label}")
        return True

    def _create_comment(self, text: str) -> None:
        lines = self._pending
        self._pending = None
        self.view.setFocus()
        if lines is None or lines.file >= len(self.model.changes.files):
            return
        change = self.model.changes.files[lines.file]
        record = review_comment_for_lines(
            change, lines.positions, text, source_revision=self.model.changes.revision,
            context_id=to_kind_scoped_context_id("review-comment", f"change:{self._new_id()}"))
        for n in range(record.start_index, record.end_index + 1):
            self.model.commented.add((change.path, n))
        self.view.viewport().update()
        self.comment_created.emit(record)

    def _update_actions(self, *_: object) -> None:
        has_lines = bool(self.model.rows) and self.selected_lines() is not None
        self.comment_button.setEnabled(has_lines)
        self.comment_button.setToolTip("Comment on the selected lines (C)" if has_lines
                                       else "Select lines to comment on them")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() == Qt.Key.Key_C and event.modifiers() in (
                Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier
            ):
                return self.open_comment()
        return super().eventFilter(watched, event)
