"""Assistant response sources and message-level grounding metadata (docs/sources.md §2-§7).

Invariants: a decoded ``SourceEntry`` satisfies every bound of docs/sources.md §3; its display
fields hold no placeholder (docs/sources.md §5.2) and its ``sourceAccountLabel`` and ``metadata``
values pass ``is_display_safe`` against the entry's own private ids; its links are safe
(docs/sources.md §8). Decoding never fails a message: bad optional fields are dropped from their
entry, bad entries and grounding items are dropped one by one, and
``decode_sources``/``decode_grounding`` never raise. Models are frozen (shallowly: list and dict
attributes are the decoded values, not to be mutated) and use snake_case attributes with camelCase
aliases.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic.alias_generators import to_camel

from composer_app.core.codecs.sources_links import is_safe_link
from composer_app.core.codecs.sources_privacy import (
    MetadataValue,
    display_safe_value,
    is_display_safe,
    is_placeholder,
)
from composer_app.core.contracts.fields import json_int
from composer_app.core.text import WS, trim, utf16_len

SourceType = Literal[
    "connector-file", "external-link", "email", "contact", "calendar-event", "item"
]
SourceUsage = Literal["used", "checked", "listed"]
SourceAction = Literal["open", "download"]
BlockType = Literal["paragraph", "heading", "list-item", "table"]
GroundingMode = Literal["source-backed", "general-knowledge", "mixed"]
SegmentMode = Literal["source-backed", "general-knowledge"]
Contributor = Literal[
    "indexed-documents",
    "mail",
    "calendar",
    "workspace-chat",
    "work-items",
    "connector-browse",
    "tabular-data",
    "public-web",
    "general-knowledge",
]

SOURCE_TYPES: tuple[str, ...] = get_args(SourceType)
SOURCE_USAGES: tuple[str, ...] = get_args(SourceUsage)
SOURCE_ACTIONS: tuple[str, ...] = get_args(SourceAction)
BLOCK_TYPES: tuple[str, ...] = get_args(BlockType)
GROUNDING_MODES: tuple[str, ...] = get_args(GroundingMode)
SEGMENT_MODES: tuple[str, ...] = get_args(SegmentMode)
CONTRIBUTORS: tuple[str, ...] = get_args(Contributor)

MAX_SOURCE_ENTRIES = 100
MAX_METADATA_KEYS = 24
MAX_METADATA_LIST_ITEMS = 10
METADATA_VALUE_MAX_CHARS = 300
MAX_GROUNDING_CONTRIBUTORS = 10
MAX_GROUNDING_SEGMENTS = 200

_SOURCE_ID = re.compile(r"[A-Za-z0-9_.:-]+")
_PROVIDER = re.compile(r"[a-z0-9-]{1,40}")
_TOOL_NAME = re.compile(r"[a-z][a-z0-9_.-]{0,63}")
_METADATA_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")
_RFC3339 = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?"
    r"([Zz]|[+-]([0-9]{2}):([0-9]{2}))"
)
_NON_WS = re.compile(f"[^{re.escape(WS)}]")


def _trimmed(
    max_units: int, pattern: re.Pattern[str] | None = None, *, placeholder: bool = False
) -> Callable[[str], str]:
    def check(value: str) -> str:
        value = trim(value)
        if not value or utf16_len(value) > max_units:
            raise ValueError(f"must be 1-{max_units} UTF-16 units after trimming")
        if pattern is not None and pattern.fullmatch(value) is None:
            raise ValueError(f"must match {pattern.pattern}")
        if placeholder and is_placeholder(value):
            raise ValueError("must not be a placeholder")
        return value

    return check


def _fullmatch(pattern: re.Pattern[str]) -> Callable[[str], str]:
    def check(value: str) -> str:
        if pattern.fullmatch(value) is None:
            raise ValueError(f"must match {pattern.pattern}")
        return value

    return check


def _snippet(value: str) -> str:
    if utf16_len(value) > 2_000 or _NON_WS.search(value) is None or is_placeholder(value):
        raise ValueError("must be 1-2,000 units with a non-space character, not a placeholder")
    return value


def _confidence(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("must be a number")
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise ValueError("must be between 0.0 and 1.0")
    return number


def _timestamp(value: str) -> str:
    match = _RFC3339.fullmatch(value)
    if match is None:
        raise ValueError("must be an RFC 3339 timestamp with an offset")
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    try:
        datetime(year, month, day, hour, minute, min(second, 59))
    except ValueError as exc:
        raise ValueError("must be a valid date and time") from exc
    if second > 60 or (match.group(9) and (int(match.group(9)) > 23 or int(match.group(10)) > 59)):
        raise ValueError("must be a valid time and offset")
    return value


def _safe_link(value: str) -> str:
    if not is_safe_link(value):
        raise ValueError("must be a safe absolute http(s) URL without user-info")
    return value


def _actions(value: Any) -> list[str]:
    if not isinstance(value, list | tuple):
        raise ValueError("must be a list")
    kept: list[str] = []
    for item in value:
        if isinstance(item, str) and item in SOURCE_ACTIONS and item not in kept:
            kept.append(item)
    return kept


def _metadata_value(value: Any) -> MetadataValue:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError("must be a finite number")
        return value
    if isinstance(value, str):
        if utf16_len(value) > METADATA_VALUE_MAX_CHARS:
            raise ValueError("string too long")
        return value
    if (
        isinstance(value, list | tuple)
        and len(value) <= MAX_METADATA_LIST_ITEMS
        and all(isinstance(i, str) and utf16_len(i) <= METADATA_VALUE_MAX_CHARS for i in value)
    ):
        return list(value)
    raise ValueError("must be a string, number, boolean or list of at most 10 strings")


def _metadata(value: Any) -> dict[str, MetadataValue]:
    if not isinstance(value, Mapping) or len(value) > MAX_METADATA_KEYS:
        raise ValueError(f"must be an object of at most {MAX_METADATA_KEYS} keys")
    kept: dict[str, MetadataValue] = {}
    for key, item in value.items():
        if not isinstance(key, str) or _METADATA_KEY.fullmatch(key) is None:
            continue
        try:
            kept[key] = _metadata_value(item)
        except ValueError:
            continue
    return kept


def _block_index(value: Any) -> int:
    return json_int(value)


Id = Annotated[str, Strict(), AfterValidator(_trimmed(128, _SOURCE_ID))]
SourceLabel = Annotated[str, Strict(), AfterValidator(_trimmed(80, placeholder=True))]
Title = Annotated[str, Strict(), AfterValidator(_trimmed(300, placeholder=True))]
Snippet = Annotated[str, Strict(), AfterValidator(_snippet)]
Confidence = Annotated[float, BeforeValidator(_confidence)]
Provider = Annotated[str, Strict(), AfterValidator(_fullmatch(_PROVIDER))]
Timestamp = Annotated[str, Strict(), AfterValidator(_timestamp)]
AccountLabel = Annotated[str, Strict(), AfterValidator(_trimmed(120, placeholder=True))]
Metadata = Annotated[dict[str, MetadataValue], BeforeValidator(_metadata)]
Hint = Annotated[str, Strict(), AfterValidator(_trimmed(280, placeholder=True))]
ConnectorId = Annotated[str, Strict(), AfterValidator(_trimmed(128))]
LongId = Annotated[str, Strict(), AfterValidator(_trimmed(512))]
Link = Annotated[str, Strict(), AfterValidator(_safe_link)]
ToolName = Annotated[str, Strict(), AfterValidator(_fullmatch(_TOOL_NAME))]
Actions = Annotated[list[SourceAction], BeforeValidator(_actions)]
BlockIndex = Annotated[int, BeforeValidator(_block_index)]

_MODEL_CONFIG = ConfigDict(
    frozen=True, alias_generator=to_camel, populate_by_name=True, extra="ignore"
)


class CitationTarget(BaseModel):
    """Structural placement of an inline token: a rendered block's index and type
    (docs/sources.md §6)."""

    model_config = _MODEL_CONFIG

    block_index: BlockIndex
    block_type: BlockType


class SourceEntry(BaseModel):
    """One source of an assistant message (docs/sources.md §3); fields in the order of its table."""

    model_config = _MODEL_CONFIG

    id: Id
    type: SourceType
    source_label: SourceLabel
    source_usage: SourceUsage
    available_actions: Actions
    title: Title | None = None
    snippet: Snippet | None = None
    confidence: Confidence | None = None
    provider: Provider | None = None
    created_at: Timestamp | None = None
    source_account_label: AccountLabel | None = None
    metadata: Metadata | None = None
    readiness_hint: Hint | None = None
    recency_hint: Hint | None = None
    connector_id: ConnectorId | None = None
    file_id: LongId | None = None
    web_view_link: Link | None = None
    item_link: Link | None = None
    item_id: LongId | None = None
    tool_name: ToolName | None = None
    citation_target: CitationTarget | None = None

    @property
    def private_ids(self) -> tuple[str, ...]:
        """The resolution ids that no display field may repeat (docs/sources.md §5.2)."""
        ids = (self.connector_id, self.file_id, self.item_id)
        return tuple(value for value in ids if value is not None)

    @model_validator(mode="after")
    def _display_safe(self) -> SourceEntry:
        private = self.private_ids
        label = self.source_account_label
        if label is not None and not is_display_safe(label, private):
            raise ValueError("sourceAccountLabel is not display-safe")
        for key, value in (self.metadata or {}).items():
            if display_safe_value(value, private) != value:
                raise ValueError(f"metadata.{key} is not display-safe")
        return self


class MessageSources(BaseModel):
    """The ``sources`` value of an assistant message: version 1 and at most 100 entries."""

    model_config = _MODEL_CONFIG

    version: Literal[1] = 1
    entries: list[SourceEntry] = Field(max_length=MAX_SOURCE_ENTRIES)


class GroundingSegment(BaseModel):
    """An inclusive range of rendered blocks with its mode and contributor categories only
    (docs/sources.md §7)."""

    model_config = _MODEL_CONFIG

    block_start: BlockIndex
    block_end: BlockIndex
    grounding_mode: SegmentMode
    contributors: list[Contributor]

    @model_validator(mode="after")
    def _ordered(self) -> GroundingSegment:
        if self.block_end < self.block_start:
            raise ValueError("blockEnd must be >= blockStart")
        if len(set(self.contributors)) != len(self.contributors):
            raise ValueError("contributors must be unique")
        return self


class Grounding(BaseModel):
    """Message-level grounding metadata (docs/sources.md §2, §7); empty lists when absent."""

    model_config = _MODEL_CONFIG

    grounding_mode: GroundingMode | None = None
    grounding_contributors: list[Contributor] = Field(
        default_factory=list, max_length=MAX_GROUNDING_CONTRIBUTORS
    )
    grounding_segments: list[GroundingSegment] = Field(
        default_factory=list, max_length=MAX_GROUNDING_SEGMENTS
    )


_FIELD_TYPES: dict[str, Any] = {
    "id": Id,
    "type": SourceType,
    "source_label": SourceLabel,
    "source_usage": SourceUsage,
    "available_actions": Actions,
    "title": Title,
    "snippet": Snippet,
    "confidence": Confidence,
    "provider": Provider,
    "created_at": Timestamp,
    "source_account_label": AccountLabel,
    "metadata": Metadata,
    "readiness_hint": Hint,
    "recency_hint": Hint,
    "connector_id": ConnectorId,
    "file_id": LongId,
    "web_view_link": Link,
    "item_link": Link,
    "item_id": LongId,
    "tool_name": ToolName,
    "citation_target": CitationTarget,
}
_ENTRY_FIELDS: dict[str, tuple[str, TypeAdapter[Any]]] = {
    (field.alias or name): (name, TypeAdapter(_FIELD_TYPES[name]))
    for name, field in SourceEntry.model_fields.items()
}
_REQUIRED = tuple(
    (field.alias or name) for name, field in SourceEntry.model_fields.items() if field.is_required()
)
_PRIVATE_KEYS = ("connectorId", "fileId", "itemId")


def decode_entry(raw: object) -> SourceEntry | None:
    """One entry by docs/sources.md §2/§3/§5.2/§8: ``None`` when a required field is bad; bad
    optional fields are dropped; unknown keys are ignored."""
    if not isinstance(raw, Mapping):
        return None
    values: dict[str, Any] = {}
    for alias, (name, adapter) in _ENTRY_FIELDS.items():
        if alias not in raw:
            continue
        try:
            values[name] = adapter.validate_python(raw[alias])
        except ValidationError:
            if alias in _REQUIRED:
                return None
    if any(_ENTRY_FIELDS[alias][0] not in values for alias in _REQUIRED):
        return None
    private = [trim(v) for k in _PRIVATE_KEYS if isinstance(v := raw.get(k), str) and trim(v)]
    label = values.get("source_account_label")
    if label is not None and not is_display_safe(label, private):
        del values["source_account_label"]
    if values.get("metadata") is not None:
        safe = {}
        for key, value in values["metadata"].items():
            kept = display_safe_value(value, private)
            if kept is not None:
                safe[key] = kept
        values["metadata"] = safe or None
        if not safe:
            del values["metadata"]
    try:
        return SourceEntry(**values)
    except ValidationError:  # pragma: no cover - the filters above enforce every model rule
        return None


def decode_entries(
    obj: object, *, limit: int | None = MAX_SOURCE_ENTRIES, keep_repeats: bool = False
) -> list[SourceEntry]:
    """The valid entries of a ``sources`` value in wire order; a later repeat of a kept id is
    dropped unless ``keep_repeats`` (the server merges repeats instead, docs/sources.md §11)."""
    if not isinstance(obj, Mapping) or "version" not in obj:
        return []
    try:
        if json_int(obj["version"]) != 1:
            return []
    except ValueError:
        return []
    raw_entries = obj.get("entries")
    if not isinstance(raw_entries, list):
        return []
    entries: list[SourceEntry] = []
    seen: set[str] = set()
    for raw in raw_entries:
        if limit is not None and len(entries) >= limit:
            break
        entry = decode_entry(raw)
        if entry is not None and (keep_repeats or entry.id not in seen):
            seen.add(entry.id)
            entries.append(entry)
    return entries


def decode_sources(obj: object) -> list[SourceEntry]:
    """A message's ``sources`` value to its first 100 valid entries (docs/sources.md §2); never
    raises."""
    return decode_entries(obj)


def encode_entry(entry: SourceEntry) -> dict[str, Any]:
    """The wire object of one entry; unset optional fields omitted, keys in docs/sources.md §3
    order."""
    return entry.model_dump(mode="json", by_alias=True, exclude_none=True)


def encode_sources(entries: Iterable[SourceEntry]) -> dict[str, Any] | None:
    """``{"version": 1, "entries": [...]}``, or ``None`` for no entries (docs/sources.md §2)."""
    encoded = [encode_entry(entry) for entry in entries]
    if not encoded:
        return None
    return {"version": 1, "entries": encoded}


_SEGMENT_ADAPTER = TypeAdapter(GroundingSegment)
_SEGMENT_KEYS = ("blockStart", "blockEnd", "groundingMode", "contributors")


def decode_segment(raw: object) -> GroundingSegment | None:
    """One grounding segment, only its four keys (docs/sources.md §7); invalid contributors dropped
    one by one."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("contributors"), list):
        return None
    contributors: list[str] = []
    for item in raw["contributors"]:
        if isinstance(item, str) and item in CONTRIBUTORS and item not in contributors:
            contributors.append(item)
    data = {key: raw[key] for key in _SEGMENT_KEYS if key in raw} | {"contributors": contributors}
    try:
        return _SEGMENT_ADAPTER.validate_python(data)
    except ValidationError:
        return None


