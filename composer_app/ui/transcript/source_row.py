"""One row of the Sources panel: summary line, collapsed details and the allowed actions.

Invariants: the row shows only ``PanelRow`` fields (display-safe by construction); its buttons are
exactly ``PanelRow.actions`` plus the local Copy title and Show details; details start collapsed;
the Open button's tooltip starts with the full host (a file's Open says which file and lines).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QMouseEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from composer_app.ui.flow_layout import FlowLayout
from composer_app.ui.transcript.pixmaps import source_icon
from composer_app.ui.transcript.sources_logic import PanelRow

_ACTION_TEXT = {"open": "Open", "open-file": "Open", "download": "Download"}


def _muted(text: str, parent: QWidget) -> QLabel:
    label = QLabel(text, parent)
    label.setWordWrap(True)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label


class SourceRow(QFrame):
    """A selectable card for one source entry."""

    selected = Signal(str)  # entry id
    action_triggered = Signal(str, str)  # entry id, action

    def __init__(self, model: PanelRow, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.is_selected = False
        self.setObjectName("sourceRow")
        self.setAccessibleName(model.accessible_name)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(3)
        top = QHBoxLayout()
        top.setSpacing(6)
        if model.number is not None:
            badge = QLabel(str(model.number), self)
            badge.setObjectName("sourceNumber")
            badge.setAlignment(Qt.AlignmentFlag.AlignCenter)
            badge.setFixedSize(20, 18)
            top.addWidget(badge)
        icon = QLabel(self)
        color = self.palette().color(QPalette.ColorRole.Text)
        icon.setPixmap(source_icon(model.type, 16, color, self.devicePixelRatioF()))
        icon.setFixedSize(18, 18)
        top.addWidget(icon)
        self.title = QLabel(model.title, self)
        self.title.setObjectName("sourceTitle")
        self.title.setToolTip(model.title)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setMinimumWidth(40)
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        top.addWidget(self.title, 1)
        layout.addLayout(top)
        summary = [model.source_label]
        if model.date:
            summary.append(model.date)
        if model.confidence:
            summary.append(f"Relevance: {model.confidence}")
        self.summary = _muted(" · ".join(summary), self)
        layout.addWidget(self.summary)
        self.account: QLabel | None = None
        if model.account:
            self.account = _muted(model.account, self)
            layout.addWidget(self.account)
        self.details = self._details_widget()
        layout.addWidget(self.details)
        self.details.hide()
        self.progress = QProgressBar(self)
        self.progress.setMaximumHeight(6)
        self.progress.setTextVisible(False)
        self.progress.hide()
        layout.addWidget(self.progress)
        self.status = _muted("", self)
        self.status.hide()
        layout.addWidget(self.status)
        layout.addLayout(self._buttons())

    def _details_widget(self) -> QWidget:
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(3)
        m = self.model
        if m.snippet_path:
            path = _muted(m.snippet_path, box)
            path.setObjectName("sourceSnippetPath")
            path.setTextFormat(Qt.TextFormat.PlainText)
            layout.addWidget(path)
        if m.snippet:
            snippet = QLabel(m.snippet, box)
            snippet.setObjectName("sourceSnippet")
            snippet.setTextFormat(Qt.TextFormat.PlainText)
            snippet.setWordWrap(True)
            snippet.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(snippet)
        for label, value in m.details:
            layout.addWidget(_muted(f"{label}: {value}", box))
        if m.coverage:
            layout.addWidget(_muted(f"Coverage: {m.coverage}", box))
        if m.freshness:
            layout.addWidget(_muted(f"Freshness: {m.freshness}", box))
        if m.provenance:
            layout.addWidget(_muted(m.provenance, box))
        return box

    def _buttons(self) -> FlowLayout:
        """The actions, wrapping onto a second line in a narrow panel (never clipped)."""
        row = FlowLayout(spacing=4)
        self.buttons: dict[str, QPushButton] = {}
        for action in self.model.actions:
            button = QPushButton(_ACTION_TEXT[action], self)
            if action in ("open", "open-file") and self.model.open_tooltip:
                button.setToolTip(self.model.open_tooltip)
            button.clicked.connect(lambda _=False, a=action: self._trigger(a))
            self.buttons[action] = button
        copy = QPushButton("Copy title", self)
        copy.clicked.connect(self.copy_title)
        self.buttons["copy-title"] = copy
        if self.model.has_details:
            toggle = QPushButton("Show details", self)
            toggle.setCheckable(True)
            toggle.toggled.connect(self.set_details_visible)
            self.buttons["details"] = toggle
        for button in self.buttons.values():
            button.setFlat(True)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            row.addWidget(button)
        return row

    def _trigger(self, action: str) -> None:
        self.selected.emit(self.model.entry_id)
        self.action_triggered.emit(self.model.entry_id, action)

    def set_details_visible(self, visible: bool) -> None:
        """Expand or collapse the snippet and details."""
        self.details.setVisible(visible)
        toggle = self.buttons.get("details")
        if toggle is not None:
            toggle.setText("Hide details" if visible else "Show details")
            if toggle.isChecked() != visible:
                toggle.setChecked(visible)

    def copy_title(self) -> None:
        """Copy the row's title (local action)."""
        QGuiApplication.clipboard().setText(self.model.title)

    def set_selected(self, selected: bool) -> None:
        """Draw the row as selected."""
        self.is_selected = selected
        self.setProperty("selected", selected)
        self.style().unpolish(self)
        self.style().polish(self)

    def show_progress(self, received: int, total: int) -> None:
        """Show download progress (busy when the total is unknown)."""
        self.progress.show()
        self.progress.setRange(0, max(total, 0))
        if total > 0:
            self.progress.setValue(min(received, total))

    def finish_progress(self, ok: bool, message: str) -> None:
        """End a download and say how it went."""
        self.progress.hide()
        self.status.setText(message or ("Downloaded." if ok else "Download failed."))
        self.status.show()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.selected.emit(self.model.entry_id)
        super().mousePressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        width = max(40, self.title.width())
        metrics = self.title.fontMetrics()
        self.title.setText(metrics.elidedText(self.model.title, Qt.TextElideMode.ElideRight, width))
