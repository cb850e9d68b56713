"""``ComposerArea``: the bottom of the centre — the composer with its Send button, attachment shelf,
notices and hint — and the sends it makes, up to the orderly stop that protects them.

Invariants: the composer always shows the draft of the thread ``show_thread`` named (the draft
autosave switches with it, and the editor and Send are enabled together once a thread is shown);
a send goes through ``AttachmentUploads.send_message`` (it waits for dropped files still being
registered with the client) and counts as pending until the sync client has queued it; a failed
send reports its error with ``status_message``; ``wait_until_idle`` keeps the event loop running
until no send is pending and every dropped file is registered with the engine (or the time is up).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QEventLoop, Qt, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from composer_app.core.contracts.messages import MessageContext, decode_message_context
from composer_app.core.document.store import DraftStore
from composer_app.sync.outbox import EditedMessage
from composer_app.ui.composer.attachment_uploads import AttachmentUploads
from composer_app.ui.composer.drafts import DraftAutosave
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.insertion import ContextInsertionRouter
from composer_app.ui.composer.notices import NoticeBar
from composer_app.ui.composer.shelf import AttachmentShelf

__all__ = ["COMPOSER_HINT", "SHUTDOWN_POLL_MS", "SHUTDOWN_WAIT_MS", "ComposerArea"]

COMPOSER_HINT = ("Paste or drop files to attach them · Ctrl+S stashes the prompt · "
                 "Ctrl+K switches threads")
SHUTDOWN_WAIT_MS = 5000
SHUTDOWN_POLL_MS = 50


class ComposerArea(QWidget):
    """The composer of the open thread and the messages it sends."""

    status_message = Signal(str)  # a send that failed, in words for the status bar

    def __init__(self, uploads: AttachmentUploads, draft_store: DraftStore,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composerArea")
        self.uploads = uploads
        self.draft_store = draft_store
        self.router = ContextInsertionRouter(draft_store)
        self.autosave: DraftAutosave | None = None
        self._thread_id = ""
        self._pending_sends = 0
        self._enabled = False
        self._send_blocked = ""
        self.editor = ComposerEditor(self)
        self.editor.setMinimumHeight(72)
        self.editor.use_uploads(uploads)
        self.send_button = QPushButton("Send", self)
        self.send_button.setToolTip("Send (Enter)")
        self.send_button.setDefault(False)
        self.hint = QLabel(COMPOSER_HINT, self)  # the editor's placeholder has Enter
        self.hint.setObjectName("composerHint")
        self.hint.setEnabled(False)
        self.shelf = AttachmentShelf(self.editor, self)
        self.notices = NoticeBar(self)
        column = QVBoxLayout(self)
        column.setContentsMargins(10, 6, 10, 8)
        column.setSpacing(4)
        self._row = QHBoxLayout()
        self._row.setSpacing(8)
        self._row.addWidget(self.editor, 1)
        self._row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        column.addLayout(self._row, 1)
        column.addWidget(self.shelf)
        column.addWidget(self.notices)
        column.addWidget(self.hint)
        self._column = column
        self.set_enabled(False)
        self.editor.send_requested.connect(self._on_editor_send_requested)
        self.editor.notice_posted.connect(self.notices.post)
        self.uploads.notice_posted.connect(self.notices.post)
        self.send_button.clicked.connect(self.send)

    def add_context_widgets(self, add_button: QWidget, workspace_label: QWidget,
                            *bars: QWidget) -> None:
        """Place the ``+`` button left of the editor, ``bars`` (command mode, pull-request
        offer) above it and the workspace label under the hint."""
        self._row.insertWidget(0, add_button, 0, Qt.AlignmentFlag.AlignBottom)
        for index, bar in enumerate(bars):
            bar.setParent(self)
            bar.hide()
            self._column.insertWidget(index, bar)
        self._column.addWidget(workspace_label)

    # -- the open thread -------------------------------------------------------------------------
    def show_thread(self, thread_id: str) -> None:
        """Show ``thread_id``'s draft (the current one is saved first) and enable the composer."""
        self._thread_id = thread_id
        if self.autosave is None:
            self.autosave = DraftAutosave(self.editor, self.draft_store, thread_id,
                                          router=self.router)
        else:
            self.autosave.switch_thread(thread_id)
        self.editor.thread_id = thread_id
        self.set_enabled(True)

    def set_enabled(self, enabled: bool) -> None:
        """The editor and the Send button, together (Send stays off while a send is
        blocked)."""
        self._enabled = enabled
        self.editor.setEnabled(enabled)
        self.send_button.setEnabled(enabled and not self._send_blocked)

    def set_send_blocked(self, reason: str) -> None:
        """Refuse sends while ``reason`` is not empty (the open thread's server has no engine):
        the Send button is off with the reason as its tooltip, and Enter keeps the draft and
        says why."""
        self._send_blocked = reason
        self.editor.send_blocked = reason
        self.send_button.setToolTip(reason or "Send (Enter)")
        self.send_button.setEnabled(self._enabled and not reason)

    def set_environment_id(self, environment_id: str) -> None:
        """Chips and copies name the environment the window is connected to."""
        self.editor.environment_id = environment_id

    def focus_editor(self) -> None:
        """Put the keyboard focus in the composer, the caret after the draft's last character."""
        self.editor.moveCursor(QTextCursor.MoveOperation.End)
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    def load_edited(self, edited: EditedMessage) -> None:
        """Put an unsent message taken back with *Edit* into the composer."""
        context = decode_message_context(edited.context) if edited.context else None
        self.editor.set_markdown(edited.text, list(context.records) if context else [])
        self.editor.setFocus()

    def flush_draft(self) -> None:
        """Write the draft now (the window is closing)."""
        if self.autosave is not None:
            self.autosave.flush()

    # -- composer commands -----------------------------------------------------------------------
    def send(self) -> None:
        """Send the prompt if it can be sent (Enter, the Send button, *Edit ▸ Send message*)."""
        self.editor.request_send()

    def stash_prompt(self) -> None:
        """Ctrl+S: stash the prompt (or restore the newest stash into an empty composer)."""
        self.editor.toggle_stash()

    def restore_stash(self) -> None:
        self.editor.restore_stash()

    def paste_plain(self) -> None:
        """Ctrl+Shift+V: paste into the composer as plain text."""
        self.editor.setFocus()
        self.editor.attachments.paste_plain()

    # -- sends -----------------------------------------------------------------------------------
    @property
    def pending_sends(self) -> int:
        """Messages the user sent that the sync client has not queued yet."""
        return self._pending_sends

    def busy(self) -> bool:
        """A send is not queued yet, or a dropped file is not registered with the engine yet."""
        return self._pending_sends > 0 or self.uploads.registering() > 0

    def wait_until_idle(self, timeout_ms: int = SHUTDOWN_WAIT_MS) -> bool:
        """Keep the event loop running until ``busy()`` is over or ``timeout_ms`` passes; True
        when nothing is left behind."""
        deadline = QDeadlineTimer(timeout_ms)
        while self.busy() and not deadline.hasExpired():
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents,
                                           SHUTDOWN_POLL_MS)
        return not self.busy()

    def _on_editor_send_requested(self, text: str, context: MessageContext | None) -> None:
        records = list(context.records) if context is not None else []
        ids = self.uploads.upload_ids(records)
        self._pending_sends += 1
        # Through the uploads, so a send waits for files still being registered with the client.
        self.uploads.send_message(self._thread_id, text, context, ids, self._on_sent)

    def _on_sent(self, _result: Any, error: str) -> None:
        self._pending_sends -= 1
        if error:
            self.status_message.emit(error)
