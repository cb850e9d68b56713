"""``WindowLayout``: the main window's panes — thread list on the left, transcript (or the empty
page) over the composer in the centre, Sources docked on the right.

Invariants: the layout only builds and arranges widgets, it connects no signals and calls no engine
method; the centre stack shows the empty page exactly when the transcript has no rows; the editor
and the Send button are enabled together, and only once a thread is open.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from composer_app.core.document.store import DraftStore
from composer_app.ui.composer.attachment_uploads import AttachmentUploads
from composer_app.ui.composer.drafts import DraftAutosave
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.insertion import ContextInsertionRouter
from composer_app.ui.composer.notices import NoticeBar
from composer_app.ui.composer.shelf import AttachmentShelf
from composer_app.ui.external_open import open_url_externally
from composer_app.ui.threads.thread_list import ThreadListPane
from composer_app.ui.transcript.sources_dock import SourcesDock
from composer_app.ui.transcript.view import TranscriptView

EMPTY_TITLE = "No messages yet"
EMPTY_HINT = ("Write below and press Enter. Paste or drop files and images to attach them as "
              "context; the assistant answers with its sources.")
COMPOSER_HINT = ("Paste or drop files to attach them · Ctrl+S stashes the prompt · "
                 "Ctrl+K switches threads")
EMPTY_TEXT_WIDTH = 440


class WindowLayout:
    """Mixin of ``MainWindow`` that builds its panes (``_build_panes``)."""

    def _build_panes(self) -> None:
        self.thread_pane = ThreadListPane(self)
        self.transcript = TranscriptView(self)
        self.transcript.setAccessibleName("Transcript")
        self.transcript.url_opener = open_url_externally
        self.transcript.asset_opener = self._open_asset
        self.editor = ComposerEditor(self)
        self.editor.setMinimumHeight(72)
        self.send_button = QPushButton("Send", self)
        self.send_button.setToolTip("Send (Enter)")
        self.send_button.setDefault(False)
        self.composer_hint = QLabel(COMPOSER_HINT, self)  # the editor's placeholder has Enter
        self.composer_hint.setObjectName("composerHint")
        self.composer_hint.setEnabled(False)
        self.draft_store = DraftStore(self.session.paths.drafts_dir)
        self.router = ContextInsertionRouter(self.draft_store)
        self.autosave: DraftAutosave | None = None
        self.uploads = AttachmentUploads(self.bridge, parent=self)
        self.editor.use_uploads(self.uploads)
        self.shelf = AttachmentShelf(self.editor, self)
        composer = QWidget(self)
        composer.setObjectName("composerArea")
        column = QVBoxLayout(composer)
        column.setContentsMargins(10, 6, 10, 8)
        column.setSpacing(4)
        row = QHBoxLayout()
        row.setSpacing(8)
        row.addWidget(self.editor, 1)
        row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        column.addLayout(row, 1)
        column.addWidget(self.shelf)
        self.notices = NoticeBar(self)
        column.addWidget(self.notices)
        column.addWidget(self.composer_hint)
        self.centre = QSplitter(Qt.Orientation.Vertical, self)
        self.centre.setObjectName("centreSplitter")
        self._build_empty_page()
        self.transcript_stack = QStackedWidget(self)
        self.transcript_stack.addWidget(self.empty_page)
        self.transcript_stack.addWidget(self.transcript)
        self.centre.addWidget(self.transcript_stack)
        self.centre.addWidget(composer)
        self.centre.setStretchFactor(0, 4)
        self.centre.setStretchFactor(1, 1)
        self.centre.setChildrenCollapsible(False)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("mainSplitter")
        self.splitter.addWidget(self.thread_pane)
        self.splitter.addWidget(self.centre)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([250, 900])
        self.setCentralWidget(self.splitter)
        self.sources_dock = SourcesDock(self.transcript, self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.sources_dock)
        self.sources_dock.hide()
        self._set_editor_enabled(False)

    def _build_empty_page(self) -> None:
        """What the centre shows for a thread without messages: a short, centred explanation."""
        self.empty_page = QWidget(self)
        self.empty_page.setObjectName("emptyThreadPage")
        self.empty_page.setAutoFillBackground(True)
        self.empty_page.setBackgroundRole(QPalette.ColorRole.Base)
        self.empty_title = QLabel(EMPTY_TITLE, self.empty_page)
        font = self.empty_title.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setWeight(QFont.Weight.DemiBold)
        self.empty_title.setFont(font)
        self.empty_hint = QLabel(EMPTY_HINT, self.empty_page)
        self.empty_hint.setObjectName("emptyThreadHint")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.empty_hint.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # F6 lands here when empty
        self.empty_hint.setAccessibleName(EMPTY_TITLE)
        self.empty_hint.setAccessibleDescription(EMPTY_HINT)
        text = QVBoxLayout()
        text.setSpacing(6)
        for label in (self.empty_title, self.empty_hint):
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            label.setMaximumWidth(EMPTY_TEXT_WIDTH)
            label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
            text.addWidget(label)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addLayout(text, 100)
        row.addStretch(1)
        column = QVBoxLayout(self.empty_page)
        column.setContentsMargins(24, 24, 24, 24)
        column.addStretch(2)
        column.addLayout(row)
        column.addStretch(3)

    def _set_editor_enabled(self, enabled: bool) -> None:
        self.editor.setEnabled(enabled)
        self.send_button.setEnabled(enabled)

    def _on_transcript_rows_changed(self, *_: Any) -> None:
        empty = self.transcript.transcript_model().rowCount() == 0
        self.transcript_stack.setCurrentIndex(0 if empty else 1)
