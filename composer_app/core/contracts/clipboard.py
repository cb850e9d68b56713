"""The clipboard fragment: records copied together with their Markdown (docs/contract.md §9.1).

Invariants: a fragment never carries bytes or URLs (binaries are resolved by the receiving side);
``version`` is exactly the integer 1 (``1.0`` counts, ``true`` does not); ``source`` ids are
trimmed, non-empty strings and the trimmed value is kept; an optional id is either absent or a
string, never JSON ``null``; a fragment holds at most ``MAX_RECORDS`` records.

Clipboard data is untrusted: read it with ``composer_app.core.codecs.clipboard.decode_fragment``,
which drops undecodable and duplicate records and returns ``None`` instead of raising.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, Strict

from composer_app.core.contracts.fields import json_version, not_null
from composer_app.core.contracts.records import ContextRecord, encode_record
from composer_app.core.limits import MAX_RECORDS
from composer_app.core.text import WS

CLIPBOARD_MIME = "application/x-t3-context-fragment+json"
"""The clipboard format this app writes."""

ACCEPTED_CLIPBOARD_MIMES = (
    "application/x-t3-context-fragment+json",
    "web application/x-t3-context-fragment+json",
)
"""The formats a reader accepts; the second is what web peers write through the async clipboard."""


def trim_source_id(value: str) -> str:
    """Trim a source id with the contract whitespace set; it must not end up empty."""
    trimmed = value.strip(WS)
    if not trimmed:
        raise ValueError("must not be empty after trimming")
    return trimmed


SourceId = Annotated[str, Strict(), AfterValidator(trim_source_id)]
OptionalSourceId = Annotated[SourceId | None, BeforeValidator(not_null)]


class FragmentSource(BaseModel):
    """Where a fragment was copied from: an environment, optionally a thread and a message."""

    model_config = ConfigDict(frozen=True, validate_by_name=True, validate_by_alias=True)

    environment_id: SourceId = Field(alias="environmentId")
    thread_id: OptionalSourceId = Field(default=None, alias="threadId")
    message_id: OptionalSourceId = Field(default=None, alias="messageId")

    def to_wire(self) -> dict[str, str]:
        """Wire JSON: ``environmentId`` always, ``threadId``/``messageId`` only when set."""
        wire = {"environmentId": self.environment_id}
        if self.thread_id is not None:
            wire["threadId"] = self.thread_id
        if self.message_id is not None:
            wire["messageId"] = self.message_id
        return wire


class ClipboardFragment(BaseModel):
    """Version 1 of the fragment: its source and the copied records, in first-reference order."""

    model_config = ConfigDict(frozen=True, validate_by_name=True, validate_by_alias=True)

    version: Annotated[Literal[1], BeforeValidator(json_version)] = 1
    source: FragmentSource
    records: list[ContextRecord] = Field(max_length=MAX_RECORDS)

    def to_wire(self) -> dict[str, Any]:
        """Wire JSON with keys ``version``, ``source``, ``records`` in that order."""
        return {
            "version": 1,
            "source": self.source.to_wire(),
            "records": [encode_record(record) for record in self.records],
        }
