"""``SourcesDock``: the dock that hosts the ``SourcesPanel`` and links it to a transcript view.

Invariants: the Sources action and an inline token open the dock on the message they belong to;
activating a token selects its row; selecting a row highlights the blocks that entry supports in
the transcript (and clears the highlight of the previously shown message). The title bar reads
``Sources`` in the panel's own type scale, with one labelled close button (no float button: the
panel belongs beside its transcript).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QHBoxLayout, QLabel, QStyle, QToolButton, QWidget

from composer_app.ui.transcript.sources_panel import SourcesPanel
from composer_app.ui.transcript.view import TranscriptView


class DockTitle(QWidget):
    """The dock's title bar: a bold ``Sources`` heading and a close button."""

    def __init__(self, dock: QDockWidget) -> None:
        super().__init__(dock)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 8, 6, 6)
        self.label = QLabel(dock.windowTitle(), self)
        font = self.label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.label.setFont(font)
        self.close_button = QToolButton(self)
        self.close_button.setAutoRaise(True)
        close_icon = self.style().standardIcon(QStyle.StandardPixmap.SP_TitleBarCloseButton)
        self.close_button.setIcon(close_icon)
        self.close_button.setToolTip("Close Sources")
        self.close_button.setAccessibleName("Close Sources")
        self.close_button.clicked.connect(dock.close)
        layout.addWidget(self.label)
        layout.addStretch(1)
        layout.addWidget(self.close_button)


class SourcesDock(QDockWidget):
    """A right-hand dock titled Sources, bound to one ``TranscriptView``."""

    def __init__(
        self, view: TranscriptView, parent: QWidget | None = None, panel: SourcesPanel | None = None
    ) -> None:
        super().__init__("Sources", parent)
        self.setObjectName("sourcesDock")
        self.setAllowedAreas(
            Qt.DockWidgetArea.RightDockWidgetArea | Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                         | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.title_bar = DockTitle(self)
        self.setTitleBarWidget(self.title_bar)
        self.view = view
        self.panel = panel or SourcesPanel(self)
        self.setWidget(self.panel)
        self._connect_signals()

    def _connect_signals(self) -> None:
        self.view.sources_requested.connect(self._on_view_sources_requested)
        self.view.citation_activated.connect(self._on_view_citation_activated)
        self.panel.row_selected.connect(self._on_panel_row_selected)

    def show_sources(self, message_id: str) -> bool:
        """Fill the panel with one message's inventory and show the dock."""
        message = self.view.transcript_model().transcript.get(message_id)
        if message is None or message.role != "assistant":
            return False
        if self.panel.message_id and self.panel.message_id != message_id:
            self.view.set_active_source(self.panel.message_id, None)
        answer = message.answer()
        self.panel.show_message(
            message_id,
            message.thread_id,
            answer.entries,
            answer.numbers,
            answer.grounding.grounding_mode,
            public=self.view.transcript_model().public,
        )
        self.show()
        self.raise_()
        return True

    def _on_view_sources_requested(self, message_id: str) -> None:
        self.show_sources(message_id)

    def _on_view_citation_activated(self, message_id: str, entry_id: str) -> None:
        if self.panel.message_id != message_id or not self.isVisible():
            self.show_sources(message_id)
        self.panel.select_entry(entry_id)

    def _on_panel_row_selected(self, message_id: str, entry_id: str) -> None:
        self.view.set_active_source(message_id, entry_id)
        self.view.scroll_to_message(message_id)
