"""The one ``null`` rule of every wire model, and hand-built wire objects under the same rule."""

from __future__ import annotations

from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import Field

from composer_app.core.contracts.records import ElementSource, decode_record, encode_record
from composer_app.core.contracts.wire import (
    AttachmentRef,
    SubscribeFrame,
    ThreadSummary,
    UserMessageInput,
)
from composer_app.core.contracts.wire_model import WireModel, wire_object
from composer_app.core.errors import ContractError


class _Shape(WireModel):
    required_value: int
    nullable_value: str | None
    optional_value: str | None = None
    defaulted: int = 3


class _Nested(WireModel):
    inner: _Shape
    items: list[_Shape] = Field(default_factory=list)


class _NullMeans(WireModel):
    cursor: int | None = None
    _null_written: ClassVar[frozenset[str]] = frozenset({"cursor"})


def test_optional_fields_are_left_out_and_required_nullable_fields_write_null() -> None:
    shape = _Shape(required_value=1, nullable_value=None)
    assert shape.to_wire() == {"requiredValue": 1, "nullableValue": None, "defaulted": 3}
    assert _Shape._optional == frozenset({"optional_value"})
    filled = _Shape(required_value=1, nullable_value="x", optional_value="y")
    assert filled.to_wire() == {
        "requiredValue": 1, "nullableValue": "x", "optionalValue": "y", "defaulted": 3}


def test_the_rule_holds_at_every_depth() -> None:
    inner = _Shape(required_value=2, nullable_value=None)
    assert _Nested(inner=inner, items=[inner]).to_wire() == {
        "inner": {"requiredValue": 2, "nullableValue": None, "defaulted": 3},
        "items": [{"requiredValue": 2, "nullableValue": None, "defaulted": 3}],
    }


def test_a_null_with_a_meaning_of_its_own_is_written() -> None:
    assert _NullMeans().to_wire() == {"cursor": None}
    frame = SubscribeFrame.model_validate(
        {"subscriptionId": "s1", "stream": {"kind": "shell"}})
    assert frame.to_wire()["afterSequence"] is None


def test_protocol_and_record_models_follow_the_same_rule() -> None:
    summary = ThreadSummary.model_validate(
        {"threadId": "thr_1", "createdAt": "a", "updatedAt": "b", "lastSequence": 0})
    assert "title" not in summary.to_wire() and "provider" not in summary.to_wire()
    element = decode_record({
        "version": 1, "contextId": "ctx_e", "kind": "element", "label": "<b>", "pageUrl": "u",
        "pageTitle": None, "tagName": "b", "selector": None, "htmlPreview": "",
        "componentName": None,
        "source": {"functionName": None, "fileName": "a.tsx", "lineNumber": None,
                   "columnNumber": None},
        "styles": ""})
    wire = encode_record(element)
    assert wire["pageTitle"] is None and wire["source"]["lineNumber"] is None
    assert ElementSource._optional == frozenset()
    ref = AttachmentRef(attachment_id="att_1", name="a", mime_type="text/plain", size_bytes=1)
    message = UserMessageInput(message_id="msg_1", text="hi", attachments=[ref])
    assert "context" not in message.to_wire()


def test_wire_object_uses_camel_case_and_leaves_out_none_in_keyword_order() -> None:
    assert list(wire_object(thread_id="t", title=None, last_sequence=0, is_streaming=False)) == [
        "threadId", "lastSequence", "isStreaming"]
    assert wire_object(text="", items=[]) == {"text": "", "items": []}


@given(st.dictionaries(st.from_regex(r"[a-z]{1,8}(_[a-z]{1,8}){0,2}", fullmatch=True),
                       st.none() | st.integers() | st.text(max_size=5)))
def test_wire_object_keeps_every_set_value(fields: dict[str, object]) -> None:
    obj = wire_object(**fields)
    kept = [value for value in fields.values() if value is not None]
    assert list(obj.values()) == kept
    assert all("_" not in key and key[:1].islower() for key in obj)


def test_an_explicit_null_for_an_optional_record_field_is_invalid() -> None:
    with pytest.raises(ContractError):
        decode_record({
            "version": 1, "contextId": "ctx_r", "kind": "review-comment", "label": "r",
            "sectionId": "s", "sectionTitle": "t", "filePath": "a.py", "startIndex": 1,
            "endIndex": 2, "rangeLabel": "+1", "text": "", "diff": "", "fenceLanguage": None})
