"""Record union v1: schemas, bounds in UTF-16 units, the open end, and the error messages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from composer_app.core.contracts.records import (
    KNOWN_KINDS,
    ImageRecord,
    PreviewAnnotationRecord,
    ReviewCommentRecord,
    TerminalRecord,
    ThreadRecord,
    UnknownRecord,
    decode_record,
    encode_record,
)
from composer_app.core.errors import ContractError


def terminal(**over: Any) -> dict[str, Any]:
    base = {
        "version": 1,
        "contextId": "ctx_t",
        "kind": "terminal",
        "label": "Terminal 1 lines 3-4",
        "terminalId": "terminal-1",
        "terminalLabel": "Terminal 1",
        "lineStart": 3,
        "lineEnd": 4,
        "text": "a\nb",
    }
    base.update(over)
    return base


def review(**over: Any) -> dict[str, Any]:
    base = {
        "version": 1,
        "contextId": "ctx_r",
        "kind": "review-comment",
        "label": "a.ts L4",
        "sectionId": "s1",
        "sectionTitle": "Changes",
        "filePath": "src/a.ts",
        "startIndex": 4,
        "endIndex": 4,
        "rangeLabel": "L4",
        "text": "Why?",
        "diff": "",
    }
    base.update(over)
    return base


def element_details() -> dict[str, Any]:
    return {
        "pageUrl": "http://localhost:3000/",
        "pageTitle": None,
        "tagName": "button",
        "selector": None,
        "htmlPreview": "<button/>",
        "componentName": None,
        "source": None,
        "styles": "",
    }


def test_known_kinds_are_the_nine_in_contract_order() -> None:
    assert KNOWN_KINDS == (
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


def test_thread_kind_resolves_as_a_known_record() -> None:
    wire = {
        "version": 1,
        "contextId": "ctx_th",
        "kind": "thread",
        "label": "Design review",
        "environmentId": "env_1",
        "threadId": "thr_1",
        "title": "Design review",
    }
    record = decode_record(wire)
    assert isinstance(record, ThreadRecord)
    assert encode_record(record) == wire


@pytest.mark.parametrize(
    ("wire", "field"),
    [
        (terminal(lineStart=5, lineEnd=4), "lineEnd"),
        (terminal(lineStart=True), "lineStart"),
        (terminal(lineStart=-1), "lineStart"),
        (terminal(lineStart=1.5), "lineStart"),
        (terminal(lineStart=2**53), "lineStart"),
        (terminal(terminalLabel="   "), "terminalLabel"),
        (terminal(text=7), "text"),
        (terminal(label="x" * 201), "label"),
        (terminal(label="😀" * 101), "label"),
        (terminal(text="😀" * 32_001), "text"),
        (terminal(contextId="x" * 129), "contextId"),
        (terminal(contextId="ctx/1"), "contextId"),
        (terminal(version=True), "version"),
        (terminal(version="1"), "version"),
        (review(fenceLanguage=None), "fenceLanguage"),
        (review(sourceStale="true"), "sourceStale"),
        (review(startIndex=5, endIndex=4), "endIndex"),
        (review(pullRequest={"number": 0}), "pullRequest"),
        (review(text="x" * 16_001), "text"),
        (review(diff="x" * 32_001), "diff"),
    ],
)
def test_invalid_fields_raise_contract_error_naming_the_field(wire: dict, field: str) -> None:
    with pytest.raises(ContractError) as info:
        decode_record(wire)
    assert field in str(info.value) or "lineEnd" in str(info.value)


def test_bounds_count_utf16_units_not_code_points() -> None:
    # 100 emoji are 200 units: exactly at the label bound.
    assert decode_record(terminal(label="😀" * 100)).label == "😀" * 100
    assert decode_record(terminal(text="😀" * 32_000)).text == "😀" * 32_000


def test_integral_floats_are_integers_and_decode_to_int() -> None:
    record = decode_record(terminal(lineStart=3.0, lineEnd=4.0, version=1.0))
    assert isinstance(record, TerminalRecord)
    assert record.line_start == 3 and type(record.line_start) is int
    assert record.version == 1


def test_optional_fields_are_omitted_and_nullable_fields_written() -> None:
    record = decode_record(review())
    assert isinstance(record, ReviewCommentRecord)
    assert "fenceLanguage" not in encode_record(record)
    wire = {
        "version": 1,
        "contextId": "ctx_pa",
        "kind": "preview-annotation",
        "label": "x",
        "annotationId": "a1",
        "pageUrl": "http://x/",
        "pageTitle": None,
        "comment": "",
        "targetSummary": "",
        "styleChanges": [],
        "elements": [element_details()],
    }
    encoded = encode_record(decode_record(wire))
    assert encoded == wire
    assert encoded["elements"][0]["pageTitle"] is None


def test_missing_nullable_key_is_an_error() -> None:
    details = element_details()
    del details["selector"]
    wire = {"version": 1, "contextId": "c", "kind": "element", "label": "<b>", **details}
    with pytest.raises(ContractError, match="selector"):
        decode_record(wire)


def test_preview_list_bounds() -> None:
    base = {
        "version": 1,
        "contextId": "ctx_pa",
        "kind": "preview-annotation",
        "label": "x",
        "annotationId": "a1",
        "pageUrl": "http://x/",
        "pageTitle": None,
        "comment": "",
        "targetSummary": "",
        "styleChanges": ["a: b → c"] * 200,
    }
    assert isinstance(decode_record(base), PreviewAnnotationRecord)
    with pytest.raises(ContractError, match="styleChanges"):
        decode_record({**base, "styleChanges": ["x"] * 201})
    with pytest.raises(ContractError, match="elements"):
        decode_record({**base, "elements": [element_details()] * 51})


def test_unknown_kinds_keep_payload_and_ignore_other_keys() -> None:
    wire = {"version": 1, "contextId": "c", "kind": "future", "label": "F", "payload": None}
    record = decode_record({**wire, "extra": 1})
    assert isinstance(record, UnknownRecord)
    assert encode_record(record) == wire


@pytest.mark.parametrize(
    ("payload", "ok"),
    [("x" * 63_998, True), ("x" * 63_999, False), ('"' * 32_000, False), ("\x00" * 10_666, True)],
)
def test_unknown_payload_bound_measures_compact_json(payload: str, ok: bool) -> None:
    wire = {"version": 1, "contextId": "c", "kind": "future", "label": "F", "payload": payload}
    if ok:
        assert decode_record(wire).payload == payload
    else:
        with pytest.raises(ContractError, match="payload"):
            decode_record(wire)


@pytest.mark.parametrize("kind", ["Image", "x" * 41, "1abc", "", "a b"])
def test_bad_kind_grammar_raises(kind: str) -> None:
    with pytest.raises(ContractError):
        decode_record({"version": 1, "contextId": "c", "kind": kind, "label": "", "payload": 1})


def test_non_objects_raise() -> None:
    for value in (None, [], "x", 1):
        with pytest.raises(ContractError):
            decode_record(value)


def test_records_are_frozen() -> None:
    record = decode_record(
        {
            "version": 1,
            "contextId": "c",
            "kind": "image",
            "label": "a",
            "attachmentId": "att",
            "name": "a.png",
            "mimeType": "image/png",
            "sizeBytes": 1,
        }
    )
    assert isinstance(record, ImageRecord)
    with pytest.raises(ValueError):
        record.label = "b"  # type: ignore[misc]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=12), children, max_size=6),
    max_leaves=20,
)
record_like = st.fixed_dictionaries(
    {},
    optional={
        "version": st.sampled_from([1, 1.0, 2, True, "1", None]),
        "contextId": st.sampled_from(["ctx", " ctx ", "", "a b", "x" * 129]) | st.text(max_size=8),
        "kind": st.sampled_from([*KNOWN_KINDS, "future", "Bad", ""]),
        "label": st.text(max_size=10) | st.integers(),
        "payload": json_values,
        "name": st.text(max_size=5),
        "lineStart": json_values,
        "lineEnd": json_values,
        "pullRequest": json_values,
    },
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(record_like, json_values))
def test_decode_record_raises_only_contract_errors(obj: Any) -> None:
    try:
        record = decode_record(obj)
    except ContractError:
        return
    # Whatever decodes re-encodes to JSON and decodes to the same record.
    wire = encode_record(record)
    json.dumps(wire)
    assert decode_record(wire) == record


def test_an_element_record_gives_its_details() -> None:
    from composer_app.core.contracts.records import ElementDetails

    element = decode_record({
        "version": 1, "contextId": "ctx_e", "kind": "element", "label": "<b>", "pageUrl": "u",
        "pageTitle": "Page", "tagName": "b", "selector": "#x", "htmlPreview": "<b>",
        "componentName": None, "source": None, "styles": ""})
    details = element.details()
    assert isinstance(details, ElementDetails)
    assert (details.page_title, details.selector, details.tag_name) == ("Page", "#x", "b")


def test_the_unknown_record_refuses_known_kinds_and_non_string_kinds() -> None:
    from pydantic import ValidationError

    from composer_app.core.contracts.records import UnknownRecord

    base = {"version": 1, "contextId": "ctx_u", "label": "u", "payload": None}
    for kind in ("image", 7):
        with pytest.raises(ValidationError):
            UnknownRecord.model_validate({**base, "kind": kind})
    with pytest.raises(ContractError):
        decode_record({**base, "kind": "future-thing", "payload": {1, 2}})
