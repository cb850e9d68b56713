"""Commands and turn output as event-log writes (each call runs inside one store transaction).

Invariants: a command writes its receipt, its events and the projections together; a repeat of a
``(device, commandId)`` with the same body hash returns the original result and writes nothing; with
another body it is ``409 command_id_reused``; a rejected command stores its error (so a retry gets
the same error) and none of its partial writes; turn output is appended only while the assistant
message is still streaming (an interrupted or finished turn ignores late output). With per-thread
providers (``provider_of``), ``thread.created`` names the thread's provider and
``thread.meta-updated`` names the one the update chose. Thread and message ids are the device's
user's own: every lookup is scoped to that user, so another user's id is simply free (a create or
a message with it succeeds) and every command naming another user's thread gets the same ``404`` as
an unknown id. A sent message is stored once, in its row; its ``thread.message-sent`` event
references it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from composer_app.core.codecs.titles import title_from_message
from composer_app.core.contracts.wire import (
    Command,
    ThreadCreateCommand,
    ThreadDeleteCommand,
    ThreadMetaUpdateCommand,
    ThreadTurnInterruptCommand,
    ThreadTurnStartCommand,
    format_timestamp,
)
from composer_app.server.earlier_material import EARLIER_MESSAGES, EarlierMaterial, gather_material
from composer_app.server.errors import ApiError, invalid, not_found
from composer_app.server.normalizer import normalize_message
from composer_app.server.snapshots import choice_key, thread_wire
from composer_app.server.store.base import (
    AttachmentRow,
    Device,
    JsonObject,
    MessageRow,
    ThreadRow,
    Transaction,
    new_id,
)


@dataclass(frozen=True)
class TurnPlan:
    """What the turn runner needs after a ``thread.turn.start`` commits."""

    thread_id: str
    turn_id: str
    message_id: str
    user_message_id: str
    text: str
    context: JsonObject | None
    attachments: list[AttachmentRow] = field(default_factory=list)
    user_id: str = field(default="", kw_only=True)
    """The owner of the thread (thread and message ids are per user)."""
    earlier: EarlierMaterial | None = field(default=None, kw_only=True)
    """What the thread's earlier user messages bring, gathered by the command's transaction
    (None: not gathered, the turn reads it itself)."""


@dataclass(frozen=True)
class CommandOutcome:
    status: int
    body: JsonObject
    turn: TurnPlan | None = None
    interrupted_turn: str | None = None
    released_files: tuple[str, ...] = ()  # storage names whose bytes may be deleted now


def _accepted(command_id: str, sequence: int) -> JsonObject:
    return {"commandId": command_id, "status": "accepted", "sequence": sequence}


def execute_command(tx: Transaction, device: Device, command: Command, request_hash: str,
                    provider_of: Callable[[str], str] | None = None) -> CommandOutcome:
    """Apply ``command`` once per ``(device, commandId)``; see the module invariants."""
    prefetch_command(tx, device, command)
    receipt = tx.receipt(device.device_id, command.command_id)
    if receipt is not None:
        if receipt.request_hash != request_hash:
            raise ApiError(409, "command_id_reused",
                           "This commandId was already used with a different body.")
        if receipt.status == "accepted":
            return CommandOutcome(200, _accepted(command.command_id, receipt.result_sequence or 0))
        error = receipt.error or {}
        return CommandOutcome(int(error.get("status", 400)), dict(error.get("body", {})))
    try:
        with tx.savepoint():  # a rejected command keeps none of its partial writes
            outcome = _dispatch(tx, device, command, provider_of)
    except ApiError as exc:
        body = exc.body()
        tx.put_receipt(device.device_id, command.command_id, command.type, command.thread_id,
                       request_hash, "rejected", None, {"status": exc.status, "body": body})
        return CommandOutcome(exc.status, body)
    appended = getattr(tx, "events", None)
    sequence = appended[-1].sequence if appended else tx.max_sequence()
    tx.put_receipt(device.device_id, command.command_id, command.type, command.thread_id,
                   request_hash, "accepted", sequence, None)
    return CommandOutcome(200, _accepted(command.command_id, sequence), outcome.turn,
                          outcome.interrupted_turn, outcome.released_files)


def prefetch_command(tx: Transaction, device: Device, command: Command) -> None:
    """Hint every read ``execute_command`` makes first, and whether ``device`` is active (one
    round trip on stores that batch; calling it again in the transaction reads nothing more)."""
    message = getattr(command, "message", None)
    tx.prefetch(receipt=(device.device_id, command.command_id), user_id=device.user_id,
                thread_id=command.thread_id,
                new_message_id=getattr(message, "message_id", None),
                reserve=_appends_of(command),
                device_id=device.device_id,
                recent_material_messages=EARLIER_MESSAGES if isinstance(
                    command, ThreadTurnStartCommand) else 0)


def _appends_of(command: Command) -> int:
    """How many events ``command`` appends when accepted (a first message also appends a title
    and a bootstrap a creation: those take their numbers as they go; an interrupt of a finished
    turn leaves its number unused)."""
    if isinstance(command, ThreadTurnStartCommand):
        return 2
    # an interrupt also locks its thread first, the way a turn's output does (no deadlock)
    return 1


def _owned_thread(tx: Transaction, device: Device, thread_id: str,
                  row: ThreadRow | None = None) -> ThreadRow:
    row = row or tx.thread(device.user_id, thread_id)
    if row is None or row.user_id != device.user_id or row.deleted_at is not None:
        raise not_found()
    return row


def _create_thread(tx: Transaction, device: Device, command: Command, title: str | None,
                   provider_of: Callable[[str], str] | None = None) -> None:
    if tx.thread(device.user_id, command.thread_id) is not None:
        raise ApiError(409, "thread_exists", "A thread with this id already exists.")
    at = format_timestamp()
    tx.insert_thread(command.thread_id, device.user_id, title, at)
    workspace = _workspace_json(command)
    if workspace is not None:
        tx.set_thread_workspace(device.user_id, command.thread_id, workspace)
    row = ThreadRow(command.thread_id, device.user_id, title, at, at, 0, None, workspace)
    provider = None
    if provider_of is not None:
        provider = getattr(command, "provider", None) or provider_of(
            choice_key(device.user_id, command.thread_id))
    tx.append_event(device.user_id, command.thread_id, "thread.created",
                    {"thread": thread_wire(row, provider)},
                    device_id=device.device_id, command_id=command.command_id)


def _workspace_json(command: Command) -> JsonObject | None:
    """The stored form of a command's workspace (checked against the allowed roots before)."""
    workspace = getattr(command, "workspace", None)
    return None if workspace is None else {"path": workspace.path}


