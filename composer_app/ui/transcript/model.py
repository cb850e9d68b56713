"""``TranscriptModel``: the list-model adapter over the Qt-free ``Transcript``.

Invariants: rows are the transcript's messages in order and a row never moves; the model holds no
rules of its own — events go to ``Transcript.apply_event`` and the result becomes exactly one
``rowsInserted`` or ``dataChanged``; ``MessageRole`` hands the delegate the row's
``TranscriptMessage`` (its ``revision`` keys every render cache).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from composer_app.ui.transcript.transcript_logic import (
    Change,
    Transcript,
    TranscriptMessage,
    message_from_wire,
)

MessageRole = int(Qt.ItemDataRole.UserRole) + 1
RevisionRole = MessageRole + 1

Index = QModelIndex | QPersistentModelIndex


class TranscriptModel(QAbstractListModel):
    """One row per message of one thread."""

    def __init__(self, parent: QObject | None = None, *, public: bool = False) -> None:
        super().__init__(parent)
        self.transcript = self._hook(Transcript(public=public))

    @property
    def public(self) -> bool:
        """Whether the thread is public (no private connector, download or file controls)."""
        return self.transcript.public

    def set_public(self, public: bool) -> None:
        """Mark the thread public or private (rows repaint without file or download controls)."""
        self.transcript.public = public
        if self.rowCount():
            self.dataChanged.emit(self.index(0), self.index(self.rowCount() - 1), [MessageRole])

    def load(self, messages: Iterable[Mapping[str, Any] | TranscriptMessage]) -> None:
        """Replace every row with ``messages`` (wire dicts or rows)."""
        self.beginResetModel()
        rows = [m if isinstance(m, TranscriptMessage) else message_from_wire(m) for m in messages]
        self.transcript = self._hook(Transcript(rows, public=self.transcript.public))
        self.endResetModel()

    def apply_event(self, event: Mapping[str, Any] | Any) -> Change:
        """Apply one log event; returns what changed."""
        return self._notify(self.transcript, lambda t: t.apply_event(event))

    def add_message(self, message: Mapping[str, Any] | TranscriptMessage) -> Change:
        """Append one message (or replace the row with its id)."""
        row = message if isinstance(message, TranscriptMessage) else message_from_wire(message)
        return self._notify(self.transcript, lambda t: t.add(row))

    def _hook(self, transcript: Transcript) -> Transcript:
        transcript.before_insert = lambda row: self.beginInsertRows(QModelIndex(), row, row)
        transcript.after_insert = self.endInsertRows
        return transcript

    def _notify(self, transcript: Transcript, apply: Callable[[Transcript], Change]) -> Change:
        change = apply(transcript)
        if change.kind == "changed":
            index = self.index(change.row)
            self.dataChanged.emit(index, index, [MessageRole, RevisionRole])
        return change

    def message(self, row: int) -> TranscriptMessage | None:
        """The message at ``row``."""
        if 0 <= row < len(self.transcript):
            return self.transcript.messages[row]
        return None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.transcript)

    def data(self, index: Index, role: int = int(Qt.ItemDataRole.DisplayRole)) -> Any:
        message = self.message(index.row()) if index.isValid() else None
        if message is None:
            return None
        if role == MessageRole:
            return message
        if role == RevisionRole:
            return message.revision
        if role in (int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.AccessibleTextRole)):
            return message.text
        return None
