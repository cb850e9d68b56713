"""The ``ThreadStore`` interface: one event log plus the projections it feeds.

Invariants: every write is one transaction run by ``ThreadStore.write`` (receipt, events and
projections commit together or not at all); event sequences are strictly increasing and gap-free in
commit order; committed events reach ``on_commit`` subscribers in sequence order, only after commit;
readers never see a half-applied command.

Thread and message ids are chosen by clients and scoped per user: a thread is ``(user_id,
thread_id)``, a message ``(user_id, message_id)``, and every lookup names its user, so two users may
use the same id independently and another user's id reads exactly like an unknown one (the same
query, no row). A ``thread.message-sent`` event stores its message once, in the message row: the
event holds a reference, and reads give back the same payload the commit published.
"""

from __future__ import annotations

import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from composer_app.core.contracts.wire_model import wire_object

T = TypeVar("T")
JsonObject = dict[str, Any]


def new_id(prefix: str) -> str:
    """A fresh ``<prefix>_<32 hex>`` identifier."""
    return f"{prefix}_{secrets.token_hex(16)}"


def new_ordered_id(prefix: str) -> str:
    """A fresh ``<prefix>_<32 hex>`` identifier whose first 12 hex digits are the current time in
    milliseconds and the other 20 random (80 bits): ids made in a later millisecond sort after
    earlier ones, so a unique index on them grows at its end instead of at random pages (for the
    event log: fewer pages written per commit)."""
    return f"{prefix}_{time.time_ns() // 1_000_000:012x}{secrets.token_hex(10)}"


@dataclass(frozen=True)
class Device:
    """One token: a device of one user."""

    device_id: str
    user_id: str
    name: str


@dataclass(frozen=True)
class StoredEvent:
    """A committed event with the owner of its thread (for fan-out filtering)."""

    sequence: int
    event_id: str
    thread_id: str
    event_type: str
    occurred_at: str
    command_id: str | None
    payload: JsonObject
    user_id: str

    def to_wire(self) -> JsonObject:
        """The event envelope of docs/protocol.md §4."""
        return wire_object(sequence=self.sequence, event_id=self.event_id,
                           type=self.event_type, thread_id=self.thread_id,
                           occurred_at=self.occurred_at, command_id=self.command_id,
                           payload=self.payload)


@dataclass(frozen=True)
class Receipt:
    """The stored outcome of a ``(device, commandId)``."""

    command_type: str
    request_hash: str
    status: str
    result_sequence: int | None
    error: JsonObject | None


@dataclass(frozen=True)
class ThreadRow:
    thread_id: str
    user_id: str
    title: str | None
    created_at: str
    updated_at: str
    last_sequence: int
    deleted_at: str | None
    workspace: JsonObject | None = None
    """The thread's project folder ``{"path": ...}`` as stored, or None."""


@dataclass
class MessageRow:
    """A stored message; ``user_id`` is the owner of its thread (part of its key)."""

    message_id: str
    thread_id: str
    turn_id: str | None
    role: str
    text: str
    is_streaming: bool
    attachments: list[JsonObject] = field(default_factory=list)
    context: JsonObject | None = None
    sources: JsonObject | None = None
    metadata: JsonObject | None = None
    created_at: str = ""
    updated_at: str | None = None
    completed_at: str | None = None
    created_sequence: int = 0
    user_id: str = field(default="", kw_only=True)

    def to_wire(self) -> JsonObject:
        """``Message`` JSON exactly as stored (the form a ``thread.message-sent`` event carries)."""
        return wire_object(
            message_id=self.message_id, thread_id=self.thread_id, role=self.role,
            text=self.text, is_streaming=self.is_streaming, attachments=list(self.attachments),
            context=self.context, turn_id=self.turn_id, sources=self.sources,
            metadata=self.metadata, created_at=self.created_at, updated_at=self.updated_at,
            completed_at=self.completed_at,
        )


@dataclass(frozen=True)
class AttachmentRow:
    attachment_id: str
    device_id: str
    user_id: str
    state: str
    name: str
    mime_type: str
    size_bytes: int
    sha256: str
    storage_path: str
    message_id: str | None
    created_at: str
    expires_at: str | None


@dataclass(frozen=True)
class ShareRow:
    """A read-only share link of a thread (its token is never stored, only its SHA-256)."""

    share_id: str
    thread_id: str
    user_id: str
    created_at: str
    revoked_at: str | None


