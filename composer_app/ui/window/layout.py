"""The main window's centre page: the transcript, or a short explanation while the open thread
has no messages.

Invariants: ``CentreStack`` shows the empty page exactly when the transcript's model has no rows
(it follows the model's resets and inserts by itself); the empty page's hint takes the focus, so
F6 lands somewhere readable on an empty thread. The window arranges the panes around it (thread
list, centre stack over the composer, Sources docked on the right).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget

from composer_app.ui.transcript.view import TranscriptView

__all__ = ["EMPTY_HINT", "EMPTY_TEXT_WIDTH", "EMPTY_TITLE", "CentreStack", "EmptyThreadPage"]

EMPTY_TITLE = "No messages yet"
EMPTY_HINT = ("Write below and press Enter. Paste or drop files and images to attach them as "
              "context; the assistant answers with its sources.")
EMPTY_TEXT_WIDTH = 440


class EmptyThreadPage(QWidget):
    """What the centre shows for a thread without messages: a short, centred explanation."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("emptyThreadPage")
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Base)
        self.title = QLabel(EMPTY_TITLE, self)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setWeight(QFont.Weight.DemiBold)
        self.title.setFont(font)
        self.hint = QLabel(EMPTY_HINT, self)
        self.hint.setObjectName("emptyThreadHint")
        self.hint.setWordWrap(True)
        self.hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.hint.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # F6 lands here when empty
        self.hint.setAccessibleName(EMPTY_TITLE)
        self.hint.setAccessibleDescription(EMPTY_HINT)
        text = QVBoxLayout()
        text.setSpacing(6)
        for label in (self.title, self.hint):
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            label.setMaximumWidth(EMPTY_TEXT_WIDTH)
            label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
            text.addWidget(label)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addLayout(text, 100)
        row.addStretch(1)
        column = QVBoxLayout(self)
        column.setContentsMargins(24, 24, 24, 24)
        column.addStretch(2)
        column.addLayout(row)
        column.addStretch(3)


class CentreStack(QStackedWidget):
    """The empty page or the transcript, whichever applies."""

    def __init__(self, transcript: TranscriptView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.empty_page = EmptyThreadPage(self)
        self.transcript = transcript
        self.addWidget(self.empty_page)
        self.addWidget(transcript)
        model = transcript.transcript_model()
        model.modelReset.connect(self._on_model_rows_changed)
        model.rowsInserted.connect(self._on_model_rows_changed)

    def _on_model_rows_changed(self, *_: QModelIndex | QPersistentModelIndex | int) -> None:
        empty = self.transcript.transcript_model().rowCount() == 0
        self.setCurrentIndex(0 if empty else 1)
