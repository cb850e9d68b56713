"""The Qt-free transcript: messages as the server sends them, resolved lazily for rendering.

Invariants: a message's identity is its ``messageId`` and its row never moves once added; a user
message's records come from its ``context`` when present, otherwise from ``upgrade_legacy_message``
applied in memory (the stored text is never rewritten); assistant text only grows while streaming
(deltas are appended) and the completed event replaces it with the full final text; inline citation
numbers are assigned by the core rule and only ever gain keys for a message, so a number once shown
never changes. Every derived value (records, sources, blocks, tokens, labels) is computed on first
use and dropped when the message changes, so opening a long thread touches only what is painted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from composer_app.core.codecs.ids import to_kind_scoped_context_id
from composer_app.core.codecs.legacy import upgrade_legacy_message
from composer_app.core.codecs.references import collect_references
from composer_app.core.codecs.sources import (
    Block,
    assign_citation_numbers,
    citation_tokens,
    closed_blocks,
    enumerate_blocks,
    section_labels,
    sources_action_text,
)
from composer_app.core.contracts.messages import MessageContext, decode_message_context
from composer_app.core.contracts.records import RecordBase, decode_record
from composer_app.core.contracts.sources import (
    Grounding,
    SourceEntry,
    decode_grounding,
    decode_sources,
)
from composer_app.core.contracts.wire_model import wire_object
from composer_app.core.document.segments import chip_start
from composer_app.core.errors import ContractError


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of a user message: plain text or one chip (``text[start:end]`` is its source)."""

    start: int
    end: int
    kind: str | None = None
    context_id: str | None = None
    label: str = ""


@dataclass(frozen=True, slots=True)
class SourcedAnswer:
    """What the renderer needs for an assistant message with sources (docs/sources.md §6, §7)."""

    entries: tuple[SourceEntry, ...]
    grounding: Grounding
    blocks: tuple[Block, ...]
    numbers: Mapping[str, int]
    tokens: Mapping[int, list[tuple[int, str]]]
    labels: Mapping[int, str]

    def blocks_of(self, entry_id: str) -> list[int]:
        """The block indices whose token group holds ``entry_id``."""
        return [i for i, group in self.tokens.items() if any(e == entry_id for _, e in group)]