def clean_segments(
    segments: Iterable[GroundingSegment], block_count: int | None = None
) -> list[GroundingSegment]:
    """Segments inside ``block_count`` blocks, sorted by start, overlaps with earlier ones dropped,
    at most 200 (docs/sources.md §7)."""
    candidates = [s for s in segments if block_count is None or s.block_end < block_count]
    kept: list[GroundingSegment] = []
    for segment in sorted(candidates, key=lambda s: s.block_start):
        if kept and segment.block_start <= kept[-1].block_end:
            continue
        kept.append(segment)
    return kept[:MAX_GROUNDING_SEGMENTS]


def decode_grounding(metadata: object, block_count: int | None = None) -> Grounding:
    """The grounding part of a message's ``metadata`` (docs/sources.md §7); never raises."""
    if not isinstance(metadata, Mapping):
        return Grounding()
    mode = metadata.get("groundingMode")
    raw_contributors = metadata.get("groundingContributors")
    contributors: list[str] = []
    if isinstance(raw_contributors, list):
        for item in raw_contributors:
            if isinstance(item, str) and item in CONTRIBUTORS and item not in contributors:
                contributors.append(item)
    raw_segments = metadata.get("groundingSegments")
    decoded = [decode_segment(s) for s in raw_segments] if isinstance(raw_segments, list) else []
    segments = clean_segments((s for s in decoded if s is not None), block_count)
    return Grounding.model_validate(
        {
            "grounding_mode": mode if isinstance(mode, str) and mode in GROUNDING_MODES else None,
            "grounding_contributors": contributors[:MAX_GROUNDING_CONTRIBUTORS],
            "grounding_segments": segments,
        }
    )


def encode_grounding(grounding: Grounding) -> dict[str, Any]:
    """The grounding keys of a message's ``metadata``; unset mode and empty lists omitted."""
    out: dict[str, Any] = {}
    if grounding.grounding_mode is not None:
        out["groundingMode"] = grounding.grounding_mode
    if grounding.grounding_contributors:
        out["groundingContributors"] = list(grounding.grounding_contributors)
    if grounding.grounding_segments:
        out["groundingSegments"] = [
            s.model_dump(mode="json", by_alias=True) for s in grounding.grounding_segments
        ]
    return out
