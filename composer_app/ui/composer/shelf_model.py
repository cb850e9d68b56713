"""``ShelfModel``: the rows of the attachment shelf as a Qt list model.

Invariants: the rows are exactly ``attachments_logic.shelf_rows`` of the editor's draft (images
first, then mirrored context items that have chips); ``set_rows`` changes nothing and emits nothing
when the rows are equal, updates rows in place when only their contents changed, and resets only
when the set or order of items changed; every row answers ``DisplayRole`` with its name and upload
state, ``AccessibleTextRole`` with its spoken name, and ``DecorationRole`` with a thumbnail (images,
once loaded) or the kind's icon, and ``THUMBNAIL_ROLE`` with the thumbnail pixmap (or ``None``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QIcon, QImage, QPixmap

from composer_app.ui.composer.attachments_logic import ShelfRow, upload_phrase

CONTEXT_ID_ROLE = int(Qt.ItemDataRole.UserRole) + 1
ROW_ROLE = int(Qt.ItemDataRole.UserRole) + 2
THUMBNAIL_ROLE = int(Qt.ItemDataRole.UserRole) + 3

_Index = QModelIndex | QPersistentModelIndex


class ShelfModel(QAbstractListModel):
    """Images of the draft and mirrored context items, with thumbnails and upload state."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[ShelfRow] = []
        self._thumbnails: dict[str, QPixmap] = {}

    # -- contents ----------------------------------------------------------------------------------
    def rows(self) -> list[ShelfRow]:
        """The current rows."""
        return list(self._rows)

    def row_at(self, row: int) -> ShelfRow | None:
        """The row at ``row``, if any."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def index_of(self, context_id: str) -> QModelIndex:
        """The index of the item with ``context_id`` (invalid when absent)."""
        for n, row in enumerate(self._rows):
            if row.context_id == context_id:
                return self.index(n, 0)
        return QModelIndex()

    def set_rows(self, rows: list[ShelfRow]) -> None:
        """Show ``rows`` (minimal change notifications)."""
        if rows == self._rows:
            return
        if [r.context_id for r in rows] == [r.context_id for r in self._rows]:
            changed = [n for n, (a, b) in enumerate(zip(rows, self._rows, strict=True)) if a != b]
            self._rows = list(rows)
            for n in changed:
                self.dataChanged.emit(self.index(n, 0), self.index(n, 0))
            return
        self.beginResetModel()
        self._rows = list(rows)
        keep = {r.context_id for r in rows}
        self._thumbnails = {k: v for k, v in self._thumbnails.items() if k in keep}
        self.endResetModel()

    def has_thumbnail(self, context_id: str) -> bool:
        """True once a thumbnail was set for ``context_id``."""
        return context_id in self._thumbnails

    def set_thumbnail(self, context_id: str, image: QImage) -> None:
        """Use ``image`` (already scaled, loaded off-thread) as the item's thumbnail."""
        if image.isNull():
            return
        self._thumbnails[context_id] = QPixmap.fromImage(image)
        index = self.index_of(context_id)
        if index.isValid():
            self.dataChanged.emit(index, index,
                                  [int(Qt.ItemDataRole.DecorationRole), THUMBNAIL_ROLE])

    # -- QAbstractListModel ------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _Index, role: int = int(Qt.ItemDataRole.DisplayRole)) -> Any:
        row = self.row_at(index.row()) if index.isValid() else None
        if row is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            phrase = upload_phrase(row.upload)
            return f"{row.name}\n{phrase}" if phrase else row.name
        if role in (Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            return row.accessible_name
        if role == Qt.ItemDataRole.DecorationRole:
            pixmap = self._thumbnails.get(row.context_id)
            return QIcon(pixmap) if pixmap is not None else _kind_icon(row.kind)
        if role == THUMBNAIL_ROLE:
            return self._thumbnails.get(row.context_id)
        if role == CONTEXT_ID_ROLE:
            return row.context_id
        if role == ROW_ROLE:
            return row
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


_ICON_NAMES = {
    "image": "image-x-generic",
    "file": "text-x-generic",
    "terminal": "utilities-terminal",
}


def _kind_icon(kind: str) -> QIcon:
    return QIcon.fromTheme(_ICON_NAMES.get(kind, "text-x-generic"))