@dataclass(eq=False, slots=True)
class TranscriptMessage:
    """One message row. ``revision`` grows on every change (render caches key on it);
    ``size_cache`` maps a row width to ``(height, exact)`` for the view; a change turns its
    heights into estimates."""

    message_id: str
    role: str
    text: str
    streaming: bool = False
    context: Any = None
    sources: Any = None
    metadata: Any = None
    created_at: str = ""
    thread_id: str = ""
    revision: int = 0
    numbers: dict[str, int] = field(default_factory=dict)
    size_cache: dict[int, tuple[int, bool]] = field(default_factory=dict)
    _resolved: tuple[str, dict[str, RecordBase]] | None = None
    _answer: SourcedAnswer | None = None
    _segments: list[Segment] | None = None
    attachments: Any = None
    _loose: dict[str, RecordBase] | None = None
    local_state: str | None = None
    local_error: str = ""

    @property
    def delivery(self) -> tuple[str, str] | None:
        """``(state, text)`` under a user bubble that has not reached the server: ``queued``
        (sending, or waiting behind an earlier message) or ``failed`` with its reason; ``None``
        for a message the server has."""
        return delivery_status(self.local_state, self.local_error)

    def touch(self) -> None:
        """Forget derived values after a change."""
        self.revision += 1
        # known heights become estimates: the row keeps its size until it is laid out again
        self.size_cache = {key: (height, False) for key, (height, _) in self.size_cache.items()}
        self._resolved = None
        self._answer = None
        self._segments = None
        self._loose = None

    # -- user messages ---------------------------------------------------------------------------

    def resolved(self) -> tuple[str, dict[str, RecordBase]]:
        """Canonical text and ``records_by_id`` (legacy upgrade in memory without a context)."""
        if self._resolved is None:
            self._resolved = resolve_records(self.text, self.context)
        return self._resolved

    def segments(self) -> list[Segment]:
        """The text/chip runs of the canonical text."""
        if self._segments is None:
            self._segments = split_segments(self.resolved()[0])
        return self._segments

    def loose_attachments(self) -> dict[str, RecordBase]:
        """Records made in memory for the message's ``attachments`` that no image or file record
        binds (an upload sent without a context record), keyed by their context id."""
        if self._loose is None:
            self._loose = loose_attachment_records(self.attachments, self.resolved()[1])
        return self._loose

    def record(self, context_id: str) -> RecordBase | None:
        """The record a chip or gallery item shows (context, legacy or loose attachment)."""
        return self.resolved()[1].get(context_id) or self.loose_attachments().get(context_id)

    def gallery(self) -> list[Segment]:
        """Attachment items shown under a user message: every image, the files no chip
        references (docs/contract.md §11, Reading) and every attachment no record binds. They
        are not part of the text."""
        text, records = self.resolved()
        referenced = {s.context_id for s in self.segments() if s.kind is not None}
        items: list[Segment] = []
        for record in (*records.values(), *self.loose_attachments().values()):
            if record.kind == "image" or (
                record.kind == "file" and record.context_id not in referenced
            ):
                items.append(
                    Segment(len(text), len(text), record.kind, record.context_id, record.label)
                )
        return items

    def chip(self, context_id: str) -> Segment | None:
        """The first chip (inline or gallery) showing ``context_id``."""
        for segment in (*self.segments(), *self.gallery()):
            if segment.context_id == context_id and segment.kind is not None:
                return segment
        return None

    # -- assistant messages ----------------------------------------------------------------------

    def answer(self) -> SourcedAnswer:
        """Blocks, stable numbers, tokens and section labels of the current text."""
        if self._answer is None:
            self._answer = build_answer(
                self.text, self.sources, self.metadata, self.numbers, streaming=self.streaming
            )
            self.numbers = dict(self._answer.numbers)
        return self._answer

    def sources_action(self) -> str | None:
        """``Sources · 2 used · 1 checked`` or ``None`` (no action without entries)."""
        if self.role != "assistant" or self.streaming:
            return None
        return sources_action_text(self.answer().entries)


def _context_of(context: Any) -> MessageContext | None:
    if context is None or isinstance(context, MessageContext):
        return context
    try:
        return decode_message_context(context)
    except ContractError:
        return None


def resolve_records(text: str, context: Any) -> tuple[str, dict[str, RecordBase]]:
    """``context`` as is when present, else the legacy upgrade of ``text``
    (docs/contract.md §11)."""
    decoded = _context_of(context)
    if decoded is not None:
        records: Iterable[RecordBase] = decoded.records
    else:
        text, records = upgrade_legacy_message(text)
    by_id: dict[str, RecordBase] = {}
    for record in records:
        by_id.setdefault(record.context_id, record)
    return text, by_id


def loose_attachment_records(
    attachments: Any, records: Mapping[str, RecordBase]
) -> dict[str, RecordBase]:
    """Image/file records for the ``AttachmentRef`` values no record binds (images by MIME type,
    everything else a file); malformed refs are skipped, never fatal."""
    if not isinstance(attachments, Sequence) or isinstance(attachments, str):
        return {}
    bound = {getattr(r, "attachment_id", None) for r in records.values()}
    out: dict[str, RecordBase] = {}
    for ref in attachments:
        if not isinstance(ref, Mapping) or ref.get("attachmentId") in bound:
            continue
        attachment_id = str(ref.get("attachmentId") or "")
        mime = str(ref.get("mimeType") or "application/octet-stream")
        kind = "image" if mime.startswith("image/") else "file"
        name = str(ref.get("name") or "attachment")
        try:
            record = decode_record({
                "version": 1,
                "contextId": to_kind_scoped_context_id(kind, attachment_id),
                "kind": kind,
                "label": name,
                "attachmentId": attachment_id,
                "name": name,
                "mimeType": mime,
                "sizeBytes": ref.get("sizeBytes", 0),
            })
        except ContractError:
            continue
        if record.context_id not in records:
            out.setdefault(record.context_id, record)
    return out