class Transaction(ABC):
    """What a write may do inside its one transaction (runs on the store's writer)."""

    @abstractmethod
    def append_event(
        self,
        user_id: str,
        thread_id: str,
        event_type: str,
        payload: JsonObject,
        *,
        device_id: str | None = None,
        command_id: str | None = None,
        message_id: str | None = None,
    ) -> StoredEvent:
        """Append one event to the user's thread (sequence assigned here) and bump the thread's
        ``last_sequence``. With ``message_id``, the payload's ``message`` is that message row of
        the user (inserted in the same transaction) and is stored only there."""

    @abstractmethod
    def savepoint(self) -> AbstractContextManager[None]:
        """A block whose writes are all undone if it raises (the exception propagates).

        Events appended inside the block are forgotten with it; the writes made before the block
        stay. Savepoints nest.
        """

    @abstractmethod
    def max_sequence(self) -> int: ...

    def prefetch(self, *, receipt: tuple[str, str] | None = None, user_id: str | None = None,
                 thread_id: str | None = None, message_id: str | None = None, reserve: int = 0,
                 device_id: str | None = None, recent_material_messages: int = 0,
                 new_message_id: str | None = None) -> None:
        """Hint the reads a command is about to make: the receipt of ``(device, commandId)``, a
        thread and a message of ``user_id``, whether a device is active (``device_id``), the
        material messages among the thread's newest ``recent_material_messages`` user messages,
        how many events it will likely append to that thread (``reserve``, once per thread and
        transaction), and the id of a message it will insert (``new_message_id``, asked about
        with ``message_id_taken``). A store may fetch them together and take sequence numbers
        ahead; answers and the appended events' order are unchanged by it."""
        return None

    def message_id_taken(self, user_id: str, message_id: str) -> bool:
        """Whether the user already has a message ``message_id`` (a new message may not take it).

        A store may answer False and leave the check to the messages' primary key: an insert of
        a taken id then fails the transaction, and the store runs it again with the check made
        (PostgreSQL while serving), so the outcome is the one the check would have given.
        """
        return self.message(user_id, message_id) is not None

    @abstractmethod
    def recent_material_messages(self, user_id: str, thread_id: str, limit: int
                                 ) -> list[MessageRow]:
        """Of the user's thread's newest ``limit`` messages of role ``user``, those that carry
        attachments or a context, oldest first (what this transaction has written included)."""

    @abstractmethod
    def device_active(self, device_id: str) -> bool:
        """True while the device exists and is not revoked."""

    @abstractmethod
    def receipt(self, device_id: str, command_id: str) -> Receipt | None: ...

    @abstractmethod
    def put_receipt(
        self, device_id: str, command_id: str, command_type: str, thread_id: str | None,
        request_hash: str, status: str, result_sequence: int | None, error: JsonObject | None,
    ) -> None: ...

    @abstractmethod
    def thread(self, user_id: str, thread_id: str) -> ThreadRow | None: ...

    @abstractmethod
    def insert_thread(self, thread_id: str, user_id: str, title: str | None, at: str) -> None: ...

    @abstractmethod
    def update_thread(self, user_id: str, thread_id: str, *, title: str | None = None,
                      deleted_at: str | None = None, at: str) -> None: ...

    @abstractmethod
    def set_thread_workspace(self, user_id: str, thread_id: str,
                             workspace: JsonObject | None) -> None:
        """Set (or with None remove) the thread's project folder."""

    @abstractmethod
    def message(self, user_id: str, message_id: str) -> MessageRow | None: ...

    @abstractmethod
    def assistant_message_for_turn(self, user_id: str, turn_id: str) -> MessageRow | None: ...

    @abstractmethod
    def streaming_messages(self) -> list[MessageRow]:
        """Assistant messages still marked streaming (orphaned turns after a restart)."""

    @abstractmethod
    def insert_message(self, row: MessageRow) -> None: ...

    @abstractmethod
    def update_message(self, row: MessageRow) -> None: ...

    @abstractmethod
    def attachment(self, attachment_id: str) -> AttachmentRow | None: ...

    @abstractmethod
    def stale_uploads(self, now: str) -> list[AttachmentRow]:
        """Pending or uploaded attachments whose ``expires_at`` is before ``now``."""

    @abstractmethod
    def insert_attachment(self, row: AttachmentRow) -> None: ...

    @abstractmethod
    def thread_owners(self, thread_id: str) -> list[str]:
        """Every user with a thread of this id (only for importing data keyed by thread id alone,
        written when ids were still unique across users)."""

    @abstractmethod
    def set_provider_choice(self, user_id: str, thread_id: str, provider: str) -> None:
        """Remember the user's thread's assistant provider (a name)."""

    @abstractmethod
    def release_thread_attachments(self, user_id: str, thread_id: str) -> list[str]:
        """Mark the attachments of the thread's messages deleted; their storage names."""

    @abstractmethod
    def set_attachment(self, attachment_id: str, *, state: str, new_id: str | None = None,
                       message_id: str | None = None) -> None: ...

    @abstractmethod
    def share(self, share_id: str) -> ShareRow | None: ...

    @abstractmethod
    def insert_share(self, row: ShareRow, token_sha256: str) -> None: ...

    @abstractmethod
    def revoke_share(self, share_id: str, at: str) -> None: ...


