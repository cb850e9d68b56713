"""``SendCoordinator``: sending the composer's message, and the orderly stop that protects it.

Invariants: a send goes through ``AttachmentUploads.send_message`` (it waits for dropped files still
being registered with the client) and counts as pending until the sync client has queued it;
``shutdown`` keeps the event loop running until no send is pending and every dropped file is
registered with the engine (or the time is up), so it must run before ``SyncBridge.stop``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QEventLoop

SHUTDOWN_WAIT_MS = 5000
SHUTDOWN_POLL_MS = 50


class SendCoordinator:
    """Mixin of ``MainWindow``; expects ``editor``, ``uploads``, ``_pending_sends``, ``_closed``."""

    def _on_send_triggered(self) -> None:
        self.editor.request_send()

    def _on_editor_send_requested(self, text: str, context: Any) -> None:
        records = list(context.records) if context is not None else []
        ids = self.uploads.upload_ids(records)
        self._pending_sends += 1
        # Through the uploads, so a send waits for files still being registered with the client.
        self.uploads.send_message(self.current_thread, text, context, ids, self._on_sent)

    def _on_sent(self, result: Any, error: str) -> None:
        self._pending_sends -= 1
        self._on_command_done(result, error)

    @property
    def pending_sends(self) -> int:
        """Messages the user sent that the sync client has not queued yet."""
        return self._pending_sends

    def shutdown(self, timeout_ms: int = SHUTDOWN_WAIT_MS) -> bool:
        """Get ready for the sync engine to stop; True when nothing was left behind.

        Closes the window if it is open (geometry and draft saved), then keeps the event loop
        running until every message the user sent is queued in the client's outbox — a send that
        waits for a dropped file still being registered would otherwise be lost — and every
        dropped file is registered with the engine (its copy in app data then survives the quit
        and its upload resumes on the next start), or until ``timeout_ms`` passes. Idempotent;
        must run before ``SyncBridge.stop``.
        """
        if not self._closed:
            self.close()
        deadline = QDeadlineTimer(timeout_ms)
        while self._busy() and not deadline.hasExpired():
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents,
                                           SHUTDOWN_POLL_MS)
        return not self._busy()

    def _busy(self) -> bool:
        return self._pending_sends > 0 or self.uploads.registering() > 0
