"""The persistent outbox: queued commands, one ordered queue per thread, delivered with retries.

Invariants:
* Queueing writes the command and its local echo in one transaction; the echo carries the client
  ``messageId`` and is later replaced in place by the server copy.
* Every attempt of an item reuses its ``commandId`` and the exact stored body (bound to the same
  uploads), so a retry after a lost answer is answered from the server's receipt. Only an item the
  server definitely rejected (``for_good``, or an upload it forgot) gets a fresh ``commandId``
  before it goes again, since the server replays a rejection stored under the old one.
* *Edit* and *Delete* of an item in flight wait for its attempt to end (delivered: nothing to
  take back), so a message is never both sent and handed back to the composer.
* Within a thread only the head item is ever in flight; items behind a head that is ``unsent`` wait
  as ``blocked``. Other threads keep flowing. An item that failed for good (``for_good``: the
  server refused it, or a file it needs is gone) stays ``unsent`` with its ``reason`` on the item
  and on its echo, and no longer holds back the later items of its thread.
* A turn depends on the upload of every image and file record it binds, found through the client
  store (not only on the ids the caller passed), so a draft restored after a restart still sends
  its files. When the server no longer knows an upload (``unknown_attachment``), the kept copy is
  uploaded again once and the send retried; without a copy the item fails for good, naming the
  file.
* The schedule (``attempts``, ``first_attempt_at``, ``next_attempt_at``) lives in the row, so a
  restart resumes it. After ``SEND_BUDGET_SECONDS`` from the first attempt, or on a non-retryable
  answer, the item becomes ``unsent`` (shown as *Not sent* with Retry, Edit and Delete).
* The body is folded for the destination at delivery time: without ``inlineMessageContext`` the
  message goes as ``serialize_legacy_message(text, records)`` with no ``context``.
* A local write that fails (the client disk is full) never ends the scheduler and never makes it
  spin: delivery pauses with the same backoff as network failures, the failure is logged and told
  to the user once per streak, and the item (still queued under its ``commandId``) is resent later.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from composer_app.core.contracts.environment import Capabilities
from composer_app.core.contracts.messages import decode_message_context
from composer_app.core.contracts.wire import (
    AttachmentRef,
    CreateThreadBootstrap,
    ThreadCreateCommand,
    ThreadDeleteCommand,
    ThreadMetaUpdateCommand,
    ThreadTurnInterruptCommand,
    ThreadTurnStartCommand,
    TurnBootstrap,
    UserMessageInput,
    format_timestamp,
)
from composer_app.core.errors import ContractError, StorageError, TransportError
from composer_app.sync.backoff import (
    SEND_BUDGET_SECONDS,
    Clock,
    is_retryable_status,
    parse_retry_after,
    send_delay,
)
from composer_app.sync.store import ClientStore, MessageRow, OutboxRow, ThreadRow, UploadRow
from composer_app.sync.transport import HttpTransport

SENDING = "sending"
BLOCKED = "blocked"
UNSENT = "unsent"
SENT = "sent"
BLOCKED_REASON = "Waiting for an earlier message that was not sent."
"""The reason a ``blocked`` echo shows (its thread's head is ``unsent`` and holds it back)."""
UPLOAD_READY = "uploaded"
UPLOAD_DEAD = frozenset({"failed", "cancelled"})
BINARY_KINDS = frozenset({"image", "file"})
ThreadCommand = ThreadMetaUpdateCommand | ThreadDeleteCommand | ThreadTurnInterruptCommand
LOCAL_FAILURES = (StorageError, sqlite3.Error, OSError)
INTERNAL_ERROR = "internal error"
"""``last_error`` prefix of a send that failed on a defect of this app (see the log)."""
_log = logging.getLogger(__name__)


def new_id(prefix: str) -> str:
    """A client-minted id: ``<prefix>_<32 hex>``."""
    return f"{prefix}_{secrets.token_hex(16)}"


@dataclass(frozen=True)
class EditedMessage:
    """What *Edit* gives back to the composer: the text and the wire context (or None)."""

    thread_id: str
    text: str
    context: dict[str, Any] | None
    upload_ids: tuple[str, ...]


def plan_failure(row: OutboxRow, now: float, status: int | None, retry_after: float | None,
                 error: str, rng: random.Random) -> OutboxRow:
    """The row after a failed attempt at ``now`` (``status`` None: no HTTP answer).

    Retryable failures are rescheduled with backoff (at least ``retry_after``); the last retry is
    placed at the end of the budget; past the budget, or on a non-retryable status, the item is
    ``unsent`` with a plain-words ``reason`` (``for_good`` on a non-retryable status).
    """
    first = row.first_attempt_at if row.first_attempt_at is not None else now
    if status is not None and not is_retryable_status(status):
        return replace(row, state=UNSENT, last_error=error, first_attempt_at=first,
                       reason=failure_reason(status, error), for_good=True)
    attempts = row.attempts + 1
    deadline = first + SEND_BUDGET_SECONDS
    if now >= deadline:
        return replace(row, state=UNSENT, attempts=attempts, last_error=error,
                       first_attempt_at=first, reason=failure_reason(status, error))
    at = now + send_delay(attempts, rng, retry_after)
    if at > deadline:
        if retry_after is not None and now + retry_after > deadline:
            return replace(row, state=UNSENT, attempts=attempts, last_error=error,
                           first_attempt_at=first, reason=failure_reason(status, error))
        at = deadline
    return replace(row, state=SENDING, attempts=attempts, next_attempt_at=at, last_error=error,
                   first_attempt_at=first)


def failure_reason(status: int | None, code: str | None) -> str:
    """Why a send failed, in the words the unsent message shows (``status`` None: no answer)."""
    if status is None and code and code.startswith(INTERNAL_ERROR):
        return f"The app could not send it ({code}); see the log."
    if status is None:
        return "The server could not be reached for 5 minutes."
    if status == 401:
        return "The server did not accept the token."
    if status == 404:
        return "The thread is no longer on the server."
    if status == 413:
        return "The message is too large for this server."
    if is_retryable_status(status):
        return f"The server was unavailable for 5 minutes ({code or f'HTTP {status}'})."
    return f"The server refused the message ({code or f'HTTP {status}'})."


def missing_file_reason(name: str | None) -> str:
    """The reason of a send whose file the server no longer knows and no copy can restore."""
    if name:
        return f"The file {name} is no longer on the server and its copy is gone."
    return "An attached file is no longer on the server and its copy is gone."


def bound_attachment_ids(context: dict[str, Any] | None) -> list[str]:
    """The ``attachmentId`` of every image and file record of a wire context, in order."""
    records = context.get("records", []) if isinstance(context, dict) else []
    return [str(r["attachmentId"]) for r in records
            if isinstance(r, dict) and r.get("kind") in BINARY_KINDS
            and isinstance(r.get("attachmentId"), str)]


def attachment_name(payload: dict[str, Any], attachment_id: str) -> str | None:
    """The file name a turn body gives ``attachment_id`` (a record's ``name``), if any."""
    message = payload.get("message")
    context = message.get("context") if isinstance(message, dict) else None
    records = context.get("records", []) if isinstance(context, dict) else []
    for record in records:
        if isinstance(record, dict) and record.get("attachmentId") == attachment_id:
            name = record.get("name")
            return str(name) if name else None
    return None


def unknown_attachment_id(body: Any) -> str | None:
    """The id an ``unknown_attachment`` answer names (``Unknown attachment <id>.``), if any."""
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    if not isinstance(message, str):
        return None
    words = message.split()
    last = words[-1].removesuffix(".") if len(words) >= 3 else ""
    return last if last[:1].isalnum() else None


def accepted_sequence(body: Any) -> int:
    """``sequence`` of a ``CommandAccepted`` answer (0 when the body does not carry one)."""
    value = body.get("sequence") if isinstance(body, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def bind_uploads(payload: dict[str, Any], uploads: list[UploadRow]) -> dict[str, Any]:
    """The turn body with ``message.attachments`` and binary records bound to server pending ids."""
    body = {**payload, "message": dict(payload["message"])}
    ids = {u.local_id: u.server_attachment_id for u in uploads}
    body["message"]["attachments"] = [
        AttachmentRef(attachment_id=str(u.server_attachment_id), name=u.name,
                      mime_type=u.mime_type, size_bytes=u.size).to_wire()
        for u in uploads
    ]
    context = body["message"].get("context")
    if context is not None:
        records = []
        for record in context.get("records", []):
            if (isinstance(record, dict) and record.get("kind") in BINARY_KINDS
                    and record.get("attachmentId") in ids):
                record = {**record, "attachmentId": ids[record["attachmentId"]]}
            records.append(record)
        body["message"]["context"] = {**context, "records": records}
    return body


def fold_for_destination(body: dict[str, Any], capabilities: Capabilities) -> dict[str, Any]:
    """Fold records into legacy text when the destination lacks ``inlineMessageContext``."""
    message = body.get("message")
    if capabilities.inline_message_context or not isinstance(message, dict):
        return body
    context = message.get("context")
    folded = {k: v for k, v in message.items() if k != "context"}
    if context is not None:
        from composer_app.core.codecs.legacy import serialize_legacy_message

        records = decode_message_context(context).records
        folded["text"] = serialize_legacy_message(message["text"], records)
    return {**body, "message": folded}


class Outbox:
    """Delivers queued commands; runs on the engine's loop."""

    def __init__(self, store: ClientStore, clock: Clock, rng: random.Random,
                 changed: Callable[[str, str, str], None],
                 message_changed: Callable[[str, str, bool], None],
                 toast: Callable[[str, str, str], None]) -> None:
        self._store = store
        self._clock = clock
        self._rng = rng
        self._changed = changed
        self._message_changed = message_changed
        self._toast = toast
        self._wake = asyncio.Event()
        self._inflight: dict[str, asyncio.Task[None]] = {}
        self._reuploaded: set[tuple[str, str]] = set()
        self.http: HttpTransport | None = None
        self.capabilities: Capabilities | None = None
        self.local_failures = 0
        self._hold_until = 0.0
        self.reupload: Callable[[str], bool] = lambda _local_id: False
        """Upload a kept copy again under a new pending id; False when there is no copy."""

    def wake(self) -> None:
        """Re-examine the queues now."""
        self._wake.set()

    def resume_now(self) -> None:
        """The connection returned (or *Retry now*): due-date every waiting item to now."""
        now = self._clock.now()
        for row in self._store.outbox():
            if row.state == SENDING and row.next_attempt_at > now:
                self._store.update_outbox(replace(row, next_attempt_at=now))
        self.wake()

    async def close(self) -> None:
        """Cancel the attempts in flight and wait until they have ended (before the store
        closes). A cancelled attempt keeps its row and ``commandId``: the next run resends it and
        the server's receipt answers a request that did arrive."""
        tasks = list(self._inflight.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._inflight.clear()

    # queueing ---------------------------------------------------------------------------------
    def enqueue_thread_create(self, thread_id: str, title: str | None,
                              provider: str | None = None) -> str:
        """Queue ``thread.create`` and show the thread at once (``creating``)."""
        command = ThreadCreateCommand(command_id=new_id("cmd"), thread_id=thread_id, title=title,
                                      provider=provider, created_at=format_timestamp())
        row = OutboxRow(command.command_id, thread_id, command.type, command.to_wire(), SENDING,
                        next_attempt_at=self._clock.now())
        with self._store.transaction():
            self._store.upsert_thread(ThreadRow(thread_id, title, command.created_at,
                                                local_state="creating", provider=provider))
            self._store.add_outbox(row)
        self.wake()
        return command.command_id

    def enqueue_thread_command(self, command: ThreadCommand) -> str:
        """Queue ``thread.meta.update``, ``thread.delete`` or ``thread.turn.interrupt``."""
        row = OutboxRow(command.command_id, command.thread_id, command.type, command.to_wire(),
                        SENDING, next_attempt_at=self._clock.now())
        self._store.add_outbox(row)
        self.wake()
        return command.command_id

    def queued_title(self, thread_id: str) -> str | None:
        """The title the last queued ``thread.meta.update`` of ``thread_id`` sets, if any (a new
        update must carry it, or it would undo a rename still waiting to be sent)."""
        titles = [row.payload.get("title") for row in self._store.outbox()
                  if row.thread_id == thread_id and row.kind == "thread.meta.update"]
        return str(titles[-1]) if titles and titles[-1] is not None else None

    def enqueue_turn(self, thread_id: str, text: str, context: dict[str, Any] | None,
                     upload_ids: tuple[str, ...], create_title: str | None = None,
                     create_thread: bool = False) -> str:
        """Queue ``thread.turn.start`` with its local echo; returns the client ``messageId``.

        The item depends on ``upload_ids`` and on the upload of every image and file record of
        ``context`` the client store knows (the store, not the caller, is the truth).
        """
        message_id = new_id("msg")
        wanted = dict.fromkeys([*upload_ids, *bound_attachment_ids(context)])
        uploads = [u for lid in wanted if (u := self._store.upload(lid)) is not None]
        bootstrap = (TurnBootstrap(create_thread=CreateThreadBootstrap(title=create_title))
                     if create_thread else None)
        command = ThreadTurnStartCommand(
            command_id=new_id("cmd"), thread_id=thread_id, created_at=format_timestamp(),
            message=UserMessageInput(message_id=message_id, text=text, context=context),
            bootstrap=bootstrap)
        row = OutboxRow(command.command_id, thread_id, command.type, command.to_wire(), SENDING,
                        message_id=message_id, next_attempt_at=self._clock.now(),
                        depends_on_uploads=tuple(u.local_id for u in uploads))
        echo = MessageRow(
            message_id, thread_id, "user", text, context=context, local_state=SENDING,
            created_at=command.created_at,
            attachments=tuple(AttachmentRef(attachment_id=u.local_id, name=u.name,
                                            mime_type=u.mime_type, size_bytes=u.size).to_wire()
                              for u in uploads))
        with self._store.transaction():
            if create_thread and self._store.thread(thread_id) is None:
                self._store.upsert_thread(ThreadRow(thread_id, create_title, command.created_at,
                                                    local_state="creating"))
            self._store.add_outbox(row, echo)
        self._message_changed(thread_id, message_id, False)
        self._changed(thread_id, message_id, SENDING)
        self.wake()
        return message_id

    # user actions on queued items ----------------------------------------------------------
    def _find(self, message_id: str) -> OutboxRow | None:
        for row in self._store.outbox():
            if message_id in (row.message_id, row.command_id):
                return row
        return None

    def retry(self, message_id: str) -> bool:
        """*Retry*: restart the budget of an unsent item (and release the items behind it)."""
        row = self._find(message_id)
        if row is None or row.state != UNSENT:
            return False
        again = replace(row, state=SENDING, attempts=0, first_attempt_at=None,
                        next_attempt_at=self._clock.now(), last_error=None, reason=None,
                        for_good=False)
        if row.for_good:
            self._renumber(row.command_id, again)
        else:
            self._store.update_outbox(again)
        self.wake()
        return True

    def _renumber(self, command_id: str, row: OutboxRow) -> OutboxRow:
        """Store ``row`` under a fresh ``commandId`` (the server rejected ``command_id``)."""
        fresh = new_id("cmd")
        row = replace(row, command_id=fresh, payload={**row.payload, "commandId": fresh})
        self._store.renumber_outbox(command_id, row)
        return row

    async def remove(self, message_id: str) -> EditedMessage | None:
        """*Edit* / *Delete*: take an item out of the queue with its echo; None when there is no
        such item (any more).

        An item in flight is never pulled from under its request (the server may already have
        it, and the message would then be both sent and back in the composer): the attempt ends
        first; once it was delivered the answer is None, else the item is removed as usual.
        """
        row = self._find(message_id)
        while row is not None and (task := self._inflight.get(row.command_id)) is not None:
            await asyncio.wait([task])
            row = self._find(message_id)
        if row is None:
            return None
        message = row.payload.get("message") or {}
        with self._store.transaction():
            self._store.remove_outbox(row.command_id)
            if row.message_id is not None:
                self._store.delete_message(row.message_id)
        if row.message_id is not None:
            self._message_changed(row.thread_id, row.message_id, True)
            self._changed(row.thread_id, row.message_id, "removed")
        self.wake()
        return EditedMessage(row.thread_id, str(message.get("text", "")), message.get("context"),
                             row.depends_on_uploads)

    # delivery ---------------------------------------------------------------------------------
    async def run(self) -> None:
        """Schedule forever: start each thread's due head, sleep until the next due time."""
        while True:
            self._wake.clear()
            try:
                deadlines = self._schedule()
            except LOCAL_FAILURES as exc:
                self._local_failure(exc)
                deadlines = [self._hold_until]
            timeout = self._clock.timeout_until(min(deadlines)) if deadlines else None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    def _local_failure(self, exc: BaseException) -> None:
        """Pause delivery with backoff after a local write failed; tell the user once."""
        self.local_failures += 1
        delay = send_delay(self.local_failures, self._rng)
        self._hold_until = self._clock.now() + delay
        if self.local_failures == 1:
            _log.warning("cannot write the outbox (retrying with backoff): %s", exc)
            self._toast("error", "Cannot save messages",
                        f"This device's storage failed ({exc}); sending resumes when it can "
                        "write again.")
        else:
            _log.debug("outbox write failed again (%d), next try in %.1f s", self.local_failures,
                       delay)

    def _local_ok(self) -> None:
        if self.local_failures:
            _log.info("the outbox can write again after %d failures", self.local_failures)
        self.local_failures = 0
        self._hold_until = 0.0

    def _schedule(self) -> list[float]:
        if self._clock.now() < self._hold_until:
            return [self._hold_until]
        by_thread: dict[str, list[OutboxRow]] = {}
        for row in self._store.outbox():
            by_thread.setdefault(row.thread_id, []).append(row)
        deadlines: list[float] = []
        now = self._clock.now()
        for queued in by_thread.values():
            rows = [r for r in queued if not (r.state == UNSENT and r.for_good)]
            if not rows:
                continue
            head, rest = rows[0], rows[1:]
            if head.state == BLOCKED:
                head = replace(head, state=SENDING, next_attempt_at=now)
                self._set_state(head)
            behind = BLOCKED if head.state == UNSENT else SENDING
            for row in rest:
                if row.state != behind and row.state in (SENDING, BLOCKED):
                    self._set_state(replace(row, state=behind, next_attempt_at=now))
            if head.state != SENDING or head.command_id in self._inflight:
                continue
            if self.http is None or self.capabilities is None or not self._uploads_ready(head):
                continue
            if head.next_attempt_at <= now:
                task = asyncio.create_task(self._attempt(head))
                self._inflight[head.command_id] = task
                task.add_done_callback(functools.partial(self._done, head.command_id))
            else:
                deadlines.append(head.next_attempt_at)
        return deadlines

    def _done(self, command_id: str, _task: object = None) -> None:
        self._inflight.pop(command_id, None)
        self.wake()

    def _uploads_ready(self, row: OutboxRow) -> bool:
        for local_id in row.depends_on_uploads:
            upload = self._store.upload(local_id)
            if upload is None or upload.state in UPLOAD_DEAD:
                name = upload.name if upload is not None else attachment_name(row.payload,
                                                                              local_id)
                reason = (missing_file_reason(name) if upload is None
                          else f"The upload of {name} was cancelled." if upload.state != "failed"
                          else f"The file {name} could not be uploaded.")
                self._set_state(replace(row, state=UNSENT, last_error="upload_failed",
                                        reason=reason, for_good=True))
                return False
            if upload.state != UPLOAD_READY:
                return False
        return True

    def _set_state(self, row: OutboxRow) -> None:
        with self._store.transaction():
            self._store.update_outbox(row)
            if row.message_id is not None:
                echo = self._store.message(row.message_id)
                if echo is not None and echo.local_state is not None:
                    reason = (row.reason if row.state == UNSENT
                              else BLOCKED_REASON if row.state == BLOCKED else None)
                    self._store.upsert_message(replace(echo, local_state=row.state,
                                                       reason=reason))
        if row.message_id is not None:
            self._message_changed(row.thread_id, row.message_id, False)
        self._changed(row.thread_id, row.message_id or "", row.state)

    def _body(self, row: OutboxRow, capabilities: Capabilities) -> dict[str, Any]:
        body = row.payload
        if row.kind == "thread.turn.start":
            uploads = [u for lid in row.depends_on_uploads
                       if (u := self._store.upload(lid)) is not None]
            body = fold_for_destination(bind_uploads(body, uploads), capabilities)
        return body

    async def _attempt(self, head: OutboxRow) -> None:
        try:
            await self._deliver(head)
        except LOCAL_FAILURES as exc:
            self._local_failure(exc)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a defect: logged, and the item waits like after a failure
            _log.exception("sending %s failed unexpectedly", head.command_id)
            current = self._find(head.command_id)
            if current is not None and current.state == SENDING:
                self._set_state(plan_failure(current, self._clock.now(), None, None,
                                             f"{INTERNAL_ERROR}: {type(exc).__name__}",
                                             self._rng))
        else:
            self._local_ok()

    async def _deliver(self, head: OutboxRow) -> None:
        http, capabilities = self.http, self.capabilities
        if http is None or capabilities is None:
            return
        now = self._clock.now()
        if head.first_attempt_at is None:
            head = replace(head, first_attempt_at=now)
            self._store.update_outbox(head)
        try:
            body = self._body(head, capabilities)
        except ContractError as exc:
            self._set_state(replace(head, state=UNSENT, last_error=str(exc)))
            return
        try:
            reply = await http.post("/api/commands", body)
        except TransportError as exc:
            self._set_state(plan_failure(head, self._clock.now(), None, None, str(exc), self._rng))
            return
        if reply.ok:
            self._accepted(head, accepted_sequence(reply.body))
            return
        retry_after = parse_retry_after(reply.retry_after, self._clock.now())
        error = reply.error_code or f"HTTP {reply.status}"
        if reply.status == 401:
            self._toast("error", "Sign in again", "The server refused this device's token.")
        if error == "unknown_attachment" and head.kind == "thread.turn.start":
            self._recover_unknown_attachment(head, unknown_attachment_id(reply.body))
            return
        self._set_state(plan_failure(head, self._clock.now(), reply.status, retry_after, error,
                                     self._rng))

    def _recover_unknown_attachment(self, head: OutboxRow, forgotten: str | None) -> None:
        """The server no longer knows an upload of ``head``: upload the kept copy again and
        retry (once per item and upload), or fail the item for good naming the file."""
        uploads = [u for lid in head.depends_on_uploads if (u := self._store.upload(lid))]
        match = next((u for u in uploads
                      if forgotten is not None and forgotten in (u.server_attachment_id,
                                                                  u.local_id)), None)
        if match is not None:
            key = (head.command_id, match.local_id)
            if key not in self._reuploaded and self.reupload(match.local_id):
                self._reuploaded.add(key)
                again = self._renumber(head.command_id, replace(
                    head, last_error="unknown_attachment", next_attempt_at=self._clock.now()))
                self._reuploaded.add((again.command_id, match.local_id))
                self._set_state(again)
                return
        name = match.name if match is not None else (
            attachment_name(head.payload, forgotten) if forgotten is not None else None)
        self._set_state(replace(head, state=UNSENT, last_error="unknown_attachment",
                                reason=missing_file_reason(name), for_good=True))

    def _accepted(self, row: OutboxRow, sequence: int = 0) -> None:
        copies = [u.path for lid in row.depends_on_uploads
                  if (u := self._store.upload(lid)) is not None]
        with self._store.transaction():
            self._store.remove_outbox(row.command_id)
            for local_id in row.depends_on_uploads:  # the server holds the bytes now
                self._store.delete_upload(local_id)
            thread = self._store.thread(row.thread_id)
            if thread is not None and thread.local_state == "creating":
                # the creation's sequence: a thread list read before it cannot drop the thread
                self._store.upsert_thread(replace(
                    thread, local_state=None,
                    last_sequence=max(thread.last_sequence or 0, sequence) or None))
            if row.message_id is not None:
                echo = self._store.message(row.message_id)
                if echo is not None and echo.local_state is not None:
                    self._store.upsert_message(replace(echo, local_state=SENT))
        for path in copies:
            Path(path).unlink(missing_ok=True)
        if row.message_id is not None:
            self._message_changed(row.thread_id, row.message_id, False)
        self._changed(row.thread_id, row.message_id or "", SENT)
