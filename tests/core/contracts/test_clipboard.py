"""Clipboard fragment shape: constants, source ids, version, the record bound, immutability."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from composer_app.core.contracts.clipboard import (
    ACCEPTED_CLIPBOARD_MIMES,
    CLIPBOARD_MIME,
    ClipboardFragment,
    FragmentSource,
)
from composer_app.core.contracts.records import SkillRecord, decode_record
from tests.support.vectors import load, run


def skill(context_id: str = "ctx_s", name: str = "pinchtab") -> dict[str, Any]:
    return {
        "version": 1,
        "contextId": context_id,
        "kind": "skill",
        "label": "$" + name,
        "name": name,
    }


@pytest.mark.parametrize(
    "vector", [v for v in load("clipboard.json") if v.values[0]["fn"] == "constant"]
)
def test_constant_vectors(vector: dict[str, Any]) -> None:
    run(vector)


def test_the_written_format_is_one_of_the_accepted_ones() -> None:
    assert ACCEPTED_CLIPBOARD_MIMES[0] == CLIPBOARD_MIME
    assert ACCEPTED_CLIPBOARD_MIMES[1] == "web " + CLIPBOARD_MIME


def test_source_reads_camel_case_and_trims_ids() -> None:
    source = FragmentSource.model_validate(
        {"environmentId": " env_1 ", "threadId": "\u3000thr_1\n", "messageId": "msg_1"}
    )
    assert (source.environment_id, source.thread_id, source.message_id) == (
        "env_1",
        "thr_1",
        "msg_1",
    )


def test_source_optional_ids_are_omitted_when_unset() -> None:
    source = FragmentSource(environment_id="env")
    assert source.thread_id is None and source.message_id is None
    assert source.to_wire() == {"environmentId": "env"}


def test_source_ids_have_no_bound_of_their_own() -> None:
    long_id = "e" * 10_000
    assert FragmentSource(environment_id=long_id).environment_id == long_id


@pytest.mark.parametrize(
    "wire",
    [
        {},
        {"environmentId": None},
        {"environmentId": ""},
        {"environmentId": " \t\ufeff"},
        {"environmentId": 7},
        {"environmentId": b"env"},
        {"environmentId": "env", "threadId": None},
        {"environmentId": "env", "messageId": None},
        {"environmentId": "env", "threadId": "  "},
        {"environmentId": "env", "messageId": 3},
    ],
)
def test_invalid_sources_are_rejected(wire: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        FragmentSource.model_validate(wire)


def test_fragment_reads_wire_form_and_writes_it_back() -> None:
    wire = {
        "version": 1,
        "source": {"environmentId": "env", "threadId": "thr"},
        "records": [skill()],
    }
    fragment = ClipboardFragment.model_validate(wire)
    assert isinstance(fragment.records[0], SkillRecord)
    assert fragment.to_wire() == wire
    assert list(fragment.to_wire()) == ["version", "source", "records"]


@pytest.mark.parametrize("version", [1, 1.0])
def test_version_one_accepts_the_integral_float(version: object) -> None:
    fragment = ClipboardFragment.model_validate(
        {"version": version, "source": {"environmentId": "e"}, "records": []}
    )
    assert fragment.version == 1 and type(fragment.version) is int


@pytest.mark.parametrize("version", [True, 2, 1.5, "1", None])
def test_other_versions_are_rejected(version: object) -> None:
    with pytest.raises(ValidationError):
        ClipboardFragment.model_validate(
            {"version": version, "source": {"environmentId": "e"}, "records": []}
        )


def test_a_fragment_holds_at_most_200_records() -> None:
    source = FragmentSource(environment_id="env")
    records = [decode_record(skill(f"ctx_{i}")) for i in range(201)]
    assert len(ClipboardFragment(source=source, records=records[:200]).records) == 200
    with pytest.raises(ValidationError):
        ClipboardFragment(source=source, records=records)


def test_fragment_and_source_are_frozen() -> None:
    fragment = ClipboardFragment(source=FragmentSource(environment_id="env"), records=[])
    with pytest.raises(ValidationError):
        fragment.source.environment_id = "other"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        fragment.records = []  # type: ignore[misc]


def test_a_fragment_source_writes_only_the_ids_it_has() -> None:
    from composer_app.core.contracts.clipboard import FragmentSource

    assert FragmentSource(environment_id="env_1").to_wire() == {"environmentId": "env_1"}
    full = FragmentSource(environment_id="env_1", thread_id="thr_1", message_id="msg_1")
    assert full.to_wire() == {"environmentId": "env_1", "threadId": "thr_1", "messageId": "msg_1"}
