"""Action gating (docs/sources.md §8, §10)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from composer_app.core.codecs.sources import (
    download_route,
    open_link,
    open_tooltip,
    visible_actions,
)
from composer_app.core.codecs.sources_actions import needs_open_confirmation
from composer_app.core.contracts.sources import SourceEntry, decode_sources

EXAMPLE = json.loads(
    (Path(__file__).resolve().parents[2] / "fixtures" / "sources_example.json").read_text("utf-8")
)
LINK = "https://docs.example.com/d/1"


def entry(**fields: Any) -> SourceEntry:
    raw: dict[str, Any] = {
        "id": "s",
        "type": "connector-file",
        "sourceLabel": "Google Drive",
        "sourceUsage": "used",
        "availableActions": ["open", "download"],
    }
    raw.update(fields)
    decoded = decode_sources({"version": 1, "entries": [raw]})
    assert decoded
    return decoded[0]


def test_example_rows_offer_open_and_download_then_open() -> None:
    entries = decode_sources(EXAMPLE["sources"])
    assert [visible_actions(e) for e in entries] == [
        ["open", "download"],
        ["open"],
        ["open"],
        ["open"],
    ]


def test_download_needs_a_connector_file_with_a_file_id() -> None:
    assert visible_actions(entry(webViewLink=LINK)) == ["open"]
    assert visible_actions(entry(fileId="f1")) == ["download"]
    assert visible_actions(entry(type="email", fileId="f1", itemLink=LINK)) == ["open"]
    assert visible_actions(entry(type="item", fileId="f1", itemId="i1")) == []


def test_open_needs_a_safe_link() -> None:
    assert visible_actions(entry(fileId="f1", webViewLink="javascript:alert(1)")) == ["download"]
    assert visible_actions(entry(fileId="f1", itemId="PROJ-1")) == ["download"]
    assert visible_actions(entry(fileId="f1", itemLink="http://example.com/x")) == [
        "open",
        "download",
    ]


def test_only_listed_actions_are_shown_in_wire_order() -> None:
    both = dict(fileId="f1", webViewLink=LINK)
    assert visible_actions(entry(availableActions=[], **both)) == []
    assert visible_actions(entry(availableActions=["download", "open"], **both)) == [
        "download",
        "open",
    ]
    assert visible_actions(entry(availableActions=["download"], **both)) == ["download"]


@pytest.mark.parametrize(
    "source_type", ["connector-file", "email", "contact", "calendar-event", "item"]
)
def test_public_threads_show_no_actions_on_private_types(source_type: str) -> None:
    private = entry(type=source_type, fileId="f1", webViewLink=LINK, itemLink=LINK)
    assert visible_actions(private, public=True) == []


def test_public_external_links_offer_at_most_open() -> None:
    web = entry(type="external-link", fileId="f1", webViewLink=LINK)
    assert visible_actions(web) == ["open"]
    assert visible_actions(web, public=True) == ["open"]
    assert visible_actions(entry(type="external-link"), public=True) == []


def test_open_prefers_the_web_view_link() -> None:
    both = entry(webViewLink="https://view.example/x", itemLink="https://item.example/x")
    assert open_link(both) == "https://view.example/x"
    assert open_link(entry(itemLink="https://item.example/x")) == "https://item.example/x"
    assert open_link(entry()) is None


def test_open_tooltip_shows_the_full_host_first() -> None:
    assert open_tooltip(entry(webViewLink="https://bücher.example/a")) == (
        "xn--bcher-kva.example — https://bücher.example/a"
    )
    assert open_tooltip(entry()) is None


def test_http_links_ask_for_confirmation() -> None:
    assert needs_open_confirmation("http://example.com")
    assert needs_open_confirmation("HTTP://example.com")
    assert not needs_open_confirmation("https://example.com")


def test_download_goes_through_the_authenticated_route() -> None:
    assert download_route("thr_1", "msg_2", "src:3") == (
        "/api/threads/thr_1/messages/msg_2/sources/src%3A3/download"
    )
    assert download_route("a/b", "m", "s") == "/api/threads/a%2Fb/messages/m/sources/s/download"
