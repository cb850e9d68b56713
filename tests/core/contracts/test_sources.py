"""Decoding and encoding of assistant sources and grounding metadata (docs/sources.md §2-§7)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from composer_app.core.contracts.sources import (
    CitationTarget,
    Grounding,
    GroundingSegment,
    SourceEntry,
    decode_grounding,
    decode_sources,
    encode_grounding,
    encode_sources,
)

EXAMPLE_PATH = Path(__file__).resolve().parents[2] / "fixtures" / "sources_example.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE_PATH.read_text(encoding="utf-8"))
    return data


def minimal(**extra: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": "src_1",
        "type": "connector-file",
        "sourceLabel": "Google Drive",
        "sourceUsage": "used",
        "availableActions": [],
    }
    entry.update(extra)
    return entry


def wrap(*entries: Any) -> dict[str, Any]:
    return {"version": 1, "entries": list(entries)}


def decode_one(entry: Any) -> SourceEntry | None:
    decoded = decode_sources(wrap(entry))
    return decoded[0] if decoded else None


# --- the docs/sources.md §2 example ---------------------------------------------------------------


def test_example_decodes_with_every_field() -> None:
    entries = decode_sources(example()["sources"])
    assert [e.id for e in entries] == ["src_1", "src_2", "src_3", "src_4"]
    first = entries[0]
    assert first.type == "connector-file"
    assert first.source_label == "Google Drive"
    assert first.source_usage == "used"
    assert first.available_actions == ["open", "download"]
    assert first.title == "Q3 budget plan.xlsx"
    assert first.confidence == 0.82
    assert first.provider == "google"
    assert first.created_at == "2026-09-02T08:15:00Z"
    assert first.source_account_label == "alice@example.com"
    assert first.metadata == {"folderPath": "Finance / Planning", "sheet": "Summary"}
    assert first.connector_id == "conn_7f3a9"
    assert first.file_id == "1AbCdEfGhIjKlMnOpQrStUvWxYz0123"
    assert first.web_view_link == "https://docs.example.com/spreadsheets/d/1AbCdEf/edit"
    assert first.tool_name == "drive.search"
    assert first.citation_target == CitationTarget(block_index=1, block_type="paragraph")
    assert entries[1].readiness_hint == "Searched mail from the last 90 days."
    assert entries[1].metadata == {
        "from": "Dana Reyes <dana@example.com>",
        "subject": "Revised plans due 14 October",
    }
    assert entries[2].metadata == {"channelName": "#finance", "author": "Dana Reyes"}
    assert entries[2].recency_hint == "Chat messages change quickly; checked at 14:02."
    assert entries[3].citation_target is None


def test_example_encodes_back_to_its_wire_value() -> None:
    sources = example()["sources"]
    assert encode_sources(decode_sources(sources)) == sources


def test_example_grounding_decodes() -> None:
    grounding = decode_grounding(example()["metadata"], block_count=4)
    assert grounding.grounding_mode == "mixed"
    assert grounding.grounding_contributors == ["indexed-documents", "mail", "general-knowledge"]
    assert [
        (s.block_start, s.block_end, s.grounding_mode) for s in grounding.grounding_segments
    ] == [
        (0, 2, "source-backed"),
        (3, 3, "general-knowledge"),
    ]
    assert encode_grounding(grounding) == example()["metadata"]


def test_models_are_frozen_and_take_aliases_or_names() -> None:
    entry = SourceEntry.model_validate(minimal())
    same = SourceEntry(
        id="src_1",
        type="connector-file",
        source_label="Google Drive",
        source_usage="used",
        available_actions=[],
    )
    assert entry == same
    with pytest.raises(ValidationError):
        entry.title = "x"


def test_encode_sources_omits_unset_fields_and_gives_none_for_no_entries() -> None:
    assert encode_sources([]) is None
    assert encode_sources(decode_sources(wrap(minimal()))) == wrap(minimal())


# --- the sources object -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        None,
        [],
        "x",
        {},
        {"entries": [minimal()]},
        {"version": 2, "entries": [minimal()]},
        {"version": "1", "entries": [minimal()]},
        {"version": True, "entries": [minimal()]},
        {"version": 1.5, "entries": [minimal()]},
        {"version": 1, "entries": {"0": minimal()}},
        {"version": 1},
    ],
)
def test_anything_but_version_1_with_an_entry_list_gives_no_entries(value: Any) -> None:
    assert decode_sources(value) == []


def test_version_one_point_zero_is_version_one() -> None:
    assert len(decode_sources({"version": 1.0, "entries": [minimal()]})) == 1


def test_a_later_entry_with_a_seen_id_is_dropped() -> None:
    entries = decode_sources(wrap(minimal(title="first"), minimal(title="second")))
    assert [e.title for e in entries] == ["first"]


def test_an_invalid_first_occurrence_does_not_block_a_valid_later_one() -> None:
    entries = decode_sources(wrap(minimal(type="video"), minimal(title="valid")))
    assert [e.title for e in entries] == ["valid"]


def test_the_first_100_valid_entries_are_kept() -> None:
    raw = [minimal(id="bad", type="nope")] + [minimal(id=f"s{i}") for i in range(105)]
    entries = decode_sources(wrap(*raw))
    assert [e.id for e in entries] == [f"s{i}" for i in range(100)]


def test_unknown_keys_are_ignored_and_not_reemitted() -> None:
    entry = decode_one(minimal(rawPayload={"x": 1}, extra="y"))
    assert entry is not None
    assert encode_sources([entry]) == wrap(minimal())


# --- required fields ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["id", "type", "sourceLabel", "sourceUsage", "availableActions"])
def test_a_missing_required_field_drops_the_entry(key: str) -> None:
    entry = minimal()
    del entry[key]
    assert decode_sources(wrap(entry)) == []


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("id", ""),
        ("id", "   "),
        ("id", "a" * 129),
        ("id", "src/1"),
        ("id", "src 1"),
        ("id", 7),
        ("id", None),
        ("type", "video"),
        ("type", "Email"),
        ("type", None),
        ("sourceLabel", ""),
        ("sourceLabel", "x" * 81),
        ("sourceLabel", "unknown"),
        ("sourceLabel", " N/A "),
        ("sourceLabel", 3),
        ("sourceUsage", "cited"),
        ("sourceUsage", None),
        ("availableActions", "open"),
        ("availableActions", None),
        ("availableActions", {"open": True}),
    ],
)
def test_an_invalid_required_field_drops_the_entry(key: str, value: Any) -> None:
    assert decode_sources(wrap(minimal(**{key: value}))) == []


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("id", "  src_1  ", "src_1"),
        ("id", "a:b.c-d_e", "a:b.c-d_e"),
        ("id", "a" * 128, "a" * 128),
        ("sourceLabel", "  Gmail ", "Gmail"),
        ("sourceLabel", "x" * 80, "x" * 80),
        ("availableActions", ["open", "share", 3, "download", "open"], ["open", "download"]),
        ("availableActions", [], []),
    ],
)
def test_required_fields_are_normalized(key: str, value: Any, expected: Any) -> None:
    entry = decode_one(minimal(**{key: value}))
    assert entry is not None
    assert encode_sources([entry])["entries"][0][key] == expected  # type: ignore[index]


# --- optional fields ----------------------------------------------------------------------------

SAFE_LINK = "https://docs.example.com/d/1"

OPTIONAL_CASES: list[tuple[str, Any, Any]] = [
    # (wire key, input, expected decoded wire value or None for dropped)
    ("title", "  Q3 plan ", "Q3 plan"),
    ("title", "x" * 300, "x" * 300),
    ("title", "x" * 301, None),
    ("title", "   ", None),
    ("title", "unknown", None),
    ("title", "#Unknown", None),
    ("title", "IMG_20260901_123456.jpg", "IMG_20260901_123456.jpg"),
    ("title", "1AbCdEfGhIjKlMnOpQrStUvWxYz0123", "1AbCdEfGhIjKlMnOpQrStUvWxYz0123"),
    ("title", None, None),
    ("title", 5, None),
    ("snippet", "  spaced  ", "  spaced  "),
    ("snippet", "x" * 2000, "x" * 2000),
    ("snippet", "x" * 2001, None),
    ("snippet", "😀" * 1000, "😀" * 1000),
    ("snippet", "😀" * 1000 + "x", None),
    ("snippet", " \u3000\n", None),
    ("snippet", "", None),
    ("snippet", "undefined", None),
    ("confidence", 0.82, 0.82),
    ("confidence", 0, 0.0),
    ("confidence", 1, 1.0),
    ("confidence", 1.01, None),
    ("confidence", -0.1, None),
    ("confidence", True, None),
    ("confidence", "0.5", None),
    ("provider", "google", "google"),
    ("provider", "my-provider-2", "my-provider-2"),
    ("provider", "Google", None),
    ("provider", "a" * 41, None),
    ("provider", "", None),
    ("createdAt", "2026-09-02T08:15:00Z", "2026-09-02T08:15:00Z"),
    ("createdAt", "2026-09-02T08:15:00.123+02:00", "2026-09-02T08:15:00.123+02:00"),
    ("createdAt", "2026-09-02t08:15:00z", "2026-09-02t08:15:00z"),
    ("createdAt", "2026-06-30T23:59:60Z", "2026-06-30T23:59:60Z"),
    ("createdAt", "2026-06-30T23:59:61Z", None),
    ("createdAt", "2026-09-02T08:15:00-05:30", "2026-09-02T08:15:00-05:30"),
    ("createdAt", "2026-09-02T08:15:00+05:60", None),
    ("createdAt", "2026-09-02 08:15:00Z", None),
    ("createdAt", "2026-09-02T08:15:00", None),
    ("createdAt", "2026-09-02", None),
    ("createdAt", "2026-02-30T08:15:00Z", None),
    ("createdAt", "2026-09-02T25:15:00Z", None),
    ("createdAt", "2026-09-02T08:15:00+24:00", None),
    ("createdAt", "yesterday", None),
    ("sourceAccountLabel", " alice@example.com ", "alice@example.com"),
    ("sourceAccountLabel", "Alice Smith", "Alice Smith"),
    ("sourceAccountLabel", "x" * 121, None),
    ("sourceAccountLabel", "unknown user", None),
    ("sourceAccountLabel", "U0123ABCD9", None),
    ("sourceAccountLabel", "123456789", None),
    ("sourceAccountLabel", "6f1c2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e5f", None),
    (
        "readinessHint",
        "Searched mail from the last 90 days.",
        "Searched mail from the last 90 days.",
    ),
    ("readinessHint", "x" * 281, None),
    ("readinessHint", "none", None),
    ("recencyHint", " Checked at 14:02. ", "Checked at 14:02."),
    ("recencyHint", "", None),
    ("connectorId", " conn_1 ", "conn_1"),
    ("connectorId", "c" * 129, None),
    ("fileId", "f" * 512, "f" * 512),
    ("fileId", "f" * 513, None),
    ("itemId", " 18c2 ", "18c2"),
    ("itemId", "", None),
    ("webViewLink", SAFE_LINK, SAFE_LINK),
    ("webViewLink", "http://example.com", "http://example.com"),
    ("webViewLink", "javascript:alert(1)", None),
    ("webViewLink", "data:text/html,hi", None),
    ("webViewLink", "file:///etc/passwd", None),
    ("webViewLink", "ftp://example.com/x", None),
    ("webViewLink", "/relative/path", None),
    ("webViewLink", "//example.com/x", None),
    ("webViewLink", "https://user:pw@example.com/", None),
    ("webViewLink", "https:///nohost", None),
    ("webViewLink", "https://example.com/" + "a" * 2029, None),
    ("itemLink", "https://example.com/" + "a" * 2028, "https://example.com/" + "a" * 2028),
    ("itemLink", " https://example.com/", None),
    ("toolName", "mail.search", "mail.search"),
    ("toolName", "Mail.search", None),
    ("toolName", "a" * 65, None),
    (
        "citationTarget",
        {"blockIndex": 2, "blockType": "list-item"},
        {"blockIndex": 2, "blockType": "list-item"},
    ),
    (
        "citationTarget",
        {"blockIndex": 2.0, "blockType": "table"},
        {"blockIndex": 2, "blockType": "table"},
    ),
    ("citationTarget", {"blockIndex": -1, "blockType": "paragraph"}, None),
    ("citationTarget", {"blockIndex": True, "blockType": "paragraph"}, None),
    ("citationTarget", {"blockIndex": 1, "blockType": "code"}, None),
    ("citationTarget", {"blockIndex": 1}, None),
    ("citationTarget", [1, "paragraph"], None),
]


@pytest.mark.parametrize(("key", "value", "expected"), OPTIONAL_CASES)
def test_optional_field_bounds(key: str, value: Any, expected: Any) -> None:
    entry = decode_one(minimal(**{key: value}))
    assert entry is not None, "a bad optional field never drops the entry"
    encoded = encode_sources([entry])["entries"][0]  # type: ignore[index]
    assert encoded.get(key) == expected


# --- metadata and private ids ---------------------------------------------------------------------


def test_metadata_keeps_curated_values_and_drops_opaque_and_placeholder_ones() -> None:
    entry = decode_one(
        minimal(
            type="item",
            connectorId="conn_7f3a9",
            itemId="p1700000000123456",
            metadata={
                "channelName": "#finance",
                "conversationLabel": "#unknown",
                "author": "U024BE7LH",
                "threadId": "p1700000000123456",
                "folder": "0AbCdEfGhIjKlMnOpQrSt9",
                "connector": "conn_7f3a9",
                "conversation": "6f1c2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
                "count": 3,
                "pinned": False,
                "attendees": ["Dana Reyes", "unknown", "W0123ABCDE"],
                "ghosts": ["none", "null"],
                "sentAt": "2026-10-03T09:12:00Z",
                "email": "alice.smith1990@example.com",
                "label": "CONFIDENTIAL",
            },
        )
    )
    assert entry is not None
    assert entry.metadata == {
        "channelName": "#finance",
        "count": 3,
        "pinned": False,
        "attendees": ["Dana Reyes"],
        "sentAt": "2026-10-03T09:12:00Z",
        "email": "alice.smith1990@example.com",
        "label": "CONFIDENTIAL",
    }


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ({f"k{i}": "v" for i in range(24)}, {f"k{i}": "v" for i in range(24)}),
        ({f"k{i}": "v" for i in range(25)}, None),
        ({"ok": "v", "9bad": "v", "bad-key": "v", "b" * 41: "v"}, {"ok": "v"}),
        ({"a" + "b" * 39: "v"}, {"a" + "b" * 39: "v"}),
        ({"long": "x" * 301, "fine": "x" * 300}, {"fine": "x" * 300}),
        ({"list": ["a"] * 11}, None),
        ({"list": ["a", 1]}, None),
        ({"obj": {"a": 1}, "nil": None}, None),
        ({}, None),
        ("not an object", None),
    ],
)
def test_metadata_bounds(metadata: Any, expected: Any) -> None:
    entry = decode_one(minimal(metadata=metadata))
    assert entry is not None
    assert entry.metadata == expected


def test_account_label_equal_to_a_private_id_is_dropped() -> None:
    entry = decode_one(minimal(connectorId="acct-main", sourceAccountLabel="acct-main"))
    assert entry is not None
    assert entry.source_account_label is None
    assert entry.connector_id == "acct-main"


def test_private_ids_are_kept_for_resolution_but_not_as_display_values() -> None:
    entry = decode_one(minimal(fileId="report", metadata={"sheet": "report", "pages": 4}))
    assert entry is not None
    assert entry.file_id == "report"
    assert entry.metadata == {"pages": 4}
    assert entry.private_ids == ("report",)


def test_constructing_an_entry_with_unsafe_display_values_fails_loudly() -> None:
    with pytest.raises(ValidationError):
        SourceEntry.model_validate(minimal(metadata={"author": "U024BE7LH9"}))
    with pytest.raises(ValidationError):
        SourceEntry.model_validate(minimal(connectorId="c1", sourceAccountLabel="c1"))


def test_decoding_does_not_modify_its_argument() -> None:
    sources = example()["sources"]
    before = copy.deepcopy(sources)
    decode_sources(sources)
    assert sources == before


# --- grounding ----------------------------------------------------------------------------------


def segment(start: Any, end: Any, mode: Any = "source-backed", **extra: Any) -> dict[str, Any]:
    return {
        "blockStart": start,
        "blockEnd": end,
        "groundingMode": mode,
        "contributors": ["mail"],
    } | extra


@pytest.mark.parametrize("value", [None, [], "mixed", 3])
def test_grounding_of_a_non_object_is_empty(value: Any) -> None:
    assert decode_grounding(value) == Grounding()
    assert encode_grounding(decode_grounding(value)) == {}


def test_grounding_drops_invalid_items_one_by_one() -> None:
    grounding = decode_grounding(
        {
            "groundingMode": "partly",
            "groundingContributors": ["mail", "mail", "email", 3, "calendar", "public-web"],
            "groundingSegments": [
                segment(0, 0),
                segment(2, 1),
                segment(-1, 0),
                segment(1, 1, "mixed"),
                segment(1, 1.5),
                segment(True, 1),
                {"blockStart": 1, "blockEnd": 1, "groundingMode": "source-backed"},
                "segment",
                segment(1, 2, "general-knowledge"),
            ],
        }
    )
    assert grounding.grounding_mode is None
    assert grounding.grounding_contributors == ["mail", "calendar", "public-web"]
    assert [(s.block_start, s.block_end) for s in grounding.grounding_segments] == [(0, 0), (1, 2)]


def test_segments_keep_only_their_four_keys_and_valid_contributors() -> None:
    raw = segment(0, 1, sourceIds=["src_1"], snippet="secret", reasoning="because")
    raw["contributors"] = ["mail", "slack", "mail", "tabular-data"]
    grounding = decode_grounding({"groundingMode": "mixed", "groundingSegments": [raw]})
    assert encode_grounding(grounding)["groundingSegments"] == [
        {
            "blockStart": 0,
            "blockEnd": 1,
            "groundingMode": "source-backed",
            "contributors": ["mail", "tabular-data"],
        }
    ]


def test_segments_are_sorted_overlaps_dropped_and_bounded_by_block_count() -> None:
    metadata = {
        "groundingSegments": [
            segment(4, 5),
            segment(0, 1),
            segment(1, 3, "general-knowledge"),
            segment(2, 3, "general-knowledge"),
            segment(6, 9),
        ]
    }
    spans = [
        (s.block_start, s.block_end)
        for s in decode_grounding(metadata, block_count=7).grounding_segments
    ]
    assert spans == [(0, 1), (2, 3), (4, 5)]
    unbounded = decode_grounding(metadata).grounding_segments
    assert [(s.block_start, s.block_end) for s in unbounded] == [(0, 1), (2, 3), (4, 5), (6, 9)]


def test_grounding_bounds_contributors_and_segments() -> None:
    many = decode_grounding({"groundingSegments": [segment(i, i) for i in range(250)]})
    assert len(many.grounding_segments) == 200
    with pytest.raises(ValidationError):
        GroundingSegment(
            block_start=3, block_end=2, grounding_mode="source-backed", contributors=[]
        )


def test_a_non_finite_metadata_number_is_dropped_alone() -> None:
    entry = {"id": "s1", "type": "connector-file", "sourceLabel": "Google Drive",
             "sourceUsage": "used", "availableActions": [],
             "metadata": {"pages": float("inf"), "sheet": "Q3"}}
    [decoded] = decode_sources({"version": 1, "entries": [entry]})
    assert decoded.metadata == {"sheet": "Q3"}


def test_a_segment_that_ends_before_it_starts_is_dropped() -> None:
    metadata = {"groundingMode": "mixed", "groundingSegments": [
        {"blockStart": 2, "blockEnd": 1, "groundingMode": "source-backed", "contributors": []},
        {"blockStart": 0, "blockEnd": 0, "groundingMode": "general-knowledge",
         "contributors": []}]}
    segments = decode_grounding(metadata).grounding_segments
    assert [(s.block_start, s.block_end) for s in segments] == [(0, 0)]
    with pytest.raises(ValidationError):
        GroundingSegment.model_validate(
            {"blockStart": 2, "blockEnd": 1, "groundingMode": "source-backed",
             "contributors": []})


def test_repeated_contributors_and_non_object_entries_are_dropped() -> None:
    with pytest.raises(ValidationError):
        GroundingSegment.model_validate(
            {"blockStart": 0, "blockEnd": 0, "groundingMode": "source-backed",
             "contributors": ["mail", "mail"]})
    assert decode_sources({"version": 1, "entries": [5, "x", None]}) == []
