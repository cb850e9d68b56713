"""Applies the server's snapshots and events to the local cache.

Invariants: each stream (``shell``, ``thread:<id>``) has a cursor, the last sequence applied; an
event at or below the cursor is a duplicate and is skipped, so replay overlapping live delivery
never applies anything twice (an assistant delta is appended once). Streams overlap (a thread's
creation and renames reach the shell stream and the thread's own stream), so a thread's row is
never rewritten by an event or snapshot older than the state it holds (its ``last_sequence``);
the messages such an event carries still land. A thread keeps the provider
the server last named for it (a ``thread.meta-updated`` without one keeps it), except while an
update choosing another one is still queued: the cache keeps showing the user's choice until the
server has it, whatever server state (snapshot, replayed event) arrives first. Applying an event
and moving its cursor is one transaction. A snapshot replaces the stream's server state and keeps
local pending rows on top; a server copy replaces a local echo in place by ``messageId``. Messages
are ordered as on the server, by the sequence of the event that created them: a reply by its
``thread.turn-started``, so overlapping turns keep each reply under its own prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from composer_app.core.contracts.wire import (
    AssistantCompletedEvent,
    AssistantDeltaEvent,
    Event,
    Message,
    MessageSentEvent,
    ShellSnapshot,
    Snapshot,
    ThreadCreatedEvent,
    ThreadDeletedEvent,
    ThreadMetaUpdatedEvent,
    ThreadSnapshot,
    ThreadSummary,
    TurnFailedEvent,
    TurnInterruptedEvent,
    TurnStartedEvent,
)
from composer_app.sync.store import ClientStore, MessageRow, ThreadRow

SHELL = "shell"


def thread_stream(thread_id: str) -> str:
    """The cursor key of one thread's stream."""
    return f"thread:{thread_id}"


def message_row(message: Message, sequence: int | None) -> MessageRow:
    """The cache row of a server message (no local state)."""
    wire = message.to_wire()
    return MessageRow(
        message_id=message.message_id, thread_id=message.thread_id, role=message.role,
        text=message.text, is_streaming=message.is_streaming,
        attachments=tuple(wire.get("attachments", ())), context=wire.get("context"),
        sources=message.sources, metadata=message.metadata, local_state=None,
        created_at=message.created_at, sequence=sequence,
    )


def thread_row(summary: ThreadSummary) -> ThreadRow:
    """The cache row of a server thread (with its provider when the server names one)."""
    return ThreadRow(summary.thread_id, summary.title, summary.updated_at, summary.last_sequence,
                     provider=summary.provider,
                     workspace=summary.workspace.path if summary.workspace is not None else None)


@dataclass
class Changes:
    """What one apply step changed, for the listeners."""

    thread_list: bool = False
    threads: set[str] = field(default_factory=set)
    messages: list[tuple[str, str]] = field(default_factory=list)
    new_threads: list[tuple[str, int]] = field(default_factory=list)
    deleted_threads: list[str] = field(default_factory=list)


