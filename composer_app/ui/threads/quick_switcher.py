"""``QuickSwitcher``: the Ctrl+K popup that jumps to a thread by fuzzy title match.

Invariants: the list shows what ``quick_switcher_logic.rank`` returns for the typed query (most
recent first for an empty query); Up/Down move the selection without leaving the search field;
Enter (or a click) emits ``thread_chosen`` once and closes; Escape closes without choosing.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from composer_app.ui.threads.quick_switcher_logic import rank

MAX_RESULTS = 50
_NAV_KEYS = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)


class QuickSwitcher(QDialog):
    """A small modal popup: search field over a ranked list of threads."""

    thread_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Switch to thread")
        self.setModal(True)
        self.resize(460, 360)
        self._threads: list[tuple[str, str]] = []
        self.query = QLineEdit(self)
        self.query.setPlaceholderText("Type part of a thread title…")
        self.query.setAccessibleName("Thread title")
        self.results = QListWidget(self)
        self.results.setAccessibleName("Matching threads")
        self.results.setUniformItemSizes(True)
        self.results.setStyleSheet("QListWidget::item { padding: 5px 6px; }")  # as the list
        self.empty = QLabel("No thread matches.", self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.addWidget(self.query)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.empty)
        self.query.installEventFilter(self)
        self._connect_signals()

    def _connect_signals(self) -> None:
        self.query.textChanged.connect(self._on_query_text_changed)
        self.query.returnPressed.connect(self._on_query_return_pressed)
        self.results.itemActivated.connect(self._on_results_item_activated)
        self.results.itemClicked.connect(self._on_results_item_activated)

    def set_threads(self, threads: Sequence[tuple[str, str]]) -> None:
        """``(thread_id, title)`` pairs, most recent first."""
        self._threads = list(threads)
        self._fill()

    def open_switcher(self) -> None:
        """Clear the query and show."""
        self.query.clear()
        self._fill()
        self.show()
        self.raise_()
        self.activateWindow()
        self.query.setFocus()

    def shown_ids(self) -> list[str]:
        """The thread ids listed, in order."""
        return [str(self.results.item(i).data(Qt.ItemDataRole.UserRole))
                for i in range(self.results.count())]

    def _fill(self) -> None:
        ranked = rank(self.query.text(), self._threads, lambda t: t[1], MAX_RESULTS)
        self.results.clear()
        for (thread_id, title), _match in ranked:
            item = QListWidgetItem(title)
            item.setData(Qt.ItemDataRole.UserRole, thread_id)
            self.results.addItem(item)
        if self.results.count():
            self.results.setCurrentRow(0)
        self.empty.setVisible(not ranked)

    def _choose(self, item: QListWidgetItem | None) -> None:
        if item is None:
            return
        thread_id = str(item.data(Qt.ItemDataRole.UserRole))
        self.accept()
        self.thread_chosen.emit(thread_id)

    def _on_query_text_changed(self, _text: str) -> None:
        self._fill()

    def _on_query_return_pressed(self) -> None:
        self._choose(self.results.currentItem())

    def _on_results_item_activated(self, item: QListWidgetItem) -> None:
        self._choose(item)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.query and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent) and event.key() in _NAV_KEYS):
            self.results.keyPressEvent(event)  # move the selection, keep typing focus
            return True
        return super().eventFilter(watched, event)
