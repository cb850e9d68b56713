"""Glue between the composer's attachments and the sync client (through ``SyncBridge``).

Invariants: an upload starts when a file is attached, keyed by the record's attachment id (the
local id ``local_<hex>``), so the record and its upload never need a separate map; upload state
changes arrive on the GUI thread and are re-emitted per attachment (``status_changed``); a failed
upload can be retried from the same source file; a pasted image or file from another environment
is fetched through that environment's signed asset URL and attached here as a new upload, and a
failure reports one of the contract's reason lines; when the last chip of an attachment is gone
for good (its tombstone is collected) the upload is cancelled on the server and any file this app
generated for it is deleted. Without a bridge (no server) attachments stay ``local``.

The client store is the one truth for an upload's local id, server id and state: at start the
uploads it holds are read back (``restore``), so a draft restored after a restart finds its files'
uploads, and the sync client resolves every bound record through the store again when it sends.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from composer_app.core.codecs.imports import BinaryFetch
from composer_app.sync.assets import (
    DOWNLOAD_FAILED,
    NO_LONGER_AVAILABLE,
    NOT_CONNECTED,
)
from composer_app.ui.composer.attachments_logic import (
    ATTACHMENT_KINDS,
    UPLOAD_LOCAL,
    UploadLimits,
    UploadStatus,
)
from composer_app.ui.composer.image_paste import PastedFiles
from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.sync_bridge import SyncBridge

_log = logging.getLogger(__name__)
_REASONS = (NOT_CONNECTED, NO_LONGER_AVAILABLE, DOWNLOAD_FAILED)
LOCAL_ENVIRONMENT_ID = "local"
"""The source id a copy carries while no environment is known (no server yet)."""


@dataclass(frozen=True)
class SourceEnvironment:
    """Another environment the user is signed in to (paste import fetches assets from it)."""

    environment_id: str
    url: str
    token: str


@dataclass
class _Attachment:
    path: str
    name: str
    mime_type: str
    size: int
    server_id: str | None = None


@dataclass(frozen=True)
class _Send:
    """A message waiting for its uploads to be registered with the sync client."""

    thread_id: str
    text: str
    context: Any
    upload_ids: list[str]


def _log_cancel_failure(_result: object, error: str) -> None:
    if error:
        _log.info("cancelling an upload failed: %s", error)


def fetch_reason(error: str) -> str:
    """The contract's reason line for an ``import_asset`` failure message."""
    for reason in _REASONS:
        if error.startswith(reason):
            return reason
    return DOWNLOAD_FAILED


