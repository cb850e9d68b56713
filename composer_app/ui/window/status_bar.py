"""The main window's status bar and the *Unsent messages* dialog.

Invariants: the bar shows what it is told — the connection text, the unsent count (a button that
opens the queued items; hidden when nothing waits), *Retry now* only while the socket waits for a
retry, *Sign in again* only while the server refuses the token, and the keyring fallback banner
with its opt-in action only while the banner applies. The dialog lists queued messages (chips as
labels, each with the reason it was not sent) and turns Retry / Edit / Delete into signals; it
never calls the engine itself.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt, Signal, SignalInstance
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStatusBar,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from composer_app.sync.store import OutboxRow
from composer_app.ui.transcript.transcript_logic import reason_text, split_segments

_STATE_TEXT = {
    "sending": "Sending",
    "blocked": "Waiting for an earlier message",
    "unsent": "Not sent",
}
PREVIEW_CHARS = 80
CHIP_BACKGROUND = "#dbe4f3"
RICH_ROLE = int(Qt.ItemDataRole.UserRole) + 2
Index = QModelIndex | QPersistentModelIndex
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
    sign_in_requested = Signal()

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
        self.sign_in = QToolButton(self)
        self.sign_in.setObjectName("signInAgainButton")
        self.sign_in.setText("Sign in again")
        self.sign_in.setToolTip("Type a new token for this server")
        self.sign_in.setAutoRaise(True)
        self.unsent = QToolButton(self)
        self.unsent.setObjectName("unsentButton")
        self.unsent.setAutoRaise(True)
        self.unsent.setToolTip("Show messages that have not reached the server yet")
        self.addWidget(self.banner)
        self.addWidget(self.remember)
        self.addPermanentWidget(self.unsent)
        self.addPermanentWidget(self.retry)
        self.addPermanentWidget(self.sign_in)
        self.addPermanentWidget(self.dot)
        self.addPermanentWidget(self.connection)
        self._banner_wanted = False
        self.set_banner(None)
        self.set_unsent("")
        self.retry.hide()
        self.sign_in.hide()
        self._connect_signals()

    def _connect_signals(self) -> None:
        self.retry.clicked.connect(self.retry_now_requested)
        self.unsent.clicked.connect(self.unsent_requested)
        self.remember.clicked.connect(self.remember_requested)
        self.sign_in.clicked.connect(self.sign_in_requested)
        self.messageChanged.connect(lambda _text: self._show_banner())

    def set_connection(self, text: str, retry: bool, tone: str = "busy",
                       sign_in: bool = False) -> None:
        """The connection text, *Retry now* and *Sign in again* when they apply, and the dot's
        colour (``ok``/``busy``/``down``/``error``, see ``connection_tone``)."""
        self.sign_in.setVisible(sign_in)
        self.connection.setText(text)
        self.connection.setToolTip(text)
        self.retry.setVisible(retry)
        self.tone = tone if tone in TONE_COLOURS else "busy"
        self.dot.setStyleSheet(f"color: {TONE_COLOURS[self.tone]};")
        self.dot.setToolTip(text)

    def set_unsent(self, text: str, tip: str = "") -> None:
        """The unsent count (hidden when ``text`` is empty); ``tip`` names the servers."""
        self.unsent.setText(text)
        self.unsent.setToolTip(
            "Show messages that have not reached the server yet"
            + (f" ({tip})" if tip else ""))
        self.unsent.setVisible(bool(text))

    def set_banner(self, text: str | None, action: str = "") -> None:
        """Show the keyring fallback banner (``None`` hides it); while a temporary message
        shows, the banner waits for it to end (the two share the bar's left part and never
        draw over each other)."""
        self.banner.setText(text or "")
        self.remember.setText(action)
        self._banner_wanted = bool(text)
        self._show_banner()

    def _show_banner(self) -> None:
        shown = self._banner_wanted and not self.currentMessage()
        self.banner.setVisible(shown)
        self.remember.setVisible(shown and bool(self.remember.text()))


def _preview_runs(text: str) -> list[tuple[str, bool]]:
    """``(text, is_chip)`` runs of a message, whitespace folded, chips as their labels, cut to
    ``PREVIEW_CHARS`` characters (a chip is never cut)."""
    runs: list[tuple[str, bool]] = []
    used = 0
    for segment in split_segments(text):
        if segment.kind is not None:
            part, chip = segment.label, True
        else:
            part, chip = " ".join(text[segment.start:segment.end].split()), False
            if text[segment.start:segment.end][:1].isspace() and runs:
                part = " " + part
            if text[segment.start:segment.end][-1:].isspace() and part.strip():
                part += " "
        if used + len(part) > PREVIEW_CHARS:
            if not chip:
                runs.append((part[: max(0, PREVIEW_CHARS - 1 - used)] + "…", False))
            else:
                runs.append(("…", False))
            return runs
        if part:
            runs.append((part, chip))
            used += len(part)
    if runs and not runs[-1][1]:
        runs[-1] = (runs[-1][0].rstrip(), False)
    return runs


def outbox_line(row: OutboxRow, title: str, text: str) -> str:
    """One line of the unsent list: thread, state, a preview of the message (chips as their
    labels, never their Markdown) and, on a second line, why it was not sent."""
    preview = "".join(part for part, _ in _preview_runs(text))
    state = _STATE_TEXT.get(row.state, row.state)
    line = f"{title} — {state}: {preview}" if preview else f"{title} — {state}"
    return f"{line}\n{_sentence(reason_text(row.last_error))}" if row.last_error else line


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def outbox_html(row: OutboxRow, title: str, text: str) -> str:
    """The same line as ``outbox_line`` in rich text: chips as labels (class ``chip``), the
    reason under it (class ``reason``, red unless selected)."""
    chips = "".join(
        f'<span class="chip">&nbsp;{html.escape(part)}&nbsp;</span>'
        if chip else html.escape(part) for part, chip in _preview_runs(text))
    state = html.escape(_STATE_TEXT.get(row.state, row.state))
    body = f"<b>{html.escape(title)}</b> — {state}: {chips}" if chips else \
        f"<b>{html.escape(title)}</b> — {state}"
    if row.last_error:
        reason = html.escape(_sentence(reason_text(row.last_error)))
        body += f'<br><span class="reason">{reason}</span>'
    return body


class RichItemDelegate(QStyledItemDelegate):
    """Paints a list item from the rich text in ``RICH_ROLE`` (its plain text stays the item's
    text, for screen readers and search)."""

    def _document(self, option: QStyleOptionViewItem, index: Index) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        if option.state & QStyle.StateFlag.State_Selected:  # readable on the selection colour
            doc.setDefaultStyleSheet(".chip { background-color: rgba(255,255,255,60); }")
        else:
            doc.setDefaultStyleSheet(f".chip {{ background-color: {CHIP_BACKGROUND}; }} "
                                     f".reason {{ color: {TONE_COLOURS['error']}; }}")
        doc.setHtml(str(index.data(RICH_ROLE) or html.escape(str(index.data()))))
        doc.setTextWidth(max(80, option.rect.width() - 8))
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        self.initStyleOption(option, index)
        option.text = ""
        style = option.widget.style() if option.widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter,
                              option.widget)
        doc = self._document(option, index)
        painter.save()
        painter.translate(option.rect.left() + 4, option.rect.top() + 3)
        context = QAbstractTextDocumentLayout.PaintContext()
        if option.state & QStyle.StateFlag.State_Selected:
            context.palette.setColor(QPalette.ColorRole.Text,
                                     option.palette.color(QPalette.ColorRole.HighlightedText))
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        doc = self._document(option, index)
        return QSize(round(doc.idealWidth()) + 8, round(doc.size().height()) + 6)


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
        self.items.setItemDelegate(RichItemDelegate(self.items))
        self.items.setWordWrap(True)
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

    def set_items(self, lines: Sequence[tuple[str, str, str] | tuple[str, str, str, str]]) -> None:
        """``(message_id, state, line[, rich line])`` per queued message."""
        current = self.selected()
        self.items.clear()
        for message_id, state, line, *rich in lines:
            item = QListWidgetItem(line)
            if rich:
                item.setData(RICH_ROLE, rich[0])
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
