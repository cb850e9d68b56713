"""``AttachmentShelf``: the thumbnail shelf under the composer (a real list view over a model).

Invariants: it shows every image of the draft (with its name and upload state) and, after them,
every other context item that has chips, so each chip is reachable by keyboard and screen reader;
it is keyboard reachable (Tab), Delete or Backspace removes the current item and Enter retries a
failed upload; each item has a remove button; removing an item that chips still reference asks
``Remove {name} from the message?`` / ``Removing it also removes every reference.`` first, and
then removes the item and every chip pointing at it in one undo step; thumbnails are decoded off
the GUI thread; the shelf hides itself when it is empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QImage, QImageReader, QKeyEvent, QMouseEvent, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QMessageBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from composer_app.ui.composer.attachments_logic import Notice, removal_confirmation, shelf_rows
from composer_app.ui.composer.shelf_model import ShelfModel

if TYPE_CHECKING:
    from PySide6.QtCore import QAbstractItemModel

    from composer_app.ui.composer.editor import ComposerEditor

THUMBNAIL_SIZE = 48
_REMOVE_SIZE = 16
_Index = QModelIndex | QPersistentModelIndex


def confirmation_box(parent: QWidget | None, notice: Notice) -> QMessageBox:
    """The removal question as a message box (Remove / Cancel, Cancel by default)."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("Remove attachment")
    box.setText(notice.title)
    box.setInformativeText(notice.detail)
    remove = box.addButton("Remove", QMessageBox.ButtonRole.DestructiveRole)
    remove.setObjectName("remove")
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    return box


def ask(parent: QWidget | None, notice: Notice) -> bool:
    """Ask ``notice`` modally; True when the user chose Remove."""
    box = confirmation_box(parent, notice)
    box.exec()
    clicked = box.clickedButton()
    return clicked is not None and clicked.objectName() == "remove"


def load_thumbnail(path: str, size: int = THUMBNAIL_SIZE) -> QImage:
    """A scaled thumbnail of the image at ``path`` (safe on a worker thread; null on failure)."""
    reader = QImageReader(path)
    reader.setAutoTransform(True)
    full = reader.size()
    if full.isValid():
        reader.setScaledSize(full.scaled(size, size, Qt.AspectRatioMode.KeepAspectRatio))
    return reader.read()


def _remove_rect(item: QRect) -> QRect:
    return QRect(item.right() - _REMOVE_SIZE - 2, item.top() + 2, _REMOVE_SIZE, _REMOVE_SIZE)


class _ShelfDelegate(QStyledItemDelegate):
    """Paints each item with its remove button and reacts to clicks on it."""

    def __init__(self, shelf: AttachmentShelf) -> None:
        super().__init__(shelf)
        self._shelf = shelf

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        hint = super().sizeHint(option, index)
        return QSize(max(hint.width() + _REMOVE_SIZE, 120), max(hint.height(), 56))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        super().paint(painter, option, index)
        rect = _remove_rect(option.rect)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(option.palette.text().color())
        painter.drawEllipse(rect.adjusted(1, 1, -1, -1))
        inner = rect.adjusted(5, 5, -5, -5)
        painter.drawLine(inner.topLeft(), inner.bottomRight())
        painter.drawLine(inner.topRight(), inner.bottomLeft())
        painter.restore()

    def editorEvent(self, event: QEvent, model: QAbstractItemModel,
                    option: QStyleOptionViewItem, index: _Index) -> bool:
        if (event.type() == QEvent.Type.MouseButtonRelease and isinstance(event, QMouseEvent)
                and _remove_rect(option.rect).contains(
                    event.position().toPoint())):
            self._shelf.request_removal(index.row())
            return True
        return super().editorEvent(event, model, option, index)


class AttachmentShelf(QListView):
    """The composer's attachment shelf, bound to one editor."""

    def __init__(self, editor: ComposerEditor, parent: QWidget | None = None, *,
                 confirm: Callable[[Notice], bool] | None = None) -> None:
        super().__init__(parent)
        self._editor = editor
        self.confirm: Callable[[Notice], bool] = confirm or (lambda n: ask(self, n))
        self._model = ShelfModel(self)
        self._loading: set[str] = set()
        self.setModel(self._model)
        self.setItemDelegate(_ShelfDelegate(self))
        self.setAccessibleName("Attachments")
        self.setAccessibleDescription(
            "Images and context items of the message. Delete removes the selected item.")
        self.setFlow(QListView.Flow.LeftToRight)
        self.setWrapping(False)
        self.setIconSize(QSize(THUMBNAIL_SIZE, THUMBNAIL_SIZE))
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFixedHeight(THUMBNAIL_SIZE + 40)
        self.setMouseTracking(True)
        editor.context_changed.connect(self.refresh)
        editor.draft_changed.connect(self.refresh)
        self.refresh()

    @property
    def shelf_model(self) -> ShelfModel:
        """The model behind the view."""
        return self._model

    def refresh(self) -> None:
        """Re-read the editor's draft, chips and uploads."""
        editor = self._editor
        current = self.currentIndex().row()
        rows = shelf_rows(editor.draft, editor.chip_counts(), editor.uploads.statuses())
        self._model.set_rows(rows)
        self.setVisible(bool(rows))
        if rows and not self.currentIndex().isValid():
            self.setCurrentIndex(self._model.index(min(max(current, 0), len(rows) - 1), 0))
        for row in rows:
            if row.is_image and not self._model.has_thumbnail(row.context_id):
                self._load_thumbnail(row.context_id)

    def _load_thumbnail(self, context_id: str) -> None:
        editor = self._editor
        record = editor.draft.records.get(context_id)
        path = editor.uploads.source_path(record.attachment_id) if record is not None else None
        if path is None or context_id in self._loading:
            return
        self._loading.add(context_id)

        def done(result: Any) -> None:
            self._loading.discard(context_id)
            if isinstance(result, QImage):
                self._model.set_thumbnail(context_id, result)

        editor.uploads.files.runner(lambda: load_thumbnail(path), done)

    def request_removal(self, row: int) -> bool:
        """Remove the item at ``row`` (asking first when chips reference it); True if removed."""
        item = self._model.row_at(row)
        if item is None:
            return False
        question = removal_confirmation(item)
        if question is not None and not self.confirm(question):
            return False
        self._editor.remove_context(item.context_id)
        self.refresh()
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        index = self.currentIndex()
        if index.isValid() and event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.request_removal(index.row())
            event.accept()
            return
        if index.isValid() and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            item = self._model.row_at(index.row())
            if item is not None and item.upload is not None and item.upload.failed:
                self._editor.retry_upload(item.context_id)
            event.accept()
            return
        super().keyPressEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), THUMBNAIL_SIZE + 40)

