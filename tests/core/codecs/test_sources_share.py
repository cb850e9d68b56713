"""Shared snapshots and thread exports strip private source data (docs/sources.md §10)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from composer_app.core.codecs.sources import export_html, export_markdown, strip_for_share
from composer_app.core.contracts.sources import decode_sources

EXAMPLE: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "fixtures" / "sources_example.json").read_text("utf-8")
)

GOLDEN_SHARED_SOURCES = {
    "version": 1,
    "entries": [
        {
            "id": "src_1",
            "type": "connector-file",
            "sourceLabel": "Google Drive",
            "sourceUsage": "used",
            "availableActions": [],
            "title": "Q3 budget plan.xlsx",
            "citationTarget": {"blockIndex": 1, "blockType": "paragraph"},
        },
        {
            "id": "src_2",
            "type": "email",
            "sourceLabel": "Gmail",
            "sourceUsage": "used",
            "availableActions": [],
            "title": "Revised plans due 14 October",
            "readinessHint": "Searched mail from the last 90 days.",
            "citationTarget": {"blockIndex": 2, "blockType": "paragraph"},
        },
        {
            "id": "src_3",
            "type": "item",
            "sourceLabel": "Slack",
            "sourceUsage": "checked",
            "availableActions": [],
            "title": "Budget discussion",
            "readinessHint": "Checked the 50 most recent messages in #finance.",
            "recencyHint": "Chat messages change quickly; checked at 14:02.",
        },
        {
            "id": "src_4",
            "type": "external-link",
            "sourceLabel": "Web",
            "sourceUsage": "listed",
            "availableActions": [],
            "title": "Corporate travel trends 2026",
            "recencyHint": "Web pages can change; retrieved 30 Nov 2026.",
        },
    ],
}

PRIVATE_VALUES = [
    "conn_7f3a9",
    "1AbCdEfGhIjKlMnOpQrStUvWxYz0123",
    "https://docs.example.com",
    "https://mail.example.com",
    "https://example.slack.com",
    "https://www.example.org",
    "alice@example.com",
    "Travel: 48,000",
    "Finance / Planning",
    "drive.search",
    "mail.search",
    "google",
    "0.82",
    "download",
]


def test_strip_for_share_golden_output_for_the_example() -> None:
    shared = strip_for_share(EXAMPLE)
    assert shared["sources"] == GOLDEN_SHARED_SOURCES
    assert {k: v for k, v in shared.items() if k != "sources"} == {
        k: v for k, v in EXAMPLE.items() if k != "sources"
    }
    assert list(shared) == list(EXAMPLE)


def test_strip_for_share_keeps_grounding_and_does_not_modify_its_argument() -> None:
    original = copy.deepcopy(EXAMPLE)
    shared = strip_for_share(original)
    assert original == EXAMPLE
    assert shared["metadata"] == EXAMPLE["metadata"]
    shared["metadata"]["groundingMode"] = "changed"
    assert original["metadata"]["groundingMode"] == "mixed"


def test_shared_entries_decode_to_titles_only_rows_without_actions() -> None:
    entries = decode_sources(strip_for_share(EXAMPLE)["sources"])
    assert [e.title for e in entries] == [
        "Q3 budget plan.xlsx",
        "Revised plans due 14 October",
        "Budget discussion",
        "Corporate travel trends 2026",
    ]
    assert all(e.available_actions == [] for e in entries)
    assert all(e.private_ids == () and e.web_view_link is None for e in entries)


def test_a_message_without_sources_has_none_after_stripping() -> None:
    plain = {"messageId": "m", "role": "assistant", "text": "Hi"}
    assert strip_for_share(plain) == plain
    invalid = dict(plain, sources={"version": 2, "entries": []})
    assert "sources" not in strip_for_share(invalid)


def test_markdown_export_has_plain_number_tokens_and_no_private_data() -> None:
    user = {"role": "user", "text": "What is the Q3 travel budget?"}
    exported = export_markdown([user, EXAMPLE])
    assert "The Q3 travel budget is $48,000, down 12% from Q2. \\[1\\]" in exported
    assert "by 14 October. \\[2\\]" in exported
    assert "budgets tighten.\n" in exported
    assert "- \\[1\\] Q3 budget plan.xlsx · Google Drive" in exported
    assert "*Checked (1)*" in exported
    assert "Coverage: Checked the 50 most recent messages in #finance." in exported
    assert "Freshness: Web pages can change; retrieved 30 Nov 2026." in exported
    for value in PRIVATE_VALUES:
        assert value not in exported, value


def test_markdown_export_places_tokens_after_tables_and_setext_headings() -> None:
    message = {
        "role": "assistant",
        "text": "Title\n=====\n\n| a |\n|---|\n| 1 |\nEnd",
        "sources": {
            "version": 1,
            "entries": [
                {
                    "id": f"s{i}",
                    "type": "item",
                    "sourceLabel": "Jira",
                    "sourceUsage": "used",
                    "availableActions": [],
                    "citationTarget": {"blockIndex": i, "blockType": kind},
                }
                for i, kind in enumerate(["heading", "table"])
            ],
        },
    }
    exported = export_markdown([message])
    assert "Title \\[1\\]\n=====" in exported
    assert "| 1 |\nEnd\n\n\\[2\\]\n" in exported


def test_html_export_has_token_pills_no_links_or_actions_and_escapes_raw_html() -> None:
    user = {
        "role": "user",
        "text": "<script>alert(1)</script>\n\nsee [docs](https://docs.example.net)",
    }
    exported = export_html([user, EXAMPLE])
    assert '<sup class="source-token">1</sup>' in exported
    assert '<sup class="source-token">2</sup>' in exported
    assert "<script>" not in exported
    assert "&lt;script&gt;" in exported
    assert 'rel="noopener noreferrer"' in exported
    assert "Q3 budget plan.xlsx · Google Drive" in exported
    for value in PRIVATE_VALUES:
        assert value not in exported, value


def test_html_export_puts_a_table_token_after_the_table() -> None:
    message = {
        "role": "assistant",
        "text": "| a |\n|---|\n| 1 |",
        "sources": {
            "version": 1,
            "entries": [
                {
                    "id": "t",
                    "type": "item",
                    "sourceLabel": "Jira",
                    "sourceUsage": "used",
                    "availableActions": [],
                    "citationTarget": {"blockIndex": 0, "blockType": "table"},
                }
            ],
        },
    }
    exported = export_html([message])
    assert exported.index("</table>") < exported.index('class="source-token"')


def test_markdown_export_escapes_titles() -> None:
    message = {
        "role": "assistant",
        "text": "Body",
        "sources": {
            "version": 1,
            "entries": [
                {
                    "id": "s",
                    "type": "item",
                    "sourceLabel": "Jira",
                    "sourceUsage": "listed",
                    "availableActions": ["open"],
                    "title": "*bold* [link](https://x.example) <b>",
                    "itemLink": "https://x.example/item",
                }
            ],
        },
    }
    exported = export_markdown([message])
    assert "- \\*bold\\* \\[link\\](https://x.example) \\<b\\> · Jira" in exported
    assert "https://x.example/item" not in exported


def test_html_export_shows_context_chips_as_labels_and_links_only_safe_pages() -> None:
    user = {
        "role": "user",
        "text": "Why does [build L1-2](t3-context://v1/terminal/ctx_t) fail? "
        "![chart.png](t3-context://v1/image/ctx_i) ![pic](https://img.example.com/a.png) "
        "[site](https://example.com/x) [bad](ftp://example.com/f)",
    }
    exported = export_html([user])
    assert "t3-context:" not in exported and "<img" not in exported
    assert '<span class="context-chip">build L1-2</span>' in exported
    assert '<span class="context-chip">chart.png</span>' in exported
    assert '<a href="https://img.example.com/a.png" target="_blank"' in exported
    assert '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer">site</a>' in (
        exported
    )
    assert "ftp:" not in exported and '<span class="link-text">bad</span>' in exported


def test_markdown_export_numbers_used_sources_without_nesting_a_list() -> None:
    exported = export_markdown([EXAMPLE])
    assert "- \\[1\\] Q3 budget plan.xlsx · Google Drive" in exported
    assert "- 1." not in exported
