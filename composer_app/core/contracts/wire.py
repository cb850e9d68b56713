"""Wire models of the sync protocol: commands, events, WebSocket frames, snapshots and error bodies.

Invariants: every shape here is the one and only definition shared by the thread server and the sync
client; JSON is camelCase (Python attributes are snake_case); unknown keys are ignored on decode and
never re-emitted; unions are tagged by ``type`` (commands, events, frames) or ``kind`` (streams,
snapshots), never smart-mode. A message's ``context`` goes through ``decode_message_context`` (bad
records dropped, duplicate ids fatal) and is written back with ``encode_message_context``. Assistant
``sources`` and grounding ``metadata`` travel as JSON objects; their meaning belongs to the sources
contract. Timestamps are RFC 3339 UTC strings (``2026-11-30T14:02:11Z``).
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BeforeValidator,
    Field,
    PlainSerializer,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from composer_app.core.contracts.messages import (
    MessageContext,
    decode_message_context,
    encode_message_context,
)
from composer_app.core.contracts.wire_model import WireModel
from composer_app.core.errors import ContractError

PROTOCOL_VERSION = 1
REPLAY_LIMIT = 1_000

JsonObject = dict[str, Any]


def format_timestamp(moment: datetime | None = None) -> str:
    """RFC 3339 UTC with a ``Z`` suffix and millisecond precision (now when ``moment`` is None;
    the text of the current millisecond is made once, a server writes several per message)."""
    global _now_text
    if moment is None:
        millis = time.time_ns() // 1_000_000
        made = _now_text
        if made[0] == millis:
            return made[1]
        seconds, rest = divmod(millis, 1000)
        value = datetime.fromtimestamp(seconds, UTC).replace(microsecond=rest * 1000)
        text = value.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"
        _now_text = (millis, text)
        return text
    value = moment.astimezone(UTC)
    return value.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"


_now_text: tuple[int, str] = (-1, "")
"""The current millisecond (since the epoch) and its ``format_timestamp`` text."""


def parse_timestamp(text: str) -> datetime:
    """The aware datetime of an RFC 3339 string; raises ``ContractError`` when it is not one."""
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError as exc:
        raise ContractError(f"not an RFC 3339 timestamp: {text!r}") from exc
    if value.tzinfo is None:
        raise ContractError(f"timestamp without offset: {text!r}")
    return value


def _to_context(value: object) -> object:
    if value is None or isinstance(value, MessageContext):
        return value
    return decode_message_context(value)


def _from_context(value: MessageContext) -> JsonObject:
    return dict(encode_message_context(value))


WireContext = Annotated[
    MessageContext,
    BeforeValidator(_to_context),
    PlainSerializer(_from_context, return_type=dict),
]


NonNegInt = Annotated[int, Field(ge=0, strict=True)]
Id = Annotated[str, Field(min_length=1, max_length=128)]

# --------------------------------------------------------------------------------------------------
# Messages and attachments


class AttachmentRef(WireModel):
    """A pointer to an uploaded attachment, as a message carries it."""

    attachment_id: Id
    name: Annotated[str, Field(max_length=255)]
    mime_type: Annotated[str, Field(max_length=100)]
    size_bytes: NonNegInt


class UserMessageInput(WireModel):
    """The user message inside ``thread.turn.start``."""

    message_id: Id
    role: Literal["user"] = "user"
    text: str
    attachments: list[AttachmentRef] = Field(default_factory=list)
    context: WireContext | None = None


class Message(WireModel):
    """A stored message as snapshots and ``thread.message-sent`` carry it."""

    message_id: Id
    thread_id: Id
    role: Literal["user", "assistant"]
    text: str
    is_streaming: bool = False
    attachments: list[AttachmentRef] = Field(default_factory=list)
    context: WireContext | None = None
    turn_id: str | None = None
    sources: JsonObject | None = None
    metadata: JsonObject | None = None
    created_at: str
    updated_at: str | None = None
    completed_at: str | None = None


PROVIDER_NAME_PATTERN = re.compile(r"[a-z][a-z0-9-]{0,31}")
ProviderName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,31}$")]


def check_provider_name(name: str) -> str:
    """``name`` when it is a well-formed provider name; else ``ContractError`` in plain words."""
    if PROVIDER_NAME_PATTERN.fullmatch(name) is None:
        raise ContractError(f"{name!r} is not an assistant provider name (such as local, openai).")
    return name


class Workspace(WireModel):
    """A thread's project folder: an absolute path on the server machine (a Composer extension).

    The server checks that it resolves to a directory inside one of its allowed roots.
    """

    path: Annotated[str, Field(min_length=1, max_length=4096)]


class ThreadSummary(WireModel):
    """One row of the thread list; ``last_sequence`` is the last event of the thread.

    ``provider`` (a Composer extension, omitted by servers without per-thread providers) names
    the assistant provider the thread's turns use; ``workspace`` is the thread's project folder.
    """

    thread_id: Id
    title: str | None = None
    created_at: str
    updated_at: str
    last_sequence: NonNegInt = 0
    provider: str | None = None
    workspace: Workspace | None = None


# --------------------------------------------------------------------------------------------------
# Commands


class _CommandBase(WireModel):
    command_id: Id
    thread_id: Id
    created_at: str | None = None


class ThreadCreateCommand(_CommandBase):
    type: Literal["thread.create"] = "thread.create"
    title: str | None = None
    provider: ProviderName | None = None
    """Optional per-thread answer provider (``local``, ``openai``, ``echo``); an extension."""
    workspace: Workspace | None = None
    """Optional project folder of the thread (a Composer extension)."""


class ThreadMetaUpdateCommand(_CommandBase):
    """``title`` absent keeps the title (allowed only when ``workspace`` is given: an update
    names at least one of them); ``workspace`` absent keeps the project folder and
    ``"workspace": null`` removes it (``updates_workspace`` tells the two apart)."""

    _null_when_set: ClassVar[frozenset[str]] = frozenset({"workspace"})

    type: Literal["thread.meta.update"] = "thread.meta.update"
    title: str | None = None
    provider: ProviderName | None = None
    """Optional per-thread answer provider; a Composer extension peers may ignore."""
    workspace: Workspace | None = None
    """Optional project folder; a Composer extension peers may ignore."""

    @property
    def updates_workspace(self) -> bool:
        """True when the command names a workspace (a folder or ``null``)."""
        return "workspace" in self.model_fields_set

    @model_validator(mode="after")
    def _names_a_change(self) -> ThreadMetaUpdateCommand:
        if self.title is None and not self.updates_workspace:
            raise ValueError("thread.meta.update needs a title or a workspace")
        return self



class ThreadDeleteCommand(_CommandBase):
    type: Literal["thread.delete"] = "thread.delete"


class CreateThreadBootstrap(WireModel):
    title: str | None = None


class TurnBootstrap(WireModel):
    create_thread: CreateThreadBootstrap | None = None


class ThreadTurnStartCommand(_CommandBase):
    type: Literal["thread.turn.start"] = "thread.turn.start"
    message: UserMessageInput
    bootstrap: TurnBootstrap | None = None


class ThreadTurnInterruptCommand(_CommandBase):
    type: Literal["thread.turn.interrupt"] = "thread.turn.interrupt"
    turn_id: Id


Command = Annotated[
    ThreadCreateCommand
    | ThreadMetaUpdateCommand
    | ThreadDeleteCommand
    | ThreadTurnStartCommand
    | ThreadTurnInterruptCommand,
    Field(discriminator="type"),
]
COMMAND_TYPES = (
    "thread.create",
    "thread.meta.update",
    "thread.delete",
    "thread.turn.start",
    "thread.turn.interrupt",
)
_COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)


class CommandAccepted(WireModel):
    """``200`` answer of ``POST /api/commands``; ``sequence``: the last event the command wrote."""

    command_id: Id
    status: Literal["accepted"] = "accepted"
    sequence: NonNegInt


# --------------------------------------------------------------------------------------------------
# Errors

ErrorCode = Literal[
    "invalid_command",
    "unauthorized",
    "forbidden",
    "unknown_thread",
    "command_id_reused",
    "thread_exists",
    "url_expired",
    "too_large",
    "unknown_attachment",
    "rate_limited",
    "unavailable",
    "not_found",
]


class ErrorDetail(WireModel):
    code: str
    message: str
    retryable: bool = False


class ErrorBody(WireModel):
    """Every non-2xx HTTP answer: ``{"error": {"code", "message", "retryable"}}``."""

    error: ErrorDetail


# --------------------------------------------------------------------------------------------------
# Events


class ThreadCreatedPayload(WireModel):
    thread: ThreadSummary


class ThreadMetaUpdatedPayload(WireModel):
    """``provider`` is present only when the update chose one (a Composer extension)."""

    _null_when_set: ClassVar[frozenset[str]] = frozenset({"workspace"})

    title: str | None = None
    provider: str | None = None
    workspace: Workspace | None = None

    @property
    def updates_workspace(self) -> bool:
        """True when the update set or removed the thread's workspace."""
        return "workspace" in self.model_fields_set