def split_segments(text: str) -> list[Segment]:
    """Text runs and one chip segment per ``t3-context://`` reference, covering ``text``."""
    out: list[Segment] = []
    position = 0
    for ref in collect_references(text):
        start = chip_start(ref)
        if start > position:
            out.append(Segment(position, start))
        out.append(Segment(start, ref.end, ref.kind, ref.context_id, ref.label))
        position = ref.end
    if position < len(text):
        out.append(Segment(position, len(text)))
    return out


def build_answer(
    text: str, sources: Any, metadata: Any, previous: Mapping[str, int], *, streaming: bool
) -> SourcedAnswer:
    """The sourced view of assistant text; while streaming only closed blocks get tokens."""
    entries = tuple(decode_sources(sources))
    blocks = tuple(enumerate_blocks(text))
    placed = closed_blocks(blocks) if streaming else list(blocks)
    numbers = assign_citation_numbers(placed, entries, previous) if entries else dict(previous)
    tokens = citation_tokens(placed, entries, numbers) if entries else {}
    grounding = decode_grounding(metadata, len(blocks))
    labels = section_labels(grounding.grounding_mode, grounding.grounding_segments, len(blocks))
    return SourcedAnswer(entries, grounding, blocks, numbers, tokens, labels)


def message_from_wire(obj: Mapping[str, Any] | Any) -> TranscriptMessage:
    """A row from a wire message (dict with camelCase keys or a ``wire.Message``)."""
    data: Mapping[str, Any] = obj if isinstance(obj, Mapping) else obj.model_dump(by_alias=True)
    get = data.get
    return TranscriptMessage(
        str(get("messageId", "")),
        "assistant" if get("role") == "assistant" else "user",
        str(get("text") or ""),
        bool(get("isStreaming", False)),
        get("context"),
        get("sources"),
        get("metadata"),
        str(get("createdAt") or ""),
        str(get("threadId") or ""),
        attachments=get("attachments"),
        local_state=str(get("localState")) if get("localState") else None,
        local_error=str(get("localError") or ""),
    )


ERROR_REASONS = {
    "unknown_attachment": "an attached file is no longer on the server",
    "too_large": "the message or a file is too large for the server",
    "unauthorized": "the server did not accept the token",
    "forbidden": "the server did not accept the token",
    "unknown_thread": "its thread is no longer on the server",
    "invalid_command": "the server could not read it",
    "rate_limited": "the server asked to slow down",
}


def reason_text(error: str | None) -> str:
    """Why a message was not sent, in words: a bare error code the server answered with (alone
    or after ``HTTP 422``) becomes a sentence, anything else is kept with its whitespace folded."""
    folded = " ".join((error or "").split())
    code = folded.rsplit(" ", 1)[-1] if folded.startswith("HTTP ") else folded
    return ERROR_REASONS.get(code, folded)


def delivery_status(local_state: str | None, error: str) -> tuple[str, str] | None:
    """The status line of a local echo: ``("queued", "Sending…")``, ``("queued", "Waiting for
    an earlier message…")`` or ``("failed", "Not sent: <reason>")``; ``None`` once sent."""
    if not local_state:
        return None
    if local_state == "unsent":
        return "failed", f"Not sent: {reason_text(error) or 'the server did not accept it'}"
    if error:
        return "queued", f"Waiting to retry: {reason_text(error)}"
    if local_state == "blocked":
        return "queued", "Waiting for an earlier message…"
    return "queued", "Sending…"


def message_to_wire(message: TranscriptMessage) -> dict[str, Any]:
    """The wire shape export and sharing take (``strip_for_share`` does the stripping)."""
    text = message.resolved()[0] if message.role == "user" else message.text
    return wire_object(
        message_id=message.message_id, thread_id=message.thread_id, role=message.role,
        text=text, is_streaming=message.streaming, created_at=message.created_at,
        sources=message.sources, metadata=message.metadata,
    )


