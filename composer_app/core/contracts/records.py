"""Context records, version 1 (docs/contract.md §2): the open union of typed payloads.

Text carries position, records carry payload; records never carry bytes (image and file records
bind to an attachment by ``attachmentId``). A record whose kind is known is validated by that
kind's schema only and never falls through to ``UnknownRecord``; every other valid kind decodes to
``UnknownRecord`` with its payload kept. ``encode_record(decode_record(x)) == x`` for every valid,
already-trimmed record ``x``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BeforeValidator,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from composer_app.core.contracts.fields import (
    KIND_PATTERN,
    AttachmentId,
    CommentText,
    ContextId,
    DiffText,
    FenceLanguage,
    HtmlText,
    JsonInt,
    Label,
    MimeType,
    Name,
    PathText,
    PositiveInt,
    ReviewText,
    ShortString,
    SourceRevision,
    StrictBool,
    StylesText,
    StyleValue,
    TerminalText,
    ThreadRef,
    TitleText,
    Version,
    not_null,
)
from composer_app.core.contracts.wire_model import WireModel
from composer_app.core.errors import ContractError
from composer_app.core.limits import (
    MAX_PREVIEW_ELEMENT_IDS,
    MAX_PREVIEW_ELEMENTS,
    MAX_STYLE_CHANGE_DETAILS,
    MAX_STYLE_CHANGES,
    UNKNOWN_PAYLOAD_MAX_CHARS,
)
from composer_app.core.text import compact_json, utf16_len

KNOWN_KINDS: tuple[str, ...] = (
    "image",
    "file",
    "terminal",
    "element",
    "preview-annotation",
    "review-comment",
    "mention",
    "skill",
    "thread",
)
_KNOWN = frozenset(KNOWN_KINDS)

# ------------------------------------------------------------------------------------------------
# Nested shapes


class PullRequestMetadata(WireModel):
    """A pull-request snapshot taken when the review record was attached; never refreshed."""

    number: PositiveInt
    title: ShortString
    url: ShortString
    head_branch: ShortString
    base_branch: ShortString
    state: Literal["open", "closed", "merged"]
    is_draft: StrictBool


class ElementSource(WireModel):
    """Where a picked element comes from in source; all four keys are required (nullable)."""

    function_name: ShortString | None
    file_name: ShortString | None
    line_number: JsonInt | None
    column_number: JsonInt | None


class ElementDetails(WireModel):
    """The details of one picked page element (also nested in preview annotations)."""

    page_url: ShortString
    page_title: ShortString | None
    tag_name: Name
    selector: ShortString | None
    html_preview: HtmlText
    component_name: ShortString | None
    source: ElementSource | None
    styles: StylesText


class StyleChangeDetail(WireModel):
    """One requested style change of a preview annotation."""

    target_id: ShortString
    selector: ShortString | None
    property: ShortString
    previous_value: StyleValue
    value: StyleValue


# ------------------------------------------------------------------------------------------------
# Records


class RecordBase(WireModel):
    """Fields every record carries."""

    version: Version
    context_id: ContextId
    kind: str
    label: Label

    @field_validator("*", mode="before")
    @classmethod
    def _reject_null_optionals(cls, value: Any, info: Any) -> Any:
        if value is None and info.field_name in cls._optional:
            return not_null(value)
        return value


class AttachmentRecordBase(RecordBase):
    """The shape image and file records share: a binding to an attachment, never its bytes."""

    attachment_id: AttachmentId
    name: Name
    mime_type: MimeType
    size_bytes: JsonInt


class ImageRecord(AttachmentRecordBase):
    """An image attachment, bound by ``attachmentId``."""

    kind: Literal["image"]


class FileRecord(AttachmentRecordBase):
    """A file attachment, bound by ``attachmentId``."""

    kind: Literal["file"]


class TerminalRecord(RecordBase):
    """A terminal excerpt: lines ``lineStart..lineEnd`` of one terminal."""

    kind: Literal["terminal"]
    terminal_id: Name
    terminal_label: Name
    line_start: JsonInt
    line_end: JsonInt
    text: TerminalText

    @model_validator(mode="after")
    def _range(self) -> TerminalRecord:
        if self.line_end < self.line_start:
            raise ValueError("lineEnd must be at least lineStart")
        return self


class ElementRecord(RecordBase):
    """A picked page element: the common fields plus every field of ``ElementDetails``."""

    kind: Literal["element"]
    page_url: ShortString
    page_title: ShortString | None
    tag_name: Name
    selector: ShortString | None
    html_preview: HtmlText
    component_name: ShortString | None
    source: ElementSource | None
    styles: StylesText

    def details(self) -> ElementDetails:
        """The element's details without the record fields."""
        return ElementDetails.model_validate(
            {name: getattr(self, name) for name in ElementDetails.model_fields}
        )


class PreviewAnnotationRecord(RecordBase):
    """A preview annotation: a comment on a page region with requested visual changes."""


    kind: Literal["preview-annotation"]
    annotation_id: ShortString
    page_url: ShortString
    page_title: ShortString | None
    comment: CommentText
    target_summary: ShortString
    style_changes: Annotated[list[ShortString], Field(max_length=MAX_STYLE_CHANGES)]
    elements: Annotated[list[ElementDetails], Field(max_length=MAX_PREVIEW_ELEMENTS)] | None = None
    element_ids: (
        Annotated[list[ShortString], Field(max_length=MAX_PREVIEW_ELEMENT_IDS)] | None
    ) = None
    region_count: JsonInt | None = None
    stroke_count: JsonInt | None = None
    style_change_details: (
        Annotated[list[StyleChangeDetail], Field(max_length=MAX_STYLE_CHANGE_DETAILS)] | None
    ) = None
    screenshot_context_id: ContextId | None = None