class ThreadDeletedPayload(WireModel):
    pass


class MessageSentPayload(WireModel):
    message: Message


class TurnStartedPayload(WireModel):
    """``message_id``: the assistant reply being streamed; ``user_message_id``: the prompt."""

    turn_id: Id
    message_id: Id
    user_message_id: str | None = None


class AssistantDeltaPayload(WireModel):
    message_id: Id
    turn_id: Id
    text_delta: str


class AssistantCompletedPayload(WireModel):
    message_id: Id
    turn_id: Id
    text: str
    sources: JsonObject | None = None
    metadata: JsonObject | None = None
    completed_at: str


class TurnError(WireModel):
    code: str
    message: str


class TurnFailedPayload(WireModel):
    turn_id: Id
    error: TurnError


class TurnInterruptedPayload(WireModel):
    turn_id: Id


class _EventBase(WireModel):
    sequence: Annotated[int, Field(ge=1, strict=True)]
    event_id: Id
    thread_id: Id
    occurred_at: str
    command_id: str | None = None


class ThreadCreatedEvent(_EventBase):
    type: Literal["thread.created"] = "thread.created"
    payload: ThreadCreatedPayload


class ThreadMetaUpdatedEvent(_EventBase):
    type: Literal["thread.meta-updated"] = "thread.meta-updated"
    payload: ThreadMetaUpdatedPayload


