"""The main window's status bar and the *Unsent messages* dialog.

Invariants: the bar shows what it is told — the connection text, the unsent count (a button that
opens the queued items; hidden when nothing waits), *Retry now* only while the socket waits for a
retry, and the keyring fallback banner with its opt-in action only while the banner applies. The
dialog lists queued messages and turns Retry / Edit / Delete into signals; it never calls the
engine itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, SignalInstance
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStatusBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from composer_app.sync.store import OutboxRow

_STATE_TEXT = {
    "sending": "Sending",
    "blocked": "Waiting for an earlier message",
    "unsent": "Not sent",
}
PREVIEW_CHARS = 80
TONE_COLOURS = {"ok": "#16a34a", "busy": "#d97706", "down": "#9ca3af", "error": "#dc2626"}



class _ElidedLabel(QLabel):
    """A label that paints its text elided to its width (``text()`` stays whole)."""

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter),
                         self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                                       rect.width()))

CONNECTION_WIDTH_SAMPLE = "Reconnecting (next try in 999 s)"
"""The widest connection text the status bar makes room for."""

class AppStatusBar(QStatusBar):
    """Connection state, unsent count and the keyring banner."""

    retry_now_requested = Signal()
    unsent_requested = Signal()
    remember_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("appStatusBar")
        self.banner = QLabel(self)
        self.banner.setObjectName("keyringBanner")
        self.banner.setWordWrap(False)
        self.remember = QToolButton(self)
        self.remember.setAutoRaise(True)
        self.dot = QLabel("●", self)
        self.dot.setObjectName("connectionDot")
        self.dot.setAccessibleName("Connection indicator")
        self.tone = ""
        self.connection = _ElidedLabel("Starting…", self)
        self.connection.setObjectName("connectionState")
        self.connection.setAccessibleName("Connection state")
        # A fixed width: a growing countdown never widens the window (long texts are elided).
        self.connection.setFixedWidth(self.connection.fontMetrics().horizontalAdvance(
            CONNECTION_WIDTH_SAMPLE) + 8)
        self.retry = QToolButton(self)
        self.retry.setText("Retry now")
        self.retry.setAutoRaise(True)
        self.unsent = QToolButton(self)
        self.unsent.setObjectName("unsentButton")
        self.unsent.setAutoRaise(True)
        self.unsent.setToolTip("Show messages that have not reached the server yet")
        self.addWidget(self.banner)
        self.addWidget(self.remember)
        self.addPermanentWidget(self.unsent)
        self.addPermanentWidget(self.retry)
        self.addPermanentWidget(self.dot)
        self.addPermanentWidget(self.connection)
        self.set_banner(None)
        self.set_unsent("")
        self.retry.hide()
        self._connect_signals()

    def _connect_signals(self) -> None:
        self.retry.clicked.connect(self.retry_now_requested)
        self.unsent.clicked.connect(self.unsent_requested)
        self.remember.clicked.connect(self.remember_requested)

    def set_connection(self, text: str, retry: bool, tone: str = "busy") -> None:
        """The connection text, *Retry now* when it applies, and the dot's colour
        (``ok``/``busy``/``down``/``error``, see ``connection_tone``)."""
        self.connection.setText(text)
        self.connection.setToolTip(text)
        self.retry.setVisible(retry)
        self.tone = tone if tone in TONE_COLOURS else "busy"
        self.dot.setStyleSheet(f"color: {TONE_COLOURS[self.tone]};")
        self.dot.setToolTip(text)

    def set_unsent(self, text: str) -> None:
        self.unsent.setText(text)
        self.unsent.setVisible(bool(text))

    def set_banner(self, text: str | None, action: str = "") -> None:
        """Show the keyring fallback banner (``None`` hides it)."""
        self.banner.setText(text or "")
        self.banner.setVisible(bool(text))
        self.remember.setText(action)
        self.remember.setVisible(bool(text and action))


def outbox_line(row: OutboxRow, title: str, text: str) -> str:
    """One line of the unsent list: thread, state and a preview of the message."""
    preview = " ".join(text.split())
    if len(preview) > PREVIEW_CHARS:
        preview = preview[: PREVIEW_CHARS - 1] + "…"
    state = _STATE_TEXT.get(row.state, row.state)
    return f"{title} — {state}: {preview}" if preview else f"{title} — {state}"


class UnsentDialog(QDialog):
    """The queued messages, with Retry, Edit and Delete."""

    retry_requested = Signal(str)
    edit_requested = Signal(str)
    delete_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Unsent messages")
        self.resize(560, 320)
        self.items = QListWidget(self)
        self.items.setAccessibleName("Unsent messages")
        self.empty = QLabel("Every message has reached the server.", self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.retry_button = QPushButton("Retry", self)
        self.edit_button = QPushButton("Edit", self)
        self.delete_button = QPushButton("Delete", self)
        buttons = QHBoxLayout()
        for button in (self.retry_button, self.edit_button, self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.items, 1)
        layout.addWidget(self.empty)
        layout.addLayout(buttons)
        close.rejected.connect(self.reject)
        self._connect_signals()
        self.set_items([])

    def _connect_signals(self) -> None:
        self.retry_button.clicked.connect(lambda: self._emit(self.retry_requested))
        self.edit_button.clicked.connect(lambda: self._emit(self.edit_requested))
        self.delete_button.clicked.connect(lambda: self._emit(self.delete_requested))
        self.items.currentRowChanged.connect(self._on_items_current_row_changed)

    def set_items(self, lines: Sequence[tuple[str, str, str]]) -> None:
        """``(message_id, state, line)`` per queued message."""
        current = self.selected()
        self.items.clear()
        for message_id, state, line in lines:
            item = QListWidgetItem(line)
            item.setData(Qt.ItemDataRole.UserRole, message_id)
            item.setData(Qt.ItemDataRole.UserRole + 1, state)
            self.items.addItem(item)
            if message_id == current:
                self.items.setCurrentItem(item)
        if self.items.currentRow() < 0 and self.items.count():
            self.items.setCurrentRow(0)
        self.empty.setVisible(not lines)
        self.items.setVisible(bool(lines))
        self._on_items_current_row_changed(self.items.currentRow())

    def selected(self) -> str:
        item = self.items.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else ""

    def _emit(self, signal: SignalInstance) -> None:
        message_id = self.selected()
        if message_id:
            signal.emit(message_id)

    def _on_items_current_row_changed(self, row: int) -> None:
        item = self.items.item(row) if row >= 0 else None
        state = str(item.data(Qt.ItemDataRole.UserRole + 1)) if item is not None else ""
        self.retry_button.setEnabled(state == "unsent")
        for button in (self.edit_button, self.delete_button):
            button.setEnabled(item is not None)
