"""``TextViewer``: a read-only text file viewer with line numbers, *Open in editor* and *Open
with default app*.

Invariants: the text is never editable; line numbers start at ``first_line`` (the route can return
a range of a file); ``scroll_to_line`` centres and marks that line, ``mark_lines`` a range of lines
(the first one centred); *Open in editor* runs the user's editor command (``{path}``, ``{line}``;
see ``viewer_logic.editor_argv``, never a shell) or, without one, the desktop's default
application; *Open with default app* always hands the file to the desktop's default application;
both are disabled, with a tooltip saying why, when the file has no local path.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QProcess, QRect, QSize, Qt, QUrl
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QFontDatabase,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextCursor,
    QTextFormat,
)
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

from composer_app.ui.viewers.viewer_logic import editor_argv

VIEWER_OBJECT_NAME = "textViewer"
MARK = QColor(255, 214, 10, 90)


def start_detached(argv: list[str]) -> bool:
    """Start ``argv`` detached from the app; False when it could not start."""
    started = QProcess.startDetached(argv[0], argv[1:])
    return bool(started[0] if isinstance(started, tuple) else started)


def open_with_desktop(path: str) -> bool:
    """Open ``path`` with the desktop's default application."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(path))


class _Gutter(QWidget):
    def __init__(self, text: NumberedText) -> None:
        super().__init__(text)
        self._text = text

    def sizeHint(self) -> QSize:
        return QSize(self._text.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self._text.paint_gutter(self, event)


class NumberedText(QPlainTextEdit):
    """A read-only plain-text view with a line-number gutter."""

    def __init__(self, parent: QWidget | None = None, first_line: int = 1) -> None:
        super().__init__(parent)
        self.first_line = first_line
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(lambda _: self._fit_gutter())
        self.updateRequest.connect(self._scroll_gutter)
        self._fit_gutter()

    def gutter_width(self) -> int:
        digits = len(str(self.first_line + max(self.blockCount(), 1) - 1))
        return 12 + self.fontMetrics().horizontalAdvance("9") * max(digits, 3)

    def _fit_gutter(self) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        area = self.contentsRect()
        self.gutter.setGeometry(QRect(area.left(), area.top(), self.gutter_width(),
                                      area.height()))

    def paint_gutter(self, gutter: QWidget, event: QPaintEvent) -> None:
        painter = QPainter(gutter)
        try:
            painter.fillRect(event.rect(), self.palette().alternateBase())
            painter.setPen(self.palette().placeholderText().color())
            block = self.firstVisibleBlock()
            top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
            while block.isValid() and top <= event.rect().bottom():
                height = round(self.blockBoundingRect(block).height())
                if block.isVisible():
                    painter.drawText(0, top, gutter.width() - 6, self.fontMetrics().height(),
                                     Qt.AlignmentFlag.AlignRight,
                                     str(block.blockNumber() + self.first_line))
                block = block.next()
                top += height
        finally:
            painter.end()


class TextViewer(QDialog):
    """Shows a text file; see the module docstring."""

    def __init__(self, text: str, title: str, parent: QWidget | None = None, *,
                 first_line: int = 1, local_path: str | None = None, editor_command: str = "",
                 launch: Callable[[list[str]], bool] = start_detached,
                 open_default: Callable[[str], bool] = open_with_desktop) -> None:
        super().__init__(parent)
        self.setObjectName(VIEWER_OBJECT_NAME)
        self.setWindowTitle(title)
        self.local_path = local_path
        self.editor_command = editor_command
        self._launch = launch
        self._open_default = open_default
        self.current_line: int | None = None
        self.marked_lines: tuple[int, int] | None = None
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.title = QLabel(title, self)
        self.open_button = QPushButton("Open in editor", self)
        self.open_button.setObjectName("openInEditor")
        self.open_button.clicked.connect(self.open_in_editor)
        self.default_button = QPushButton("Open with default app", self)
        self.default_button.setObjectName("openWithDefaultApp")
        self.default_button.clicked.connect(self.open_with_default_app)
        if local_path is None:
            for button in (self.open_button, self.default_button):
                button.setEnabled(False)
                button.setToolTip("This file is on the server, not on this computer.")
        else:
            self.open_button.setToolTip(f"Open {local_path} in your editor")
            self.default_button.setToolTip(
                f"Open {local_path} with the desktop's default application")
        bar.addWidget(self.title, 1)
        bar.addWidget(self.open_button)
        bar.addWidget(self.default_button)
        layout.addLayout(bar)
        self.text = NumberedText(self, first_line)
        self.text.setObjectName("textViewerText")
        self.text.setAccessibleName(title)
        self.text.setPlainText(text)
        layout.addWidget(self.text, 1)
        self.resize(900, 700)

    def scroll_to_line(self, line: int) -> bool:
        """Centre and mark ``line`` (a file line number); False when it is not shown."""
        return self.mark_lines(line, line)

    def mark_lines(self, first: int, last: int) -> bool:
        """Mark lines ``first``..``last`` (file line numbers, clipped to the text) and centre the
        first; False when ``first`` is not shown."""
        document = self.text.document()
        block = document.findBlockByNumber(first - self.text.first_line)
        if not block.isValid() or first < self.text.first_line:
            return False
        marks = []
        current = block
        for _ in range(max(last, first) - first + 1):
            if not current.isValid():
                break
            mark = QTextEdit.ExtraSelection()
            mark.format.setBackground(MARK)
            mark.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            mark.cursor = QTextCursor(current)
            marks.append(mark)
            current = current.next()
        cursor = QTextCursor(block)
        self.text.setTextCursor(cursor)
        self.text.centerCursor()
        self.text.setExtraSelections(marks)
        self.current_line = first
        self.marked_lines = (first, first + len(marks) - 1)
        return True

    def open_with_default_app(self) -> bool:
        """Hand the file to the desktop's default application."""
        if self.local_path is None:
            return False
        return self._open_default(self.local_path)

    def open_in_editor(self) -> bool:
        """Open the file in the user's editor (at the marked line), else the desktop default."""
        if self.local_path is None:
            return False
        argv = editor_argv(self.editor_command, self.local_path, self.current_line)
        if argv is not None:
            return self._launch(argv)
        return self._open_default(self.local_path)
