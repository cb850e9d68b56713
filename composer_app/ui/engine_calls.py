"""``EngineCalls``: the window's typed requests to the sync engine.

Invariants: every request runs off the GUI thread through ``SyncBridge.submit``, and its
``then(result, error)`` callback runs on the GUI thread at most once — at once, with the error,
when the engine is not running; after ``close`` no more requests are made (the engine may already
be stopped; answers to earlier requests still arrive); a command issued without a callback
reports its error with ``failed`` (the window shows it in the status bar). Each method names the
engine method it calls and the type its answer has; nothing is called by a string name.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal, Slot

from composer_app.sync.engine import SyncEngine
from composer_app.sync.message_search import MessageHit
from composer_app.sync.outbox import EditedMessage
from composer_app.sync.store import MessageRow, OutboxRow, ThreadRow, UploadRow
from composer_app.sync.workspace import SkillInfo, WorkspaceChanges, WorkspaceEntry, WorkspaceFile
from composer_app.ui.active_bridge import ActiveBridge
from composer_app.ui.sync_bridge import SyncBridge

__all__ = ["EngineCalls", "Then"]

T = TypeVar("T")
Then = Callable[[T | None, str], None]
"""``then(result, error)``: ``result`` is ``None`` exactly when ``error`` is not empty (or the
engine answered ``None``)."""


class EngineCalls(QObject):
    """Typed, non-blocking calls into the sync engine for one window."""

    failed = Signal(str)  # the error of a command that had no callback of its own

    def __init__(self, bridge: SyncBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._callbacks: dict[int, Callable[[Any, str], None]] = {}
        self._closed = False
        bridge.request_finished.connect(self._on_bridge_request_finished)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Make no more calls (the window is closing; the engine may stop at any moment)."""
        self._closed = True

    # -- queries ---------------------------------------------------------------------------------
    def threads(self, then: Then[list[ThreadRow]]) -> int:
        """``SyncEngine.threads``: the cached thread list."""
        return self._submit(lambda e: e.threads(), then)

    def threads_of(self, account_id: str, then: Then[list[ThreadRow]]) -> int:
        """``SyncEngine.threads`` of one account's engine (several servers in the window)."""
        return self._submit(lambda e: e.threads(), then, account_id)

    def last_messages_of(self, account_id: str, then: Then[dict[str, MessageRow]]) -> int:
        """``SyncEngine.last_messages`` of one account's engine."""
        return self._submit(lambda e: e.last_messages(), then, account_id)

    def search_messages_of(self, account_id: str, query: str, limit: int,
                           then: Then[list[MessageHit]]) -> int:
        """``SyncEngine.search_messages`` of one account's engine."""
        return self._submit(lambda e: e.search_messages(query, limit), then, account_id)

    def messages(self, thread_id: str, then: Then[list[MessageRow]]) -> int:
        """``SyncEngine.messages``: a thread's cached messages, in order."""
        return self._submit(lambda e: e.messages(thread_id), then)

    def last_messages(self, then: Then[dict[str, MessageRow]]) -> int:
        """``SyncEngine.last_messages``: each thread's last message, by thread id."""
        return self._submit(lambda e: e.last_messages(), then)

    def search_messages(self, query: str, limit: int, then: Then[list[MessageHit]]) -> int:
        """``SyncEngine.search_messages``: cached messages matching ``query``, best first."""
        return self._submit(lambda e: e.search_messages(query, limit), then)

    def outbox_items(self, then: Then[list[OutboxRow]]) -> int:
        """``SyncEngine.outbox_items``: what has not reached the server yet."""
        return self._submit(lambda e: e.outbox_items(), then)

    def outbox_items_of(self, account_id: str, then: Then[list[OutboxRow]]) -> int:
        """``SyncEngine.outbox_items`` of one account's engine."""
        return self._submit(lambda e: e.outbox_items(), then, account_id)

    def asset_url(self, attachment_id: str, disposition: str, then: Then[str]) -> int:
        """``SyncEngine.asset_url``: a signed URL of an attachment."""
        return self._submit(lambda e: e.asset_url(attachment_id, disposition), then)

    def uploads(self, then: Then[list[UploadRow]]) -> int:
        """``SyncEngine.uploads``: every upload the client store holds."""
        return self._submit(lambda e: e.uploads(), then)

    # -- attachments -----------------------------------------------------------------------------
    def attach_file(self, path: Path, name: str, mime_type: str, local_id: str,
                    then: Then[UploadRow]) -> int:
        """``SyncEngine.attach_file``: copy a file into app data and start uploading it."""
        return self._submit(lambda e: e.attach_file(path, name, mime_type, local_id), then)

    def import_asset(self, attachment_id: str, name: str, mime_type: str, *, local_id: str,
                     source_url: str | None, source_token: str | None,
                     then: Then[UploadRow]) -> int:
        """``SyncEngine.import_asset``: fetch another environment's attachment and upload it."""
        return self._submit(lambda e: e.import_asset(
            attachment_id, name, mime_type, source_url=source_url, source_token=source_token,
            local_id=local_id), then)

    def cancel_upload(self, local_id: str, then: Then[bool]) -> int:
        """``SyncEngine.cancel_upload``: cancel an upload and release it on the server."""
        return self._submit(lambda e: e.cancel_upload(local_id), then)

    # -- the thread's workspace ------------------------------------------------------------------
    def search_files(self, thread_id: str, query: str, limit: int,
                     then: Then[list[WorkspaceEntry]]) -> int:
        """``SyncEngine.search_files``: quick-open search in the thread's workspace."""
        return self._submit(lambda e: e.search_files(thread_id, query, limit), then)

    def read_file(self, thread_id: str, path: str, then: Then[WorkspaceFile]) -> int:
        """``SyncEngine.read_file``: the text of a workspace file."""
        return self._submit(lambda e: e.read_file(thread_id, path), then)

    def changes(self, thread_id: str, then: Then[WorkspaceChanges]) -> int:
        """``SyncEngine.changes``: the workspace's changes against ``HEAD``."""
        return self._submit(lambda e: e.changes(thread_id), then)

    def skills(self, thread_id: str | None, then: Then[list[SkillInfo]]) -> int:
        """``SyncEngine.skills``: the server's skills (and the thread workspace's)."""
        return self._submit(lambda e: e.skills(thread_id), then)

    def run_command(self, thread_id: str, command: str, on_output: Callable[[str], None],
                    then: Then[dict[str, Any]]) -> Callable[[], None]:
        """``SyncEngine.run_command``; ``on_output`` runs on the engine thread. Returns a cancel
        callable (the engine then ends the run and ``then`` gets the cancellation error)."""
        started: list[concurrent.futures.Future[dict[str, Any]]] = []

        def start(engine: SyncEngine) -> concurrent.futures.Future[dict[str, Any]]:
            future = engine.run_command(thread_id, command, on_output=on_output)
            started.append(future)
            return future

        self._submit(start, then)

        def cancel() -> None:
            for future in started:
                future.cancel()

        return cancel

    def set_thread_workspace(self, thread_id: str, path: str | None) -> int:
        """``SyncEngine.set_thread_workspace``: set (``None``: remove) the workspace folder."""
        return self._submit(lambda e: e.set_thread_workspace(thread_id, path), None)

    # -- commands (queued by the engine like every change) ----------------------------------------
    def send_message(self, thread_id: str, text: str, context: Any, upload_ids: list[str],
                     then: Then[str]) -> int:
        """``SyncEngine.send_message``: queue a message; ``then`` gets its id."""
        return self._submit(lambda e: e.send_message(thread_id, text, context, upload_ids), then)

    def create_thread(self, title: str | None, then: Then[str]) -> int:
        """``SyncEngine.create_thread``; ``then`` gets the new thread's id."""
        return self._submit(lambda e: e.create_thread(title), then)

    def rename_thread(self, thread_id: str, title: str) -> int:
        return self._submit(lambda e: e.rename_thread(thread_id, title), None)

    def set_thread_provider(self, thread_id: str, provider: str) -> int:
        return self._submit(lambda e: e.set_thread_provider(thread_id, provider), None)

    def retry(self, message_id: str, account_id: str | None = None) -> int:
        """Send an unsent message again (from ``account_id``'s outbox when given)."""
        return self._submit(lambda e: e.retry(message_id), None, account_id)

    def delete(self, message_id: str, account_id: str | None = None) -> int:
        """Drop an unsent message (from ``account_id``'s outbox when given)."""
        return self._submit(lambda e: e.delete(message_id), None, account_id)

    def edit(self, message_id: str, then: Then[EditedMessage],
             account_id: str | None = None) -> int:
        """Take an unsent message back out of the outbox (text and context for the composer;
        from ``account_id``'s outbox when given)."""
        return self._submit(lambda e: e.edit(message_id), then, account_id)

    def set_token(self, token: str) -> int:
        """``SyncEngine.set_token``: sign in again without a restart."""
        return self._submit(lambda e: e.set_token(token), None)

    def retry_now(self) -> None:
        """*Retry now*: wake the socket's backoff and the queues."""
        if self._closed:
            return
        try:
            self._bridge.retry_now()
        except RuntimeError as exc:  # the engine is not running
            self.failed.emit(str(exc))

    # -- plumbing --------------------------------------------------------------------------------
    def _submit(self, start: Callable[[SyncEngine], concurrent.futures.Future[T]],
                then: Then[T] | None, account_id: str | None = None) -> int:
        """The request id, or -1 when no request was made (closed, or the engine not running).
        ``account_id`` names the account whose engine answers (the active one by default)."""
        if self._closed:
            return -1
        report: Callable[[Any, str], None] = then if then is not None else self._report
        try:
            if account_id is not None and isinstance(self._bridge, ActiveBridge):
                request_id = self._bridge.submit_to(account_id, start)
            else:
                request_id = self._bridge.submit(start)
        except RuntimeError as exc:  # the engine is not running
            report(None, str(exc))
            return -1
        self._callbacks[request_id] = report
        return request_id

    def _report(self, _result: object, error: str) -> None:
        if error:
            self.failed.emit(error)

    @Slot(int, object, str)
    def _on_bridge_request_finished(self, request_id: int, result: Any, error: str) -> None:
        then = self._callbacks.pop(request_id, None)
        if then is not None:
            then(result, error)
