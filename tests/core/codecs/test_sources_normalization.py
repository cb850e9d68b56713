"""The server normalization pipeline: bounds, merges, caps, public mode (docs/sources.md §11)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from composer_app.core.codecs.sources import merge_duplicates, normalize_sources
from composer_app.core.codecs.sources_normalization import cap_entries, identity_key
from composer_app.core.contracts.sources import SourceEntry, decode_sources

EXAMPLE = json.loads(
    (Path(__file__).resolve().parents[2] / "fixtures" / "sources_example.json").read_text("utf-8")
)


def raw(
    entry_id: str, usage: str = "used", source_type: str = "item", **extra: Any
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": entry_id,
        "type": source_type,
        "sourceLabel": "Label",
        "sourceUsage": usage,
        "availableActions": [],
    }
    entry.update(extra)
    return entry


def wrap(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"version": 1, "entries": list(entries)}


def ids(sources: dict[str, Any] | None) -> list[str]:
    return [e["id"] for e in (sources or {"entries": []})["entries"]]


def test_the_example_is_already_normal() -> None:
    assert normalize_sources(EXAMPLE["sources"], public=False) == EXAMPLE["sources"]


def test_nothing_valid_gives_none() -> None:
    assert normalize_sources(None, public=False) is None
    assert normalize_sources(wrap(), public=False) is None
    assert normalize_sources(wrap(raw("a", source_type="video")), public=False) is None


def test_unsupported_actions_are_removed() -> None:
    sources = normalize_sources(
        wrap(
            raw("a", source_type="email", availableActions=["open", "download"]),
            raw("b", source_type="connector-file", availableActions=["download", "open"]),
            raw("c", source_type="connector-file", fileId="f", availableActions=["download"]),
            raw("d", itemLink="https://x.example/", availableActions=["open", "zip"]),
        ),
        public=False,
    )
    assert [e["availableActions"] for e in sources["entries"]] == [  # type: ignore[index]
        [],
        [],
        ["download"],
        ["open"],
    ]


def test_same_id_merges_into_the_first_position_with_the_strongest_usage() -> None:
    sources = normalize_sources(
        wrap(
            raw("a", "listed", title="First title"),
            raw("b", "checked"),
            raw("a", "used", title="Later title", snippet="filled", provider="jira"),
            raw("a", "checked", readinessHint="Partial."),
        ),
        public=False,
    )
    assert sources == wrap(
        raw(
            "a",
            "used",
            title="First title",
            snippet="filled",
            provider="jira",
            readinessHint="Partial.",
        ),
        raw("b", "checked"),
    )


def test_identity_keys_merge_files_links_and_provider_items() -> None:
    sources = normalize_sources(
        wrap(
            raw("f1", "checked", "connector-file", fileId="FILE"),
            raw("w1", "listed", "external-link", webViewLink="https://Example.org/a/?utm_source=x"),
            raw("i1", "listed", provider="jira", itemId="PROJ-1"),
            raw("f2", "used", "connector-file", fileId="FILE", title="Plan"),
            raw("w2", "used", "external-link", itemLink="https://example.org:443/a#part"),
            raw("i2", "checked", provider="jira", itemId="PROJ-1"),
            raw("i3", "used", provider="slack", itemId="PROJ-1"),
            raw("i4", "used", itemId="PROJ-1"),
        ),
        public=False,
    )
    assert sources is not None
    assert ids(sources) == ["f1", "w1", "i1", "i3", "i4"]
    assert [e["sourceUsage"] for e in sources["entries"]] == [
        "used",
        "used",
        "checked",
        "used",
        "used",
    ]
    assert sources["entries"][0]["title"] == "Plan"
    assert sources["entries"][1]["itemLink"] == "https://example.org:443/a#part"


def test_a_fill_that_reveals_a_new_match_merges_again() -> None:
    entries = decode_sources(
        wrap(
            raw("a", "listed", "connector-file"),
            raw("b", "checked", "connector-file", fileId="F"),
            raw("a", "used", "connector-file", fileId="F"),
        )
    )
    # decode drops the repeated id; normalization merges it instead.
    assert [e.id for e in entries] == ["a", "b"]
    sources = normalize_sources(
        wrap(
            raw("a", "listed", "connector-file"),
            raw("b", "checked", "connector-file", fileId="F"),
            raw("a", "used", "connector-file", fileId="F"),
        ),
        public=False,
    )
    assert ids(sources) == ["a"]
    assert sources["entries"][0]["sourceUsage"] == "used"  # type: ignore[index]


def test_a_filled_private_id_removes_display_values_equal_to_it() -> None:
    sources = normalize_sources(
        wrap(
            raw("a", metadata={"project": "finance-q3", "status": "Open"}),
            raw("a", connectorId="finance-q3"),
        ),
        public=False,
    )
    assert sources["entries"][0]["metadata"] == {"status": "Open"}  # type: ignore[index]


def test_identity_key_needs_its_data() -> None:
    def key(**fields: Any) -> object:
        return identity_key(SourceEntry.model_validate(raw("x", **fields)))

    assert key(source_type="connector-file") is None
    assert key(source_type="external-link") is None
    assert key(provider="jira") is None
    assert key(itemId="1") is None
    assert key(provider="jira", itemId="1") == ("item", "jira", "1")


def test_at_most_100_entries_dropping_listed_then_checked_from_the_end() -> None:
    entries = (
        [raw(f"u{i}", "used") for i in range(60)]
        + [raw(f"c{i}", "checked") for i in range(30)]
        + [raw(f"l{i}", "listed") for i in range(20)]
    )
    kept = ids(normalize_sources(wrap(*entries), public=False))
    assert len(kept) == 100
    assert kept[:90] == [f"u{i}" for i in range(60)] + [f"c{i}" for i in range(30)]
    assert kept[90:] == [f"l{i}" for i in range(10)]

    checked_heavy = (
        [raw(f"c{i}", "checked") for i in range(70)]
        + [raw(f"u{i}", "used") for i in range(50)]
        + [raw("l", "listed")]
    )
    kept = ids(normalize_sources(wrap(*checked_heavy), public=False))
    assert kept == [f"c{i}" for i in range(50)] + [f"u{i}" for i in range(50)]


def test_cap_drops_used_last() -> None:
    entries = [SourceEntry.model_validate(raw(f"u{i}")) for i in range(5)]
    assert [e.id for e in cap_entries(entries, limit=3)] == ["u0", "u1", "u2"]


def test_public_mode_keeps_external_links_with_at_most_open_and_no_private_ids() -> None:
    sources = normalize_sources(EXAMPLE["sources"], public=True)
    assert sources is not None
    assert ids(sources) == ["src_4"]
    public = normalize_sources(
        wrap(
            raw(
                "w",
                source_type="external-link",
                availableActions=["open", "download"],
                webViewLink="https://example.org/",
                connectorId="conn",
                fileId="file",
                itemId="item",
            )
        ),
        public=True,
    )
    assert public == wrap(
        raw(
            "w",
            source_type="external-link",
            availableActions=["open"],
            webViewLink="https://example.org/",
        )
    )


def test_merge_duplicates_keeps_unrelated_entries() -> None:
    entries = [SourceEntry.model_validate(raw(x)) for x in "abc"]
    assert merge_duplicates(entries) == entries


def test_normalization_is_idempotent_on_a_messy_input() -> None:
    messy = wrap(
        raw("a", "listed", "connector-file", fileId="F", availableActions=["download", "open"]),
        raw("b", "used", "connector-file", fileId="F", webViewLink="javascript:x"),
        raw("c", "checked", "external-link", itemLink="https://e.org/?gclid=1"),
        raw("d", "used", "external-link", webViewLink="https://E.org"),
    )
    once = normalize_sources(messy, public=False)
    assert normalize_sources(once, public=False) == once
    assert ids(once) == ["a", "c"]