class ReviewCommentRecord(RecordBase):
    """A review comment on a diff range, or a pull-request summary (``pullRequest``)."""


    kind: Literal["review-comment"]
    section_id: Name
    section_title: ShortString
    file_path: PathText
    start_index: JsonInt
    end_index: JsonInt
    range_label: ShortString
    text: ReviewText
    diff: DiffText
    fence_language: FenceLanguage | None = None
    source_revision: SourceRevision | None = None
    source_stale: StrictBool | None = None
    pull_request: PullRequestMetadata | None = None

    @model_validator(mode="after")
    def _range(self) -> ReviewCommentRecord:
        if self.end_index < self.start_index:
            raise ValueError("endIndex must be at least startIndex")
        return self


class MentionRecord(RecordBase):
    """A file mention (a path in the workspace)."""

    kind: Literal["mention"]
    path: PathText


class SkillRecord(RecordBase):
    """A skill the user invoked."""

    kind: Literal["skill"]
    name: Name


class ThreadRecord(RecordBase):
    """Another thread attached as reference material; ``title`` is a snapshot."""

    kind: Literal["thread"]
    environment_id: ThreadRef
    thread_id: ThreadRef
    title: TitleText


def _unknown_kind(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("must be a string")
    if KIND_PATTERN.fullmatch(value) is None:
        raise ValueError("must match [a-z][a-z0-9-]{0,39}")
    if value in _KNOWN:
        raise ValueError("a known kind must satisfy its own schema")
    return value


def _payload(value: Any) -> Any:
    try:
        encoded = compact_json(value)
    except (TypeError, ValueError) as exc:
        raise ValueError("must be JSON") from exc
    if len(encoded) > UNKNOWN_PAYLOAD_MAX_CHARS and utf16_len(encoded) > UNKNOWN_PAYLOAD_MAX_CHARS:
        raise ValueError(f"compact JSON must be at most {UNKNOWN_PAYLOAD_MAX_CHARS} UTF-16 units")
    return value


class UnknownRecord(RecordBase):
    """A record of a kind this build does not know; its payload is kept unchanged."""

    kind: Annotated[str, BeforeValidator(_unknown_kind)]
    payload: Annotated[Any, BeforeValidator(_payload)]


ContextRecord = Annotated[
    Annotated[ImageRecord, Tag("image")]
    | Annotated[FileRecord, Tag("file")]
    | Annotated[TerminalRecord, Tag("terminal")]
    | Annotated[ElementRecord, Tag("element")]
    | Annotated[PreviewAnnotationRecord, Tag("preview-annotation")]
    | Annotated[ReviewCommentRecord, Tag("review-comment")]
    | Annotated[MentionRecord, Tag("mention")]
    | Annotated[SkillRecord, Tag("skill")]
    | Annotated[ThreadRecord, Tag("thread")]
    | Annotated[UnknownRecord, Tag("unknown")],
    Discriminator(lambda value: _discriminate(value)),
]
"""Any record of version 1: a known kind's model or ``UnknownRecord``."""

RECORD_CLASSES: dict[str, type[RecordBase]] = {
    "image": ImageRecord,
    "file": FileRecord,
    "terminal": TerminalRecord,
    "element": ElementRecord,
    "preview-annotation": PreviewAnnotationRecord,
    "review-comment": ReviewCommentRecord,
    "mention": MentionRecord,
    "skill": SkillRecord,
    "thread": ThreadRecord,
}


def _discriminate(value: Any) -> str:
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    return kind if isinstance(kind, str) and kind in _KNOWN else "unknown"


RECORD_ADAPTER: TypeAdapter[Any] = TypeAdapter(ContextRecord)
RECORD_LIST_ADAPTER: TypeAdapter[list[Any]] = TypeAdapter(list[ContextRecord])


def describe_validation_error(exc: ValidationError, prefix: str = "") -> str:
    """A one-line message naming the field and the rule it broke (first few errors)."""
    parts = []
    for error in exc.errors(include_url=False, include_input=False)[:3]:
        loc = [str(p) for p in error["loc"] if p not in _TAGS]
        where = ".".join(loc) or "record"
        message = str(error["msg"]).removeprefix("Value error, ")
        parts.append(f"{prefix}{where}: {message}")
    return "; ".join(parts)


_TAGS = frozenset((*KNOWN_KINDS, "unknown"))


def decode_record(obj: object) -> Any:
    """Validate one wire record; raise ``ContractError`` naming the field and the rule.

    Unknown kinds become ``UnknownRecord`` with the payload kept; a known kind that fails its own
    schema raises. Trimmed fields come back trimmed.
    """
    if not isinstance(obj, dict):
        raise ContractError("record: must be a JSON object")
    try:
        return RECORD_ADAPTER.validate_python(obj, by_alias=True, by_name=False)
    except ValidationError as exc:
        raise ContractError(describe_validation_error(exc)) from None


def encode_record(record: RecordBase) -> dict[str, Any]:
    """The wire dict of a record (optional fields omitted when unset; nullable ones written)."""
    return record.to_wire()