class AttachmentUploads(QObject):
    """Tracks the uploads of every attachment the composer made (one per app)."""

    status_changed = Signal(str)
    notice_posted = Signal(str, str)

    def __init__(self, bridge: SyncBridge | None = None, *,
                 sources: Mapping[str, SourceEnvironment] | None = None,
                 files: PastedFiles | None = None, environment_id: str | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self._environment_id = environment_id
        self.sources: dict[str, SourceEnvironment] = dict(sources or {})
        self.files = files or PastedFiles()
        self._statuses: dict[str, UploadStatus] = {}
        self._attachments: dict[str, _Attachment] = {}
        self._registering: set[str] = set()
        self._waiting_sends: list[tuple[_Send, Callable[[Any, str], None]]] = []
        self._calls: EngineCalls | None = None
        if bridge is not None:
            self._calls = EngineCalls(bridge, parent=self)
            bridge.upload_changed.connect(self._on_bridge_upload_changed)
            self.restore()

    # -- environments and limits -------------------------------------------------------------
    @property
    def environment_id(self) -> str | None:
        """The id of the environment uploads go to (once connected)."""
        env = self.bridge.environment if self.bridge is not None else None
        return env.environment_id if env is not None else self._environment_id

    def connected_environment_ids(self) -> set[str]:
        """Environments assets can be fetched from: ours and every known source."""
        ids = set(self.sources)
        own = self.environment_id
        if own is not None:
            ids.add(own)
        return ids

    def limits(self) -> UploadLimits:
        """The server's ``maxUploadBytes`` per kind (defaults before it answered)."""
        env = self.bridge.environment if self.bridge is not None else None
        if env is None:
            return UploadLimits()
        caps = env.capabilities
        limits = UploadLimits()
        if caps.image_attachments is not None:
            limits = replace(limits, image_bytes=caps.image_attachments.max_upload_bytes)
        if caps.file_attachments is not None:
            limits = replace(limits, file_bytes=caps.file_attachments.max_upload_bytes)
        return limits

    # -- state -----------------------------------------------------------------------------------
    def status(self, attachment_id: str) -> UploadStatus | None:
        """The upload state of an attachment this app made, if any."""
        return self._statuses.get(attachment_id)

    def statuses(self) -> dict[str, UploadStatus]:
        """Every known upload state by attachment id."""
        return dict(self._statuses)

    def registering(self) -> int:
        """How many attached files the sync client has not registered yet (still being copied
        into app data); a quit should wait for them, or their uploads are lost."""
        return len(self._registering)

    def source_path(self, attachment_id: str) -> str | None:
        """The file an attachment was made from (thumbnails, local re-attach)."""
        held = self._attachments.get(attachment_id)
        return held.path if held is not None else None

    def _set(self, attachment_id: str, status: UploadStatus) -> None:
        self._statuses[attachment_id] = status
        self.status_changed.emit(attachment_id)

    # -- attaching ---------------------------------------------------------------------------
    def start(self, attachment_id: str, path: str | Path, name: str, mime_type: str,
              size: int) -> None:
        """Begin uploading a newly attached file (``local`` without a server)."""
        self._attachments[attachment_id] = _Attachment(str(path), name, mime_type, size)
        if self._calls is None:
            self._set(attachment_id, UploadStatus(UPLOAD_LOCAL, 0, size))
            return
        self._set(attachment_id, UploadStatus("queued", 0, size))
        self._registering.add(attachment_id)

        def done(result: Any, error: str) -> None:
            self._registered(attachment_id)
            if error:
                _log.warning("attaching %s failed: %s", name, error)
                self._set(attachment_id, UploadStatus("failed", 0, size))

        self._calls.attach_file(Path(path), name, mime_type, attachment_id, done)

    def restore(self) -> None:
        """Read back the uploads the client store holds (a previous run's attachments)."""
        if self._calls is not None:
            self._calls.uploads(self._restored)

    def _restored(self, rows: Any, error: str) -> None:
        if error:
            _log.warning("reading the uploads back failed: %s", error)
        for row in rows or ():
            if row.state == "cancelled" or row.local_id in self._statuses:
                continue
            self._attachments.setdefault(row.local_id, _Attachment(
                row.path, row.name, row.mime_type, row.size, row.server_attachment_id))
            self._set(row.local_id, UploadStatus(row.state, row.sent_bytes, row.size))

    def retry(self, attachment_id: str) -> bool:
        """Upload a failed attachment again from its source file; False when impossible."""
        held = self._attachments.get(attachment_id)
        status = self._statuses.get(attachment_id)
        if held is None or status is None or not status.failed or not Path(held.path).exists():
            return False
        self.start(attachment_id, held.path, held.name, held.mime_type, held.size)
        return True

    def fetch(self, fetch: BinaryFetch, attachment_id: str,
              on_done: Callable[[bool, str], None]) -> None:
        """Bring a pasted attachment's bytes over (``on_done(ok, reason)``).

        An attachment this app made itself is re-attached from its file; anything else is
        downloaded from the source environment's asset URL and uploaded here.
        """
        own = self._local_copy(fetch)
        if own is not None:
            self.start(attachment_id, own.path, fetch.name, fetch.mime_type, own.size)
            on_done(True, "")
            return
        if self._calls is None:
            on_done(False, NOT_CONNECTED)
            return
        source = self.sources.get(fetch.source_environment_id)
        own_id = self.environment_id
        if source is None and (own_id is None or fetch.source_environment_id != own_id):
            on_done(False, NOT_CONNECTED)
            return
        size = fetch.size_bytes
        self._set(attachment_id, UploadStatus("queued", 0, size))
        self._registering.add(attachment_id)

        def done(result: Any, error: str) -> None:
            self._registered(attachment_id)
            if error or result is None:
                self._statuses.pop(attachment_id, None)
                self.status_changed.emit(attachment_id)
                on_done(False, fetch_reason(error))
                return
            self._attachments[attachment_id] = _Attachment(result.path, fetch.name,
                                                           fetch.mime_type, result.size)
            on_done(True, "")

        self._calls.import_asset(
            fetch.source_attachment_id, fetch.name, fetch.mime_type, local_id=attachment_id,
            source_url=source.url if source is not None else None,
            source_token=source.token if source is not None else None, then=done)

    def is_own_environment(self, environment_id: str) -> bool:
        """True when ``environment_id`` names this app's environment (or its offline stand-in)."""
        return environment_id in (self.environment_id or LOCAL_ENVIRONMENT_ID,
                                  LOCAL_ENVIRONMENT_ID)

    def _local_copy(self, fetch: BinaryFetch) -> _Attachment | None:
        # Only an attachment this app still holds counts: local ids are random, so a match under
        # our own id (or the offline stand-in) cannot be someone else's file.
        if not self.is_own_environment(fetch.source_environment_id):
            return None
        for attachment_id, held in self._attachments.items():
            if fetch.source_attachment_id in (attachment_id, held.server_id) and Path(
                    held.path).exists():
                return held
        return None

    # -- copy, send and release ----------------------------------------------------------------
    def export_record(self, record: Any) -> Any:
        """``record`` as a clipboard peer must see it: bound to the server's id once known."""
        if record.kind not in ATTACHMENT_KINDS:
            return record
        held = self._attachments.get(record.attachment_id)
        if held is None or held.server_id is None:
            return record
        return record.model_copy(update={"attachment_id": held.server_id})

    def upload_ids(self, records: Iterable[Any]) -> list[str]:
        """Local upload ids the records bind to (what ``send_message`` waits for)."""
        return [r.attachment_id for r in records
                if r.kind in ATTACHMENT_KINDS and r.attachment_id in self._statuses
                and self._statuses[r.attachment_id].state not in (UPLOAD_LOCAL, "cancelled")]

    def unfinished(self, records: Iterable[Any]) -> tuple[list[str], list[str]]:
        """Names of the records' uploads still running, and of those that failed."""
        pending: list[str] = []
        failed: list[str] = []
        for record in records:
            if record.kind not in ATTACHMENT_KINDS:
                continue
            status = self._statuses.get(record.attachment_id)
            if status is not None and status.busy:
                pending.append(record.name)
            elif status is not None and status.failed:
                failed.append(record.name)
        return pending, failed

    def send_message(self, thread_id: str, text: str, context: Any,
                     upload_ids: Iterable[str],
                     on_done: Callable[[Any, str], None] | None = None) -> None:
        """Queue a message through the sync client once its uploads are registered with it.

        The outbox then waits for the bytes; this only makes sure the client knows every upload
        the message depends on (an attach still copying its file is not known yet).
        """
        send = _Send(thread_id, text, context, list(upload_ids))
        callback = on_done or (lambda *_: None)
        if self._registering.intersection(send.upload_ids):
            self._waiting_sends.append((send, callback))
            return
        self._send(send, callback)

    def _send(self, send: _Send, callback: Callable[[Any, str], None]) -> None:
        if self._calls is None:
            callback(None, NOT_CONNECTED)
            return
        self._calls.send_message(send.thread_id, send.text, send.context, send.upload_ids,
                                 callback)

    def _registered(self, attachment_id: str) -> None:
        self._registering.discard(attachment_id)
        waiting, self._waiting_sends = self._waiting_sends, []
        for send, callback in waiting:
            if self._registering.intersection(send.upload_ids):
                self._waiting_sends.append((send, callback))
            else:
                self._send(send, callback)

    def release(self, records: Iterable[Any]) -> list[str]:
        """Release the uploads of records no chip can bring back; returns the ids released."""
        released: list[str] = []
        for record in records:
            if record.kind not in ATTACHMENT_KINDS:
                continue
            attachment_id = record.attachment_id
            held = self._attachments.pop(attachment_id, None)
            status = self._statuses.pop(attachment_id, None)
            if held is None and status is None:
                continue
            released.append(attachment_id)
            if held is not None and self.files.owns(held.path):
                Path(held.path).unlink(missing_ok=True)
            if self._calls is not None and status is not None and status.state != UPLOAD_LOCAL:
                self._calls.cancel_upload(attachment_id, _log_cancel_failure)
            self.status_changed.emit(attachment_id)
        return released

    # -- bridge ----------------------------------------------------------------------------------
    @Slot(str, str, int)
    def _on_bridge_upload_changed(self, local_id: str, state: str, sent_bytes: int) -> None:
        if local_id not in self._statuses:
            return
        held = self._attachments.get(local_id)
        size = held.size if held is not None else self._statuses[local_id].size
        self._set(local_id, UploadStatus(state, sent_bytes, size))
        if state in ("uploading", "uploaded") and held is not None and held.server_id is None:
            assert self._calls is not None
            self._calls.uploads(self._note_server_ids)

    def _note_server_ids(self, rows: Any, error: str) -> None:
        for row in rows or ():
            held = self._attachments.get(row.local_id)
            if held is not None and row.server_attachment_id:
                held.server_id = row.server_attachment_id

