"""``ShareDialog``: *Thread ▸ Share…* — create a read-only link of a thread, copy it, revoke links.

Invariants: the dialog talks to a ``ShareService`` (the sync engine's ``create_share``,
``list_shares`` and ``revoke_share``, each returning a ``concurrent.futures.Future``) and applies
every answer on the Qt thread; its state and texts live in ``share_logic``; a failure shows the
``ShareError`` reason and never closes the dialog; Revoke acts on the selected link only.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from composer_app.sync.shares import ShareError, ShareLink
from composer_app.ui.transcript.share_logic import EXPLANATION, ShareState, link_label

FAILED = "The share links could not be changed."


class ShareService(Protocol):
    def create_share(self, thread_id: str) -> concurrent.futures.Future[ShareLink]: ...

    def list_shares(self, thread_id: str) -> concurrent.futures.Future[list[ShareLink]]: ...

    def revoke_share(self, thread_id: str, share_id: str) -> concurrent.futures.Future[None]: ...


class _Relay(QObject):
    """Carries a finished future's outcome to the Qt thread."""

    done = Signal(object, object)  # apply(result), future


class ShareDialog(QDialog):
    """The share dialog of one thread."""

    def __init__(self, service: ShareService, thread_id: str, title: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shareDialog")
        self.setWindowTitle(f"Share “{title}”" if title else "Share thread")
        self.service, self.thread_id = service, thread_id
        self.state = ShareState()
        self._relay = _Relay(self)
        self._relay.done.connect(self._finish, Qt.ConnectionType.QueuedConnection)

        explanation = QLabel(EXPLANATION, self)
        explanation.setWordWrap(True)
        self.create_button = QPushButton("Create link", self)
        self.create_button.setObjectName("shareCreateButton")
        self.link_field = QLineEdit(self)
        self.link_field.setObjectName("shareLinkField")
        self.link_field.setReadOnly(True)
        self.link_field.setPlaceholderText("No link created yet")
        self.link_field.setAccessibleName("Share link")
        self.copy_button = QPushButton("Copy link", self)
        self.copy_button.setObjectName("shareCopyButton")
        self.hint = QLabel(self)
        self.hint.setObjectName("shareHint")
        self.hint.setWordWrap(True)
        self.links = QListWidget(self)
        self.links.setObjectName("shareLinks")
        self.links.setAccessibleName("Active share links")
        self.revoke_button = QPushButton("Revoke", self)
        self.revoke_button.setObjectName("shareRevokeButton")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)

        row = QHBoxLayout()
        row.addWidget(self.link_field, 1)
        row.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.addWidget(explanation)
        layout.addWidget(self.create_button)
        layout.addLayout(row)
        layout.addWidget(self.hint)
        layout.addWidget(QLabel("Active links", self))
        layout.addWidget(self.links)
        layout.addWidget(self.revoke_button, 0, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(buttons)

        self.create_button.clicked.connect(self.create_link)
        self.copy_button.clicked.connect(self.copy_link)
        self.revoke_button.clicked.connect(self.revoke_selected)
        self.links.currentRowChanged.connect(lambda _row: self._render())
        self._render()
        self._run(service.list_shares(thread_id), self.state.loaded)

    # actions ---------------------------------------------------------------------------------
    def create_link(self) -> None:
        self._run(self.service.create_share(self.thread_id), self.state.created)

    def copy_link(self) -> None:
        if self.state.created_url:
            QGuiApplication.clipboard().setText(self.state.created_url)

    def revoke_selected(self) -> None:
        item = self.links.currentItem()
        if item is None:
            return
        share_id = str(item.data(Qt.ItemDataRole.UserRole))
        self._run(self.service.revoke_share(self.thread_id, share_id),
                  lambda _none: self.state.revoked(share_id))

    # plumbing --------------------------------------------------------------------------------
    def _run(self, future: concurrent.futures.Future[Any], apply: Callable[[Any], None]) -> None:
        self.state.busy = True
        self._render()
        future.add_done_callback(lambda done: self._relay.done.emit(apply, done))

    def _finish(self, apply: Callable[[Any], None], future: concurrent.futures.Future[Any]
                ) -> None:
        try:
            result = future.result()
        except ShareError as exc:
            self.state.failed(exc.reason)
        except Exception:  # the engine stopped or another transport failure
            self.state.failed(FAILED)
        else:
            apply(result)
        self._render()

    def _render(self) -> None:
        state = self.state
        self.create_button.setEnabled(not state.busy)
        self.link_field.setText(state.created_url or "")
        self.copy_button.setEnabled(bool(state.created_url))
        self.hint.setText(state.hint())
        selected = self.links.currentItem()
        keep = selected.data(Qt.ItemDataRole.UserRole) if selected is not None else None
        shown = [self.links.item(i).data(Qt.ItemDataRole.UserRole)
                 for i in range(self.links.count())]
        if shown != [link.share_id for link in state.links]:
            self.links.blockSignals(True)  # repopulating is not a selection change
            self.links.clear()
            for link in state.links:
                item = QListWidgetItem(link_label(link))
                item.setData(Qt.ItemDataRole.UserRole, link.share_id)
                self.links.addItem(item)
                if link.share_id == keep:
                    self.links.setCurrentItem(item)
            self.links.blockSignals(False)
        self.revoke_button.setEnabled(not state.busy and self.links.currentItem() is not None)
