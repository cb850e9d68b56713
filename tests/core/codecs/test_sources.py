"""Panel grouping, counts, bands, account labels and display metadata (docs/sources.md §4, §5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from composer_app.core.codecs import sources as codec
from composer_app.core.codecs.sources import (
    account_label,
    account_provenance,
    assign_citation_numbers,
    confidence_band,
    display_metadata,
    enumerate_blocks,
    group_entries,
    sources_action_text,
    usage_counts,
)
from composer_app.core.contracts.sources import SourceEntry, decode_sources

EXAMPLE = json.loads(
    (Path(__file__).resolve().parents[2] / "fixtures" / "sources_example.json").read_text("utf-8")
)


def entry(entry_id: str, usage: str = "used", **extra: Any) -> SourceEntry:
    raw: dict[str, Any] = {
        "id": entry_id,
        "type": "item",
        "sourceLabel": "Jira",
        "sourceUsage": usage,
        "availableActions": [],
    }
    raw.update(extra)
    return SourceEntry.model_validate(raw)


def test_public_names_are_exported_sorted() -> None:
    assert codec.__all__ == sorted(codec.__all__)
    for name in codec.__all__:
        assert hasattr(codec, name), name


def test_example_groups_numbers_and_action_text() -> None:
    entries = decode_sources(EXAMPLE["sources"])
    numbers = assign_citation_numbers(enumerate_blocks(EXAMPLE["text"]), entries, {})
    groups = group_entries(entries, numbers)
    assert [(usage, [e.title for e in members]) for usage, members in groups] == [
        ("used", ["Q3 budget plan.xlsx", "Revised plans due 14 October"]),
        ("checked", ["Budget discussion"]),
        ("listed", ["Corporate travel trends 2026"]),
    ]
    assert [numbers.get(e.id) for e in groups[0][1]] == [1, 2]
    assert groups[1][1][0].readiness_hint == "Checked the 50 most recent messages in #finance."
    assert sources_action_text(entries) == "Sources · 2 used · 1 checked · 1 listed"


def test_used_entries_come_numbered_first_then_in_wire_order() -> None:
    entries = [
        entry("plain1"),
        entry("checked1", "checked"),
        entry("n2"),
        entry("listed1", "listed"),
        entry("n1"),
        entry("plain2"),
        entry("checked2", "checked"),
    ]
    groups = group_entries(entries, {"n1": 1, "n2": 2, "checked1": 3})
    assert [(usage, [e.id for e in members]) for usage, members in groups] == [
        ("used", ["n1", "n2", "plain1", "plain2"]),
        ("checked", ["checked1", "checked2"]),
        ("listed", ["listed1"]),
    ]


def test_empty_groups_are_not_returned() -> None:
    assert group_entries([], {}) == []
    only_checked = group_entries([entry("a", "checked")], {})
    assert [usage for usage, _ in only_checked] == ["checked"]


def test_action_text_lists_non_zero_counts_in_order() -> None:
    assert sources_action_text([]) is None
    assert sources_action_text([entry("a"), entry("b")]) == "Sources · 2 used"
    assert sources_action_text([entry("a", "listed"), entry("b", "checked")]) == (
        "Sources · 1 checked · 1 listed"
    )
    assert usage_counts([entry("a", "listed")]) == {"used": 0, "checked": 0, "listed": 1}


@pytest.mark.parametrize(
    ("value", "band"),
    [
        (1.0, "strong"),
        (0.82, "strong"),
        (0.75, "strong"),
        (0.7499, "partial"),
        (0.4, "partial"),
        (0.3999, "check this"),
        (0.0, "check this"),
    ],
)
def test_confidence_bands(value: float, band: str) -> None:
    assert confidence_band(value) == band


def test_account_label_prefers_the_entry_label() -> None:
    own = entry("a", sourceAccountLabel="alice@example.com", connectorId="conn_1")
    assert account_label(own, {"conn_1": "bob@example.com"}) == "alice@example.com"


def test_account_label_falls_back_to_a_meaningful_linked_profile_value() -> None:
    linked = {"conn_1": " Alice Smith ", "conn_2": "109876543210", "conn_3": "conn_3"}
    assert account_label(entry("a", connectorId="conn_1"), linked) == "Alice Smith"
    assert account_label(entry("a", connectorId="conn_2"), linked) is None
    assert account_label(entry("a", connectorId="conn_3"), linked) is None
    assert account_label(entry("a", connectorId="conn_9"), linked) is None
    assert account_label(entry("a"), linked) is None
    assert account_label(entry("a", connectorId="conn_1")) is None


def test_account_provenance_is_not_participation() -> None:
    drive = entry("a", sourceLabel="Google Drive")
    assert account_provenance(drive, "alice@example.com") == "From alice@example.com's Google Drive"
    assert account_provenance(drive, None) is None


def test_display_metadata_renders_only_known_keys_with_fixed_labels() -> None:
    entries = decode_sources(EXAMPLE["sources"])
    assert display_metadata(entries[0]) == [("Folder", "Finance / Planning"), ("Sheet", "Summary")]
    assert display_metadata(entries[1]) == [
        ("From", "Dana Reyes <dana@example.com>"),
        ("Subject", "Revised plans due 14 October"),
    ]
    assert display_metadata(entries[2]) == [("Channel", "#finance"), ("Author", "Dana Reyes")]
    assert display_metadata(entries[3]) == [("Site", "www.example.org")]


def test_display_metadata_formats_values_and_filters_visibility() -> None:
    event = entry(
        "e",
        type="calendar-event",
        metadata={
            "start": "2026-10-14T09:00:00Z",
            "attendees": ["Dana Reyes", "Lee Park"],
            "visibility": "limited-detail",
            "responseStatus": "accepted",
            "rawPayload": "ignored",
        },
    )
    assert display_metadata(event) == [
        ("Starts", "2026-10-14T09:00:00Z"),
        ("Attendees", "Dana Reyes, Lee Park"),
        ("Response", "accepted"),
        ("Visibility", "Limited details"),
    ]
    public_event = entry("e", type="calendar-event", metadata={"visibility": "public"})
    assert display_metadata(public_event) == []
    document = entry(
        "d", type="connector-file", metadata={"pages": 12.0, "sheet": True, "mimeType": "PDF"}
    )
    assert display_metadata(document) == [("Type", "PDF"), ("Pages", "12"), ("Sheet", "Yes")]


def test_external_link_host_comes_from_the_link_not_metadata() -> None:
    web = entry(
        "w",
        type="external-link",
        itemLink="https://bücher.example/a",
        metadata={"host": "spoofed.example", "publishedAt": "2026-11-01"},
    )
    assert display_metadata(web) == [("Site", "xn--bcher-kva.example"), ("Published", "2026-11-01")]
    assert display_metadata(entry("w", type="external-link", metadata={"host": "x.example"})) == []


def test_knowledge_files_show_a_readable_date_not_a_raw_iso_timestamp():
    from composer_app.core.codecs.sources import display_metadata, readable_date
    from composer_app.core.contracts.sources import decode_sources

    [entry] = decode_sources({"version": 1, "entries": [{
        "id": "kb:1", "type": "connector-file", "sourceLabel": "Knowledge folder",
        "sourceUsage": "used", "availableActions": [], "title": "handbook.md",
        "metadata": {"folderPath": "HR", "modifiedAt": "2026-09-02T08:15:00Z"}}]})
    assert ("Modified", "2 Sep 2026") in display_metadata(entry)
    assert readable_date("2025-12-31") == "31 Dec 2025"
    assert readable_date("2026-13-01T00:00:00Z") is None
    assert readable_date("Finance / 2026-09-02") is None