class Replica:
    """The cache writer for server data."""

    def __init__(self, store: ClientStore, on_changes: Callable[[Changes], None]) -> None:
        self._store = store
        self._on_changes = on_changes

    def cursor(self, stream: str) -> int | None:
        """The stream's last applied sequence."""
        return self._store.cursor(stream)

    def apply_snapshot(self, stream: str, snapshot: Snapshot) -> Changes:
        """Replace the stream's cached state by ``snapshot``."""
        changes = Changes()
        with self._store.transaction():
            if isinstance(snapshot, ShellSnapshot):
                before = {t.thread_id for t in self._store.threads()}
                self._store.replace_threads([self._with_queued(thread_row(t))
                                             for t in snapshot.threads], snapshot.sequence)
                changes.thread_list = True
                for t in snapshot.threads:
                    if t.thread_id not in before or self._store.cursor(
                            thread_stream(t.thread_id)) is None:
                        changes.new_threads.append((t.thread_id, -1))
                changes.deleted_threads = sorted(
                    before - {t.thread_id for t in self._store.threads()})
            elif isinstance(snapshot, ThreadSnapshot):
                cached = self._store.thread(snapshot.thread.thread_id)
                # The thread's row may already hold a newer state from the shell stream (a
                # rename applied there after this snapshot was read): never put it back.
                if cached is None or (cached.last_sequence or 0) <= snapshot.sequence:
                    self._store.upsert_thread(self._with_queued(thread_row(snapshot.thread)))
                self._store.replace_messages(
                    snapshot.thread.thread_id,
                    [message_row(m, 0) for m in snapshot.messages])
                changes.threads.add(snapshot.thread.thread_id)
                changes.thread_list = True
            self._store.set_cursor(stream, snapshot.sequence)
        self._on_changes(changes)
        return changes

    def apply_event(self, stream: str, event: Event) -> Changes | None:
        """Apply ``event`` unless the stream has already seen its sequence (then None)."""
        cursor = self._store.cursor(stream)
        if cursor is not None and event.sequence <= cursor:
            return None
        changes = Changes()
        with self._store.transaction():
            self._apply(event, changes)
            self._store.set_cursor(stream, event.sequence)
        self._on_changes(changes)
        return changes

    def _with_queued(self, row: ThreadRow) -> ThreadRow:
        """``row`` (server state) showing the provider a queued update chooses, if any."""
        provider = self._store.queued_provider(row.thread_id)
        return row if provider is None else replace(row, provider=provider)

    def _apply(self, event: Event, changes: Changes) -> None:
        store = self._store
        tid = event.thread_id
        cached = store.thread(tid)
        if isinstance(event, ThreadCreatedEvent):
            # A thread's creation is seen twice, on the shell stream and again when its own
            # stream replays from just before it; by then a rename may have been applied.
            if cached is None or (cached.last_sequence or 0) <= event.sequence:
                store.upsert_thread(self._with_queued(replace(
                    thread_row(event.payload.thread), last_sequence=event.sequence)))
            changes.thread_list = True
            if store.cursor(thread_stream(tid)) is None:
                changes.new_threads.append((tid, event.sequence - 1))
            return
        thread = cached
        if isinstance(event, ThreadDeletedEvent):
            store.delete_thread(tid)
            changes.thread_list = True
            changes.deleted_threads.append(tid)
            return
        if thread is not None and (thread.last_sequence or 0) <= event.sequence:
            title, provider, folder = thread.title, thread.provider, thread.workspace
            if isinstance(event, ThreadMetaUpdatedEvent):
                title = event.payload.title
                provider = event.payload.provider or provider  # a rename keeps the provider
                if event.payload.updates_workspace:
                    space = event.payload.workspace
                    folder = space.path if space is not None else None
            store.upsert_thread(self._with_queued(replace(
                thread, title=title, provider=provider, workspace=folder,
                updated_at=event.occurred_at, last_sequence=event.sequence, local_state=None)))
            changes.thread_list = True
        changes.threads.add(tid)
        if isinstance(event, MessageSentEvent):
            store.upsert_message(message_row(event.payload.message, event.sequence))
            changes.messages.append((tid, event.payload.message.message_id))
        elif isinstance(event, TurnStartedEvent):
            # The reply takes its place now, as on the server (ordered by the event that created
            # it): output written after later messages must not move it below them.
            mid = event.payload.message_id
            if store.message(mid) is None:
                store.upsert_message(MessageRow(mid, tid, "assistant", "", True,
                                                created_at=event.occurred_at,
                                                sequence=event.sequence))
                changes.messages.append((tid, mid))
        elif isinstance(event, AssistantDeltaEvent):
            mid = event.payload.message_id
            row = store.message(mid) or MessageRow(mid, tid, "assistant", "", True,
                                                    created_at=event.occurred_at,
                                                    sequence=event.sequence)
            store.upsert_message(replace(row, text=row.text + event.payload.text_delta,
                                         is_streaming=True))
            changes.messages.append((tid, mid))
        elif isinstance(event, AssistantCompletedEvent):
            p = event.payload
            row = store.message(p.message_id) or MessageRow(
                p.message_id, tid, "assistant", "", created_at=event.occurred_at,
                sequence=event.sequence)
            store.upsert_message(replace(row, text=p.text, is_streaming=False, sources=p.sources,
                                         metadata=p.metadata, local_state=None))
            changes.messages.append((tid, p.message_id))
        elif isinstance(event, TurnFailedEvent | TurnInterruptedEvent):
            for row in store.messages(tid):
                if row.is_streaming:
                    store.upsert_message(replace(row, is_streaming=False))
                    changes.messages.append((tid, row.message_id))