def _dispatch(tx: Transaction, device: Device, command: Command,
              provider_of: Callable[[str], str] | None = None) -> CommandOutcome:
    at = format_timestamp()
    emit: dict[str, Any] = {"device_id": device.device_id, "command_id": command.command_id}
    if isinstance(command, ThreadCreateCommand):
        _create_thread(tx, device, command, command.title, provider_of)
    elif isinstance(command, ThreadMetaUpdateCommand):
        row = _owned_thread(tx, device, command.thread_id)
        tx.update_thread(device.user_id, command.thread_id, title=command.title, at=at)
        meta: JsonObject = {"title": row.title if command.title is None else command.title}
        if provider_of is not None and command.provider is not None:
            meta["provider"] = command.provider
        if command.updates_workspace:
            meta["workspace"] = _workspace_json(command)
            tx.set_thread_workspace(device.user_id, command.thread_id, meta["workspace"])
        tx.append_event(device.user_id, command.thread_id, "thread.meta-updated", meta, **emit)
    elif isinstance(command, ThreadDeleteCommand):
        _owned_thread(tx, device, command.thread_id)
        tx.update_thread(device.user_id, command.thread_id, deleted_at=at, at=at)
        tx.append_event(device.user_id, command.thread_id, "thread.deleted", {}, **emit)
        # no longer served
        released = tx.release_thread_attachments(device.user_id, command.thread_id)
        return CommandOutcome(200, {}, released_files=tuple(released))
    elif isinstance(command, ThreadTurnStartCommand):
        return CommandOutcome(200, {}, turn=_start_turn(tx, device, command, at, emit,
                                                        provider_of))
    elif isinstance(command, ThreadTurnInterruptCommand):
        _owned_thread(tx, device, command.thread_id)
        message = tx.assistant_message_for_turn(device.user_id, command.turn_id)
        if message is None or message.thread_id != command.thread_id:
            raise not_found("No such turn.")
        if message.is_streaming:
            message.is_streaming = False
            message.updated_at = message.completed_at = at
            tx.update_message(message)
            tx.append_event(device.user_id, command.thread_id, "thread.turn-interrupted",
                            {"turnId": command.turn_id}, **emit)
        return CommandOutcome(200, {}, interrupted_turn=command.turn_id)
    return CommandOutcome(200, {})


