"""``MessageContext``: the records of one message (docs/contract.md §3).

Decoding runs three stages in order: raw checks on the undecoded array (fatal), per-record decoding
(a bad record is dropped and its siblings kept), then uniqueness of the trimmed context ids (fatal).
The server carries a context through untouched; event history is never rewritten.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from composer_app.core.contracts.fields import json_version
from composer_app.core.contracts.records import (
    RECORD_ADAPTER,
    ContextRecord,
    RecordBase,
    describe_validation_error,
    encode_record,
)
from composer_app.core.errors import ContractError
from composer_app.core.limits import MAX_CONTEXT_JSON_CHARS, MAX_RECORDS
from composer_app.core.text import compact_json, utf16_len

_log = logging.getLogger(__name__)


class MessageContext(BaseModel):
    """The structured context of one message: at most 200 records with unique context ids."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    version: Literal[1] = 1
    records: list[ContextRecord]

    def by_id(self) -> dict[str, RecordBase]:
        """Records keyed by context id (ids are unique by construction)."""
        return {record.context_id: record for record in self.records}


def _check_raw(obj: object) -> list[Any]:
    if not isinstance(obj, dict):
        raise ContractError("context: must be a JSON object")
    try:
        json_version(obj.get("version"))
    except ValueError:
        raise ContractError("context.version: must be 1") from None
    raw = obj.get("records")
    if not isinstance(raw, list):
        raise ContractError("context.records: must be a list")
    if len(raw) > MAX_RECORDS:
        raise ContractError(f"context.records: must hold at most {MAX_RECORDS} records")
    try:
        size_text = compact_json(raw)
    except (TypeError, ValueError):
        raise ContractError("context.records: must be JSON") from None
    if len(size_text) > MAX_CONTEXT_JSON_CHARS and utf16_len(size_text) > MAX_CONTEXT_JSON_CHARS:
        raise ContractError(
            f"context.records: compact JSON must be at most {MAX_CONTEXT_JSON_CHARS} UTF-16 units"
        )
    return raw


def decode_records_dropping(raw: list[Any]) -> tuple[list[ContextRecord], int]:
    """Decode each element; return the valid records and how many were dropped."""
    records: list[ContextRecord] = []
    dropped = 0
    validate = RECORD_ADAPTER.validate_python
    for item in raw:
        if not isinstance(item, dict):
            dropped += 1
            continue
        try:
            records.append(validate(item, by_alias=True, by_name=False))
        except ValueError:  # pydantic's ValidationError is a ValueError
            dropped += 1
    return records, dropped


def decode_message_context(obj: object) -> MessageContext:
    """Decode ``{version: 1, records: [...]}`` in three stages; raises ``ContractError``."""
    raw = _check_raw(obj)
    records, dropped = decode_records_dropping(raw)
    if dropped:
        _log.info("message context: dropped %d undecodable record(s)", dropped)
    seen: set[str] = set()
    for record in records:
        if record.context_id in seen:
            raise ContractError(f"context.records: duplicate contextId {record.context_id!r}")
        seen.add(record.context_id)
    return MessageContext.model_construct(version=1, records=records)


def encode_message_context(ctx: MessageContext) -> dict[str, Any]:
    """``{"version": 1, "records": [...]}``; senders omit ``context`` when there are no records."""
    return {"version": 1, "records": [encode_record(record) for record in ctx.records]}


def message_context_of(records: list[RecordBase]) -> MessageContext | None:
    """A context for ``records`` (checked for unique ids), or None when there are none."""
    if not records:
        return None
    return decode_message_context({"version": 1, "records": [encode_record(r) for r in records]})


__all__ = [
    "MessageContext",
    "decode_message_context",
    "decode_records_dropping",
    "describe_validation_error",
    "encode_message_context",
    "message_context_of",
]
