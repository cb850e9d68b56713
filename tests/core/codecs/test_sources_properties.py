"""Property tests of the sources codecs over arbitrary and adversarial wire data."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from composer_app.core.codecs.sources import (
    assign_citation_numbers,
    enumerate_blocks,
    is_display_safe,
    is_placeholder,
    is_safe_link,
    normalize_sources,
    open_link,
    strip_for_share,
    visible_actions,
)
from composer_app.core.codecs.sources_share import SHARE_KEYS
from composer_app.core.contracts.sources import (
    SourceEntry,
    decode_grounding,
    decode_sources,
    encode_sources,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=25,
)

PRIVATE = ["conn_7f3a9", "1AbCdEfGhIjKlMnOpQrStUvWxYz0123", "18c2", "finance-team"]
DISPLAY_POOL = [
    "Dana Reyes",
    "#finance",
    "finance-team",
    "unknown",
    "#unknown",
    " N/A ",
    "",
    "U024BE7LH9",
    "6f1c2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
    "12345678",
    "AAMkAGI2TG93AAA1234567",
    "alice@example.com",
    "2026-10-03T09:12:00Z",
    "CONFIDENTIAL",
    *PRIVATE,
]
LINK_POOL = [
    "https://example.org/a",
    "http://Example.org:80/a/?utm_source=x",
    "https://example.org/a#frag",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "ftp://example.org/",
    "/relative",
    "https://user@example.org/",
    "https://bücher.example/",
]
display_values = st.sampled_from(DISPLAY_POOL) | st.text(max_size=30)
metadata_values = (
    display_values
    | st.integers(-5, 10**9)
    | st.booleans()
    | st.lists(display_values, max_size=12)
    | st.none()
)


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.just(None), strategy, json_values)


@st.composite
def raw_entries(draw: st.DrawFn) -> dict[str, Any]:
    fields: dict[str, st.SearchStrategy[Any]] = {
        "id": st.sampled_from(["a", "b", "c", " d ", "bad id", ""]),
        "type": st.sampled_from(
            ["connector-file", "external-link", "email", "contact", "calendar-event", "item", "x"]
        ),
        "sourceLabel": st.sampled_from(["Google Drive", "Web", "unknown", " Slack "]),
        "sourceUsage": st.sampled_from(["used", "checked", "listed", "cited"]),
        "availableActions": st.lists(st.sampled_from(["open", "download", "share", 1]), max_size=4),
        "title": maybe(display_values),
        "snippet": maybe(display_values),
        "confidence": maybe(st.floats(-1, 2)),
        "provider": maybe(st.sampled_from(["google", "slack", "Google"])),
        "createdAt": maybe(st.sampled_from(["2026-09-02T08:15:00Z", "2026-09-02"])),
        "sourceAccountLabel": maybe(display_values),
        "metadata": maybe(
            st.dictionaries(
                st.sampled_from(["from", "author", "sheet", "9x"]), metadata_values, max_size=4
            )
        ),
        "readinessHint": maybe(display_values),
        "recencyHint": maybe(display_values),
        "connectorId": maybe(st.sampled_from(PRIVATE)),
        "fileId": maybe(st.sampled_from(PRIVATE)),
        "itemId": maybe(st.sampled_from(PRIVATE)),
        "webViewLink": maybe(st.sampled_from(LINK_POOL)),
        "itemLink": maybe(st.sampled_from(LINK_POOL)),
        "toolName": maybe(st.sampled_from(["mail.search", "Mail"])),
        "citationTarget": maybe(
            st.fixed_dictionaries(
                {
                    "blockIndex": st.integers(-1, 5),
                    "blockType": st.sampled_from(["paragraph", "heading", "table", "code"]),
                }
            )
        ),
    }
    keys = draw(st.sets(st.sampled_from(list(fields))))
    required = {"id", "type", "sourceLabel", "sourceUsage", "availableActions"}
    keys |= required if draw(st.booleans()) else set()
    return {key: draw(fields[key]) for key in sorted(keys)}


sources_values = st.builds(
    lambda entries, version: {"version": version, "entries": entries},
    st.lists(raw_entries(), max_size=8),
    st.sampled_from([1, 1, 1, 1.0, 2, "1"]),
)


def assert_display_safe(entry: SourceEntry) -> None:
    for text in (entry.title, entry.snippet, entry.readiness_hint, entry.recency_hint):
        assert text is None or not is_placeholder(text)
    assert not is_placeholder(entry.source_label)
    private = entry.private_ids
    if entry.source_account_label is not None:
        assert is_display_safe(entry.source_account_label, private)
    for value in (entry.metadata or {}).values():
        assert is_display_safe(value, private)
        if isinstance(value, list):
            assert all(is_display_safe(item, private) for item in value)
    for link in (entry.web_view_link, entry.item_link):
        assert link is None or is_safe_link(link)


@SETTINGS
@given(json_values)
def test_decoding_arbitrary_json_never_raises(value: Any) -> None:
    assert decode_sources(value) == []
    wrapped = decode_sources({"version": 1, "entries": [value, value]})
    assert len(wrapped) <= 1
    for entry in wrapped:
        assert_display_safe(entry)
    grounding = decode_grounding(value, block_count=3)
    assert all(s.block_end < 3 for s in grounding.grounding_segments)
    assert normalize_sources(value, public=False) is None


@SETTINGS
@given(sources_values)
def test_decoded_entries_obey_the_contract(value: dict[str, Any]) -> None:
    entries = decode_sources(value)
    if value["version"] not in (1, 1.0) or isinstance(value["version"], bool):
        assert entries == []
    assert len({e.id for e in entries}) == len(entries) <= 100
    for entry in entries:
        assert_display_safe(entry)
    assert decode_sources(encode_sources(entries)) == entries


@SETTINGS
@given(sources_values, st.booleans())
def test_normalization_is_idempotent_and_safe(value: dict[str, Any], public: bool) -> None:
    once = normalize_sources(value, public=public)
    assert normalize_sources(once, public=public) == once
    entries = decode_sources(once)
    assert encode_sources(entries) == once
    for entry in entries:
        assert_display_safe(entry)
        assert entry.available_actions == visible_actions(entry, public=public)
        if public:
            assert entry.type == "external-link"
            assert entry.private_ids == ()


@SETTINGS
@given(sources_values, st.booleans())
def test_open_only_with_an_http_link_and_download_only_for_files(
    value: dict[str, Any], public: bool
) -> None:
    for entry in decode_sources(value):
        actions = visible_actions(entry, public=public)
        if "open" in actions:
            link = open_link(entry)
            assert link is not None and is_safe_link(link)
            assert link.lower().startswith(("http://", "https://"))
        if "download" in actions:
            assert not public
            assert entry.type == "connector-file" and entry.file_id is not None
        if public and entry.type != "external-link":
            assert actions == []


@SETTINGS
@given(sources_values)
def test_shared_messages_keep_only_share_fields(value: dict[str, Any]) -> None:
    message = {"role": "assistant", "text": "x", "sources": value}
    shared = strip_for_share(message)
    assert message["sources"] is value
    for raw in (shared.get("sources") or {"entries": []})["entries"]:
        assert set(raw) <= set(SHARE_KEYS)
        assert raw["availableActions"] == []


markdown_text = st.lists(
    st.sampled_from(
        [
            "# H",
            "para",
            "- item",
            "  - nested",
            "> quote",
            "| a |",
            "|---|",
            "| 1 |",
            "```",
            "---",
            "<div>",
            "",
            "    code",
            "1. one",
            "Title",
            "===",
            "😀 text",
        ]
    ),
    max_size=14,
).map("\n".join)


@SETTINGS
@given(
    markdown_text,
    st.lists(
        st.tuples(
            st.integers(0, 8),
            st.sampled_from(["paragraph", "heading", "list-item", "table"]),
            st.booleans(),
        ),
        max_size=6,
    ),
)
def test_numbering_only_adds_contiguous_numbers(
    text: str, targets: list[tuple[int, str, bool]]
) -> None:
    blocks = enumerate_blocks(text)
    assert [b.index for b in blocks] == list(range(len(blocks)))
    assert all(b.type in {"heading", "paragraph", "list-item", "table", "code"} for b in blocks)
    entries = [
        SourceEntry.model_validate(
            {
                "id": f"s{i}",
                "type": "item",
                "sourceLabel": "Jira",
                "sourceUsage": "used" if used else "checked",
                "availableActions": [],
                "citationTarget": {"blockIndex": index, "blockType": kind},
            }
        )
        for i, (index, kind, used) in enumerate(targets)
    ]
    partial = assign_citation_numbers(blocks[:-1], entries, {})
    full = assign_citation_numbers(blocks, entries, partial)
    assert full.items() >= partial.items()
    assert sorted(full.values()) == list(range(1, len(full) + 1))
