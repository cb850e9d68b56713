"""The Sources panel model: groups, counts, collapse, empty states, actions and names."""

from __future__ import annotations

from composer_app.core.contracts.sources import SourceEntry, decode_sources
from composer_app.ui.transcript.samples import SOURCES
from composer_app.ui.transcript.sources_logic import (
    GENERAL_KNOWLEDGE_EMPTY,
    NONE_SUPPORTED,
    build_sources_panel,
    format_date,
)

ENTRIES = decode_sources(SOURCES)
NUMBERS = {"src_1": 1, "src_2": 2}


def test_groups_in_order_with_counts_and_collapse() -> None:
    panel = build_sources_panel(ENTRIES, NUMBERS, "mixed")
    assert [(g.header, g.collapsed) for g in panel.groups] == [
        ("Used in answer (2)", False),
        ("Checked (1)", True),
        ("Listed (1)", True),
    ]
    assert [r.title for r in panel.groups[0].rows] == [
        "Q3 budget plan.xlsx",
        "Revised plans due 14 October",
    ]
    assert [r.number for r in panel.groups[0].rows] == [1, 2]
    assert panel.notice is None and panel.empty_text is None


def test_numbered_used_entries_come_first_in_number_order() -> None:
    panel = build_sources_panel(ENTRIES, {"src_2": 1}, "mixed")
    assert [r.entry_id for r in panel.groups[0].rows] == ["src_2", "src_1"]
    assert panel.groups[0].rows[1].number is None


def test_row_actions_follow_the_contract() -> None:
    panel = build_sources_panel(ENTRIES, NUMBERS, "mixed")
    actions = {r.entry_id: r.actions for g in panel.groups for r in g.rows}
    assert actions == {
        "src_1": ["open", "download"],
        "src_2": ["open"],
        "src_3": ["open"],
        "src_4": ["open"],
    }
    row = panel.row("src_1")
    assert row is not None and row.open_tooltip is not None
    assert row.open_tooltip.startswith("docs.example.com")


def test_public_threads_offer_no_download_and_nothing_on_private_kinds() -> None:
    panel = build_sources_panel(ENTRIES, NUMBERS, "mixed", public=True)
    actions = {r.entry_id: r.actions for g in panel.groups for r in g.rows}
    assert actions == {"src_1": [], "src_2": [], "src_3": [], "src_4": ["open"]}
    assert all(r.account is None for g in panel.groups for r in g.rows)


def test_row_text_is_display_safe_and_collapsed_details_hold_hints() -> None:
    panel = build_sources_panel(ENTRIES, NUMBERS, "mixed")
    row = panel.row("src_1")
    assert row is not None
    assert row.account == "From alice@example.com's Google Drive"
    assert row.date == "Created 2 Sep 2026" and row.confidence == "strong"
    assert ("Folder", "Finance / Planning") in row.details
    text = repr(panel)
    for secret in ("conn_7f3a9", "1AbCdEfGhIjKlMnOpQrStUvWxYz0123", "drive.search"):
        assert secret not in text
    checked = panel.row("src_3")
    assert (
        checked is not None
        and checked.coverage == "Checked the 50 most recent messages in #finance."
    )
    assert checked.freshness is not None and checked.has_details


def test_accessible_names() -> None:
    panel = build_sources_panel(ENTRIES, NUMBERS, "mixed")
    names = [r.accessible_name for g in panel.groups for r in g.rows]
    assert names[0] == "Source 1, used: Q3 budget plan.xlsx"
    assert names[2] == "Source, checked: Budget discussion"


def test_empty_states() -> None:
    assert build_sources_panel([], {}, "general-knowledge").empty_text == GENERAL_KNOWLEDGE_EMPTY
    only_checked = [e for e in ENTRIES if e.source_usage != "used"]
    panel = build_sources_panel(only_checked, {}, "source-backed")
    assert panel.notice == NONE_SUPPORTED
    assert [g.collapsed for g in panel.groups] == [False, False]


def test_dates_are_formatted_as_written() -> None:
    assert format_date("2026-10-03T23:30:00-05:00") == "3 Oct 2026"


def _file_entry(file_id: str, actions: list[str] | None = None) -> SourceEntry:
    raw = {"id": "kb:1", "type": "connector-file", "sourceLabel": "Knowledge folder",
           "sourceUsage": "used", "availableActions": actions or ["download"],
           "title": "handbook.md", "fileId": file_id,
           "metadata": {"lineStart": 3, "lineEnd": 7, "modifiedAt": "2026-09-02T08:15:00Z"}}
    return decode_sources({"version": 1, "entries": [raw]})[0]


def test_knowledge_and_workspace_files_offer_open_in_the_app() -> None:
    for file_id, where in (("knowledge:policies/handbook.md", "knowledge folder"),
                           ("workspace:docs/handbook.md", "workspace")):
        entry = _file_entry(file_id)
        panel = build_sources_panel([entry], {"kb:1": 1}, "source-backed")
        row = panel.groups[0].rows[0]
        assert row.actions == ["open-file", "download"]
        assert row.open_tooltip == f"Show {file_id.split(':', 1)[1]} at lines 3–7 from the {where}"
        assert ("Modified", "2 Sep 2026") in row.details
        public = build_sources_panel([entry], {"kb:1": 1}, "source-backed",
                                     public=True)
        assert public.groups[0].rows[0].actions == []  # a shared thread opens no private file


def test_other_files_and_hostile_paths_offer_no_file_open() -> None:
    for file_id in ("att_123", "knowledge:../secret.md", "workspace:/etc/passwd"):
        entry = _file_entry(file_id)
        row = build_sources_panel([entry], {}, "source-backed").groups[0].rows[0]
        assert "open-file" not in row.actions


def test_row_snippet_is_clean_text_under_its_heading_path() -> None:
    wire = {
        "version": 1,
        "entries": [
            {
                "id": "src_h",
                "type": "connector-file",
                "sourceLabel": "Knowledge folder",
                "sourceUsage": "used",
                "availableActions": [],
                "title": "handbook.md",
                "snippet": "# Employee handbook\n## Probation\nNew   employees have a "
                "**six-month**\nprobation.",
            }
        ],
    }
    panel = build_sources_panel(decode_sources(wire), {"src_h": 1}, "source-backed")
    row = panel.row("src_h")
    assert row is not None
    assert row.snippet_path == "Employee handbook › Probation"
    assert row.snippet == "New employees have a six-month probation."