def selected_source(
    segments: Sequence[Segment], text: str, spans: Sequence[tuple[int, int]], start: int, end: int
) -> str:
    """Canonical Markdown of a rendered selection ``[start, end)``.

    ``spans[i]`` is where segment ``i`` sits in the rendered document; a chip is copied whole
    (its link) when any part of it is selected, a text run is cut at the selection edges.
    """
    parts: list[str] = []
    for segment, (doc_start, doc_end) in zip(segments, spans, strict=True):
        lo, hi = max(start, doc_start), min(end, doc_end)
        if lo >= hi:
            continue
        if segment.kind is not None:
            parts.append(text[segment.start : segment.end])
        else:
            parts.append(text[segment.start + lo - doc_start : segment.start + hi - doc_start])
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Change:
    """What an event did: ``inserted`` a row, ``changed`` a row, or nothing (``row == -1``)."""

    kind: str
    row: int


NO_CHANGE = Change("none", -1)


class Transcript:
    """The ordered messages of one thread, indexed by id (the item model adapts this)."""

    def __init__(self, messages: Iterable[TranscriptMessage] = (), *, public: bool = False) -> None:
        self.public = public
        self.before_insert: Callable[[int], None] | None = None
        self.after_insert: Callable[[], None] | None = None
        self.messages: list[TranscriptMessage] = []
        self._rows: dict[str, int] = {}
        for message in messages:
            if message.message_id in self._rows:
                self._append(message)
            else:
                self._rows[message.message_id] = len(self.messages)
                self.messages.append(message)

    def __len__(self) -> int:
        return len(self.messages)

    def row_of(self, message_id: str) -> int:
        """The row of ``message_id`` or ``-1``."""
        return self._rows.get(message_id, -1)

    def get(self, message_id: str) -> TranscriptMessage | None:
        """The message with ``message_id`` if present."""
        row = self.row_of(message_id)
        return self.messages[row] if row >= 0 else None

    def _append(self, message: TranscriptMessage) -> Change:
        row = self._rows.get(message.message_id)
        if row is not None:
            message.revision = self.messages[row].revision + 1
            self.messages[row] = message
            return Change("changed", row)
        row = len(self.messages)
        if self.before_insert is not None:
            self.before_insert(row)
        self._rows[message.message_id] = row
        self.messages.append(message)
        if self.after_insert is not None:
            self.after_insert()
        return Change("inserted", row)

    def add(self, message: TranscriptMessage) -> Change:
        """Append a message (or replace the row with the same id)."""
        return self._append(message)

    def append_delta(self, message_id: str, text_delta: str, thread_id: str = "") -> Change:
        """Append streamed text to an assistant message, creating its row on the first delta."""
        message = self.get(message_id)
        if message is None:
            return self._append(
                TranscriptMessage(
                    message_id, "assistant", text_delta, streaming=True, thread_id=thread_id
                )
            )
        message.text += text_delta
        message.streaming = True
        message.touch()
        return Change("changed", self._rows[message_id])

    def complete(
        self,
        message_id: str,
        text: str,
        sources: Any = None,
        metadata: Any = None,
        thread_id: str = "",
    ) -> Change:
        """The completed event: full final text, sources and grounding; streaming ends."""
        message = self.get(message_id)
        if message is None:
            return self._append(
                TranscriptMessage(
                    message_id,
                    "assistant",
                    text,
                    sources=sources,
                    metadata=metadata,
                    thread_id=thread_id,
                )
            )
        message.text, message.sources, message.metadata = text, sources, metadata
        message.streaming = False
        message.touch()
        return Change("changed", self._rows[message_id])

    def apply_event(self, event: Mapping[str, Any] | Any) -> Change:
        """Apply one event of the log (dict or wire event model) to the rows."""
        data: Mapping[str, Any] = (
            event if isinstance(event, Mapping) else event.model_dump(by_alias=True)
        )
        kind, payload = data.get("type"), data.get("payload") or {}
        thread_id = str(data.get("threadId") or "")
        if kind == "thread.message-sent" and isinstance(payload.get("message"), Mapping):
            return self.add(message_from_wire(payload["message"]))
        if kind == "thread.assistant.delta":
            return self.append_delta(
                str(payload.get("messageId")), str(payload.get("textDelta")), thread_id
            )
        if kind == "thread.assistant.completed":
            return self.complete(
                str(payload.get("messageId")),
                str(payload.get("text") or ""),
                payload.get("sources"),
                payload.get("metadata"),
                thread_id,
            )
        return NO_CHANGE