class ThreadStore(ABC):
    """Durable log + projections. ``write`` runs ``fn`` in one transaction on the single writer."""

    environment_id: str = ""
    secret: bytes = b""

    @abstractmethod
    def open(self) -> None:
        """Connect, migrate, load the environment id and signing secret."""

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    async def write(self, fn: Callable[[Transaction], T], *,
                    group: tuple[str, str] | None = None) -> T:
        """Run ``fn`` in one transaction; committed events are then published in order.

        ``group`` names the ``(user, thread)`` the write is about (the thread whose row it
        locks). A store may then run it in one transaction with writes of other threads that
        arrive meanwhile (group commit): each still sees its own reads and writes only, gets its
        own result or exception, and one that fails leaves the others' writes intact; writes of
        one thread keep their order.
        """

    def set_commit_listener(self, listener: Callable[[list[StoredEvent]], None] | None) -> None:
        """``listener`` is called on the event loop with each batch of committed events."""
        self._listener = listener

    # Reads ---------------------------------------------------------------------------------------

    @abstractmethod
    async def read(self, fn: Callable[[Reader], T]) -> T:
        """Run ``fn`` in one consistent read transaction on a reader connection."""

    # Administration (synchronous; used by the command line) --------------------------------------

    @abstractmethod
    def create_token(self, user_name: str, device_name: str) -> tuple[str, Device]:
        """Create (or reuse) the user and a new device; returns the one-time token."""


class Reader(ABC):
    """Read-only queries inside one consistent snapshot."""

    @abstractmethod
    def max_sequence(self) -> int: ...

    @abstractmethod
    def device_by_token_hash(self, token_sha256: str) -> Device | None: ...

    @abstractmethod
    def device_active(self, device_id: str) -> bool:
        """True while the device exists and is not revoked."""

    @abstractmethod
    def server_value(self, key: str) -> str | None:
        """A value of ``server_state`` (environment id, signing secret), or None."""

    @abstractmethod
    def thread(self, user_id: str, thread_id: str) -> ThreadRow | None: ...

    @abstractmethod
    def threads_of(self, user_id: str) -> list[ThreadRow]: ...

    @abstractmethod
    def messages_of(self, user_id: str, thread_id: str, *, limit: int | None = None,
                    before_sequence: int | None = None) -> tuple[list[MessageRow], bool]:
        """Messages oldest first (the newest ``limit`` before ``before_sequence``), and has_more."""

    @abstractmethod
    def events_after(self, after: int, user_id: str, *, thread_id: str | None = None,
                     types: tuple[str, ...] | None = None, limit: int | None = None
                     ) -> list[StoredEvent]: ...

    @abstractmethod
    def attachment(self, attachment_id: str) -> AttachmentRow | None: ...

    @abstractmethod
    def share(self, share_id: str) -> ShareRow | None: ...

    @abstractmethod
    def share_by_token_hash(self, token_sha256: str) -> ShareRow | None: ...

    @abstractmethod
    def shares_of(self, thread_id: str) -> list[ShareRow]:
        """The thread's share links that are not revoked, oldest first."""

    @abstractmethod
    def live_storage_names(self) -> set[str]:
        """Storage names of every attachment not deleted (files the sweep must keep)."""

    @abstractmethod
    def provider_choices(self) -> dict[tuple[str, str], str]:
        """Every thread's remembered assistant provider name, by ``(user_id, thread_id)``."""
