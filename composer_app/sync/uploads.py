"""Attachment uploads: they start when a file is attached; the outbox waits for them.

Invariants: the file is first copied into app data (``outbox/<local_id>``), so moving or deleting
the original cannot break a queued send; the copy's SHA-256 and size are the signed claim; an
expired upload URL (``410``) is re-requested for the same copy; retryable failures back off like
sends and never give up while the item can still be sent; ``cancel`` releases the server's
pending upload; ``close`` ends every upload task before the engine closes the store; ``requeue``
uploads a kept copy again when the server has forgotten its pending upload.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import mimetypes
import random
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from composer_app.core.contracts.environment import CreateUploadRequest, CreateUploadResponse
from composer_app.core.errors import TransportError
from composer_app.sync.backoff import Clock, is_retryable_status, parse_retry_after, send_delay
from composer_app.sync.outbox import new_id
from composer_app.sync.store import ClientStore, UploadRow
from composer_app.sync.transport import HttpTransport

QUEUED = "queued"
UPLOADING = "uploading"
UPLOADED = "uploaded"
FAILED = "failed"
CANCELLED = "cancelled"


def _digest(path: Path) -> tuple[str, int]:
    h = hashlib.sha256()
    size = 0
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


class Uploader:
    """Runs one task per unfinished upload on the engine's loop."""

    def __init__(self, store: ClientStore, outbox_dir: Path, clock: Clock, rng: random.Random,
                 changed: Callable[[UploadRow], None], toast: Callable[[str, str, str], None],
                 connected: asyncio.Event) -> None:
        self._store = store
        self._dir = outbox_dir
        self._clock = clock
        self._rng = rng
        self._changed = changed
        self._toast = toast
        self._connected = connected
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wake = asyncio.Event()
        self.http: HttpTransport | None = None

    def wake(self) -> None:
        """Cut short any backoff wait (connection returned, *Retry now*).

        Each attempt captures the current event before it starts, so a wake that arrives while
        the attempt is in flight still ends the wait that follows it.
        """
        self._wake.set()
        self._wake = asyncio.Event()

    async def attach(self, source: Path, name: str | None = None, mime_type: str | None = None,
                     local_id: str | None = None) -> UploadRow:
        """Copy ``source`` into app data, record it and start uploading it at once (``source``
        may be the kept copy itself: a failed upload retried after a restart)."""
        local_id = local_id or new_id("upl")
        self._dir.mkdir(parents=True, exist_ok=True)
        copy = self._dir / local_id
        if not (copy.exists() and copy.samefile(source)):  # a retry from the kept copy
            await asyncio.to_thread(shutil.copyfile, source, copy)
        sha256, size = await asyncio.to_thread(_digest, copy)
        name = name or source.name
        mime = mime_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
        row = UploadRow(local_id, str(copy), name, mime, sha256, size, QUEUED)
        self._store.save_upload(row)
        self._changed(row)
        self._start(local_id)
        return row

    async def attach_bytes(self, data: bytes, name: str, mime_type: str,
                           local_id: str | None = None) -> UploadRow:
        """Like ``attach`` for bytes in memory (a fetched asset, a pasted image)."""
        local_id = local_id or new_id("upl")
        self._dir.mkdir(parents=True, exist_ok=True)
        staged = self._dir / f"{local_id}.in"
        await asyncio.to_thread(staged.write_bytes, data)
        try:
            return await self.attach(staged, name, mime_type, local_id)
        finally:
            staged.unlink(missing_ok=True)

    def resume(self) -> None:
        """Restart every unfinished upload (after a restart of the app)."""
        for row in self._store.uploads():
            if row.state in (QUEUED, UPLOADING):
                self._start(row.local_id)

    def requeue(self, local_id: str) -> bool:
        """Upload the kept copy again under a new pending id (the server forgot the old one);
        False when the row or its copy is gone."""
        row = self._store.upload(local_id)
        if row is None or row.state == CANCELLED or not Path(row.path).is_file():
            return False
        self._save(replace(row, state=QUEUED, server_attachment_id=None, expires_at=None,
                           sent_bytes=0))
        self._start(local_id)
        return True

    async def close(self) -> None:
        """Cancel every running upload task and wait until all have ended (the engine calls this
        before it closes the store). Rows keep their state, so ``resume`` restarts them."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def cancel(self, local_id: str) -> bool:
        """Stop an upload, release the server's pending upload and the kept copy; the ``cancelled``
        change is announced only after both (a listener may rely on them being gone)."""
        task = self._tasks.pop(local_id, None)
        if task is not None:
            task.cancel()
        row = self._store.upload(local_id)
        if row is None:
            return False
        row = replace(row, state=CANCELLED)
        self._store.save_upload(row)
        if row.server_attachment_id and self.http is not None:
            # the server drops unattached pending uploads after 24 h anyway
            with contextlib.suppress(TransportError):
                await self.http.delete(f"/api/attachments/{row.server_attachment_id}")
        Path(row.path).unlink(missing_ok=True)
        self._changed(row)  # announced once the server and the kept copy have let go
        return True

    def _start(self, local_id: str) -> None:
        if local_id not in self._tasks:
            task = asyncio.create_task(self._run(local_id))
            self._tasks[local_id] = task
            task.add_done_callback(lambda _t: self._tasks.pop(local_id, None))

    def _save(self, row: UploadRow) -> UploadRow:
        self._store.save_upload(row)
        self._changed(row)
        return row

    async def _backoff(self, woken: asyncio.Event, attempt: int,
                       retry_after: float | None) -> None:
        delay = send_delay(attempt, self._rng, retry_after)
        timeout = self._clock.timeout_until(self._clock.now() + delay)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken.wait(), timeout)

    async def _run(self, local_id: str) -> None:
        attempt = 0
        while True:
            row = self._store.upload(local_id)
            if row is None or row.state not in (QUEUED, UPLOADING):
                return
            await self._connected.wait()
            woken = self._wake
            http = self.http
            if http is None:
                await self._backoff(woken, attempt + 1, None)
                continue
            try:
                status, retry_after = await self._upload_once(http, row)
            except TransportError:
                status, retry_after = None, None
            if status is None or is_retryable_status(status) or status == 410:
                attempt += 1
                current = self._store.upload(local_id)
                if current is not None:
                    self._changed(current)  # an attempt ended; the row says where it stands
                if status != 410:
                    await self._backoff(woken, attempt,
                                        parse_retry_after(retry_after, self._clock.now()))
                continue
            if 200 <= status < 300:
                return
            failed = self._save(replace(row, state=FAILED))
            reason = "The file is too large for this server." if status == 413 else (
                f"The server refused the upload (HTTP {status}).")
            self._toast("error", f"Couldn't upload {failed.name}", reason)
            return

    async def _upload_once(self, http: HttpTransport, row: UploadRow) -> tuple[int, str | None]:
        """Create the upload and PUT the bytes; returns the deciding status."""
        request = CreateUploadRequest(name=row.name, mime_type=row.mime_type, size_bytes=row.size,
                                      sha256=row.sha256)
        reply = await http.post("/api/attachments", request.to_wire())
        if not reply.ok:
            return reply.status, reply.retry_after
        try:
            created = CreateUploadResponse.model_validate(reply.body)
        except ValueError as exc:
            raise TransportError(f"bad upload answer: {exc}") from exc
        row = self._save(replace(row, state=UPLOADING, server_attachment_id=created.attachment_id,
                                 expires_at=created.expires_at, sent_bytes=0))
        data = await asyncio.to_thread(Path(row.path).read_bytes)
        put = await http.put_bytes(created.upload_url, data)
        if put.ok:
            self._save(replace(row, state=UPLOADED, sent_bytes=row.size))
        return put.status, put.retry_after