class ThreadDeletedEvent(_EventBase):
    type: Literal["thread.deleted"] = "thread.deleted"
    payload: ThreadDeletedPayload = Field(default_factory=ThreadDeletedPayload)


class MessageSentEvent(_EventBase):
    type: Literal["thread.message-sent"] = "thread.message-sent"
    payload: MessageSentPayload


class TurnStartedEvent(_EventBase):
    type: Literal["thread.turn-started"] = "thread.turn-started"
    payload: TurnStartedPayload


class AssistantDeltaEvent(_EventBase):
    type: Literal["thread.assistant.delta"] = "thread.assistant.delta"
    payload: AssistantDeltaPayload


class AssistantCompletedEvent(_EventBase):
    type: Literal["thread.assistant.completed"] = "thread.assistant.completed"
    payload: AssistantCompletedPayload


class TurnFailedEvent(_EventBase):
    type: Literal["thread.turn-failed"] = "thread.turn-failed"
    payload: TurnFailedPayload


class TurnInterruptedEvent(_EventBase):
    type: Literal["thread.turn-interrupted"] = "thread.turn-interrupted"
    payload: TurnInterruptedPayload


Event = Annotated[
    ThreadCreatedEvent
    | ThreadMetaUpdatedEvent
    | ThreadDeletedEvent
    | MessageSentEvent
    | TurnStartedEvent
    | AssistantDeltaEvent
    | AssistantCompletedEvent
    | TurnFailedEvent
    | TurnInterruptedEvent,
    Field(discriminator="type"),
]
EVENT_TYPES = (
    "thread.created",
    "thread.meta-updated",
    "thread.deleted",
    "thread.message-sent",
    "thread.turn-started",
    "thread.assistant.delta",
    "thread.assistant.completed",
    "thread.turn-failed",
    "thread.turn-interrupted",
)
SHELL_EVENT_TYPES = ("thread.created", "thread.meta-updated", "thread.deleted")
_EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)

# --------------------------------------------------------------------------------------------------
# Snapshots


class ShellSnapshot(WireModel):
    """The user's thread list as of ``sequence`` (``GET /api/threads``)."""

    kind: Literal["shell"] = "shell"
    sequence: NonNegInt
    threads: list[ThreadSummary]


