"""MessageContext decoding stages: raw limits fatal, bad records dropped, duplicates fatal."""

from __future__ import annotations

from typing import Any

import pytest

from composer_app.core.contracts.messages import (
    decode_message_context,
    encode_message_context,
    message_context_of,
)
from composer_app.core.errors import ContractError


def skill(cid: str, name: str = "s") -> dict[str, Any]:
    return {"version": 1, "contextId": cid, "kind": "skill", "label": "$s", "name": name}


def test_bad_records_are_dropped_and_siblings_kept(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO")
    ctx = decode_message_context(
        {"version": 1, "records": [skill("a"), {"version": 1, "kind": "image"}, 3, skill("b")]}
    )
    assert [r.context_id for r in ctx.records] == ["a", "b"]
    assert "dropped 2" in caplog.text


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        {"version": 2, "records": []},
        {"version": True, "records": []},
        {"records": []},
        {"version": 1},
        {"version": 1, "records": {}},
        {"version": 1, "records": [{}] * 201},
        {"version": 1, "records": [skill("a"), skill(" a ")]},
    ],
)
def test_fatal_context_errors(obj: object) -> None:
    with pytest.raises(ContractError):
        decode_message_context(obj)


def test_size_limit_counts_the_raw_array_in_utf16_units() -> None:
    big = {"version": 1, "contextId": "c", "kind": "future", "label": "", "payload": "x"}
    # 200 records of 64,000-unit NUL escapes exceed 16,000,000 units before decoding.
    heavy = [{**big, "contextId": f"c{i}", "payload": "\x00" * 10_666} for i in range(200)]
    decode_message_context({"version": 1, "records": heavy})  # about 13 M units: fine
    heavier = [{**big, "contextId": f"c{i}", "junk": "\x00" * 13_500} for i in range(200)]
    with pytest.raises(ContractError, match="16000000"):
        decode_message_context({"version": 1, "records": heavier})


def test_round_trip_and_empty_context_is_omitted() -> None:
    wire = {"version": 1, "records": [skill("a"), skill("b", "t")]}
    assert encode_message_context(decode_message_context(wire)) == wire
    assert message_context_of([]) is None
    ctx = decode_message_context(wire)
    assert list(ctx.by_id()) == ["a", "b"]


def test_records_that_are_not_json_are_a_contract_error() -> None:
    with pytest.raises(ContractError, match="must be JSON"):
        decode_message_context({"version": 1, "records": [{1, 2}]})


def test_no_records_make_no_context() -> None:
    assert message_context_of([]) is None


def test_records_make_a_checked_context() -> None:
    from composer_app.core.contracts.records import decode_record

    skill = decode_record(
        {"version": 1, "contextId": "skill_s", "kind": "skill", "label": "s", "name": "s"})
    context = message_context_of([skill])
    assert context is not None and [r.context_id for r in context.records] == ["skill_s"]
    with pytest.raises(ContractError):
        message_context_of([skill, skill])