def _start_turn(tx: Transaction, device: Device, command: ThreadTurnStartCommand, at: str,
                emit: dict[str, Any], provider_of: Callable[[str], str] | None = None
                ) -> TurnPlan:
    existing = tx.thread(device.user_id, command.thread_id)
    bootstrap = command.bootstrap.create_thread if command.bootstrap else None
    if existing is None and bootstrap is not None:
        _create_thread(tx, device, command, bootstrap.title, provider_of)
    else:
        _owned_thread(tx, device, command.thread_id, existing)
    message = command.message
    owner = device.user_id
    if tx.message_id_taken(owner, message.message_id):
        raise invalid("This messageId is already used.")
    # read before this message is stored: every row it returns is an earlier one
    earlier = gather_material(
        tx.recent_material_messages(owner, command.thread_id, EARLIER_MESSAGES), owner,
        tx.attachment)
    normalized = normalize_message(tx, device, message)
    user = MessageRow(
        message_id=message.message_id, thread_id=command.thread_id, turn_id=None, role="user",
        text=message.text, is_streaming=False, attachments=normalized.attachments,
        context=normalized.context, created_at=at, updated_at=at, completed_at=at,
        user_id=owner,
    )
    sent = tx.append_event(owner, command.thread_id, "thread.message-sent",
                           {"message": user.to_wire()}, message_id=message.message_id, **emit)
    user.created_sequence = sent.sequence
    tx.insert_message(user)
    turn_id, reply_id = new_id("turn"), new_id("msg")
    started = tx.append_event(
        owner, command.thread_id, "thread.turn-started",
        {"turnId": turn_id, "messageId": reply_id, "userMessageId": message.message_id}, **emit)
    tx.insert_message(MessageRow(
        message_id=reply_id, thread_id=command.thread_id, turn_id=turn_id, role="assistant",
        text="", is_streaming=True, created_at=at, updated_at=at,
        created_sequence=started.sequence, user_id=owner,
    ))
    # A thread nobody named is titled from its first message (a rename always wins).
    current_title = existing.title if existing is not None else (
        bootstrap.title if bootstrap is not None else None)
    title = title_from_message(message.text) if not current_title else None
    tx.update_thread(owner, command.thread_id, title=title, at=at)
    if title is not None:
        tx.append_event(owner, command.thread_id, "thread.meta-updated", {"title": title},
                        **emit)
    attachments = [tx.attachment(ref["attachmentId"]) for ref in normalized.attachments]
    return TurnPlan(command.thread_id, turn_id, reply_id, message.message_id, message.text,
                    normalized.context, [a for a in attachments if a is not None],
                    user_id=owner, earlier=earlier)


# Turn output ---------------------------------------------------------------------------------


def _streaming(tx: Transaction, plan: TurnPlan, appends: int) -> MessageRow | None:
    tx.prefetch(user_id=plan.user_id, thread_id=plan.thread_id, message_id=plan.message_id,
                reserve=appends)
    row = tx.message(plan.user_id, plan.message_id)
    return row if row is not None and row.is_streaming else None


def append_delta(tx: Transaction, plan: TurnPlan, text: str) -> bool:
    """Append a delta; False when the turn is no longer streaming."""
    row = _streaming(tx, plan, 1)
    if row is None:
        return False
    row.text += text
    row.updated_at = format_timestamp()
    tx.update_message(row)
    tx.append_event(plan.user_id, plan.thread_id, "thread.assistant.delta",
                    {"messageId": plan.message_id, "turnId": plan.turn_id, "textDelta": text})
    return True


def _complete(tx: Transaction, plan: TurnPlan, row: MessageRow, text: str,
              sources: JsonObject | None, metadata: JsonObject | None) -> bool:
    at = format_timestamp()
    row.text, row.sources, row.metadata = text, sources, metadata
    row.is_streaming, row.updated_at, row.completed_at = False, at, at
    tx.update_message(row)
    payload: JsonObject = {"messageId": plan.message_id, "turnId": plan.turn_id, "text": text}
    if sources is not None:
        payload["sources"] = sources
    if metadata is not None:
        payload["metadata"] = metadata
    payload["completedAt"] = at
    tx.append_event(plan.user_id, plan.thread_id, "thread.assistant.completed", payload)
    return True


def finish_turn(tx: Transaction, plan: TurnPlan, last_delta: str, text: str,
                sources: JsonObject | None, metadata: JsonObject | None) -> bool:
    """The last buffered delta (if any) and the completion, in one transaction."""
    row = _streaming(tx, plan, 2 if last_delta else 1)
    if row is None:
        return False
    if last_delta:
        tx.append_event(plan.user_id, plan.thread_id, "thread.assistant.delta", {
            "messageId": plan.message_id, "turnId": plan.turn_id, "textDelta": last_delta})
    return _complete(tx, plan, row, text, sources, metadata)


def fail_turn(tx: Transaction, plan: TurnPlan, code: str, message: str) -> bool:
    row = _streaming(tx, plan, 1)
    if row is None:
        return False
    at = format_timestamp()
    row.is_streaming, row.updated_at, row.completed_at = False, at, at
    tx.update_message(row)
    tx.append_event(plan.user_id, plan.thread_id, "thread.turn-failed",
                    {"turnId": plan.turn_id, "error": {"code": code, "message": message}})
    return True


RESTART_REASON = "The server restarted before this reply finished."


def fail_orphaned_turns(tx: Transaction, *, idle_before: str | None = None,
                        running: frozenset[str] = frozenset()) -> int:
    """End turns left streaming by a process that is gone with ``thread.turn-failed``.

    Without ``idle_before`` every streaming turn not in ``running`` ends (one process owns all
    turns: SQLite at start-up); with it, only those whose reply has not changed since then (several
    processes share the database: PostgreSQL).
    """
    count = 0
    for row in tx.streaming_messages():
        if row.turn_id is None or row.turn_id in running:
            continue
        if idle_before is not None and (row.updated_at or row.created_at) >= idle_before:
            continue
        plan = TurnPlan(row.thread_id, row.turn_id, row.message_id, "", "", None,
                        user_id=row.user_id)
        count += fail_turn(tx, plan, "interrupted", RESTART_REASON)
    return count