class ThreadSnapshot(WireModel):
    """One thread and (a page of) its messages as of ``sequence`` (``GET /api/threads/{id}``)."""

    kind: Literal["thread"] = "thread"
    sequence: NonNegInt
    thread: ThreadSummary
    messages: list[Message]
    has_more: bool = False


Snapshot = Annotated[ShellSnapshot | ThreadSnapshot, Field(discriminator="kind")]

# --------------------------------------------------------------------------------------------------
# WebSocket frames


class ShellStream(WireModel):
    kind: Literal["shell"] = "shell"


class ThreadStream(WireModel):
    kind: Literal["thread"] = "thread"
    thread_id: Id


Stream = Annotated[ShellStream | ThreadStream, Field(discriminator="kind")]


class SubscribeFrame(WireModel):
    type: Literal["subscribe"] = "subscribe"
    subscription_id: Id
    stream: Stream
    after_sequence: NonNegInt | None = None

    _null_written: ClassVar[frozenset[str]] = frozenset({"after_sequence"})  # null: a snapshot


class UnsubscribeFrame(WireModel):
    type: Literal["unsubscribe"] = "unsubscribe"
    subscription_id: Id


ClientFrame = Annotated[SubscribeFrame | UnsubscribeFrame, Field(discriminator="type")]
_CLIENT_FRAME_ADAPTER: TypeAdapter[ClientFrame] = TypeAdapter(ClientFrame)


class SnapshotFrame(WireModel):
    type: Literal["snapshot"] = "snapshot"
    subscription_id: Id
    sequence: NonNegInt
    snapshot: Snapshot


class EventFrame(WireModel):
    type: Literal["event"] = "event"
    subscription_id: Id
    event: Event


class SynchronizedFrame(WireModel):
    type: Literal["synchronized"] = "synchronized"
    subscription_id: Id
    sequence: NonNegInt


class ErrorFrame(WireModel):
    type: Literal["error"] = "error"
    subscription_id: str | None = None
    code: str
    message: str


ServerFrame = Annotated[
    SnapshotFrame | EventFrame | SynchronizedFrame | ErrorFrame, Field(discriminator="type")
]
_SERVER_FRAME_ADAPTER: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)

# --------------------------------------------------------------------------------------------------
# Codecs


def _contract_error(what: str, exc: ValidationError) -> ContractError:
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": str(exc)}
    where = ".".join(str(part) for part in first.get("loc", ()))
    return ContractError(f"invalid {what}: {where}: {first.get('msg', '')}".rstrip(": "))


def _validate[T](adapter: TypeAdapter[T], what: str, obj: object) -> T:
    """``adapter.validate_python(obj)`` with pydantic's error translated to ``ContractError``."""
    try:
        return adapter.validate_python(obj)
    except ValidationError as exc:
        raise _contract_error(what, exc) from exc


def decode_command(obj: object) -> Command:
    """Validate one command object; raises ``ContractError`` (unknown ``type`` included)."""
    if not isinstance(obj, dict):
        raise ContractError("invalid command: not a JSON object")
    kind = obj.get("type")
    if kind not in COMMAND_TYPES:
        raise ContractError(f"invalid command: unknown type {kind!r}")
    return _validate(_COMMAND_ADAPTER, "command", obj)


def encode_command(command: Command) -> JsonObject:
    """The camelCase JSON object of a command."""
    return command.to_wire()


def decode_event(obj: object) -> Event:
    """Validate one event envelope; raises ``ContractError``."""
    return _validate(_EVENT_ADAPTER, "event", obj)


def encode_event(event: Event) -> JsonObject:
    """The camelCase JSON object of an event (``commandId`` omitted when unset)."""
    return event.to_wire()


def decode_client_frame(obj: object) -> ClientFrame:
    """Validate one client WebSocket frame; raises ``ContractError``."""
    return _validate(_CLIENT_FRAME_ADAPTER, "frame", obj)


def decode_server_frame(obj: object) -> ServerFrame:
    """Validate one server WebSocket frame; raises ``ContractError``."""
    return _validate(_SERVER_FRAME_ADAPTER, "frame", obj)


def error_body(code: str, message: str, *, retryable: bool = False) -> JsonObject:
    """``{"error": {"code", "message", "retryable"}}``."""
    return ErrorBody(error=ErrorDetail(code=code, message=message, retryable=retryable)).to_wire()
