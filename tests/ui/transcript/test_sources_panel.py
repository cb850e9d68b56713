"""SourcesPanel: ordering, collapsed details, allowed actions only, open and download wiring."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from composer_app.core.contracts.sources import decode_sources
from composer_app.ui.transcript.samples import SOURCES, THREAD_ID
from composer_app.ui.transcript.sources_panel import DownloadProgress, SourcesPanel

ENTRIES = decode_sources(SOURCES)
NUMBERS = {"src_1": 1, "src_2": 2}


@pytest.fixture
def opened() -> list[str]:
    return []


@pytest.fixture
def panel(qtbot: QtBot, opened: list[str]) -> SourcesPanel:
    widget = SourcesPanel(opener=lambda url: opened.append(url.toString()))
    qtbot.addWidget(widget)
    widget.resize(420, 700)
    widget.show_message("msg_1", THREAD_ID, ENTRIES, NUMBERS, "mixed")
    widget.show()
    return widget


def test_rows_in_panel_order_with_headers_and_collapsed_groups(panel: SourcesPanel) -> None:
    assert list(panel.rows) == ["src_1", "src_2", "src_3", "src_4"]
    assert [b.text() for b in panel.group_buttons.values()] == [
        "Used in answer (2)",
        "Checked (1)",
        "Listed (1)",
    ]
    assert panel.group_bodies["used"].isVisible()
    assert not panel.group_bodies["checked"].isVisible()
    assert not panel.group_bodies["listed"].isVisible()
    assert all(not row.details.isVisible() for row in panel.rows.values())
    assert panel.rows["src_1"].accessibleName() == "Source 1, used: Q3 budget plan.xlsx"


def test_only_allowed_actions_have_buttons(panel: SourcesPanel) -> None:
    buttons = {
        key: sorted(k for k in row.buttons if k in ("open", "download"))
        for key, row in panel.rows.items()
    }
    assert buttons == {
        "src_1": ["download", "open"],
        "src_2": ["open"],
        "src_3": ["open"],
        "src_4": ["open"],
    }
    assert panel.rows["src_1"].buttons["open"].toolTip().startswith("docs.example.com")


def test_open_goes_to_the_injected_opener(
    panel: SourcesPanel, opened: list[str], qtbot: QtBot
) -> None:
    with qtbot.waitSignal(panel.row_selected) as blocker:
        panel.rows["src_2"].buttons["open"].click()
    assert blocker.args == ["msg_1", "src_2"]
    assert opened == ["https://mail.example.com/mail/u/0/message/18c2"]


def test_http_links_ask_once_per_host(qtbot: QtBot) -> None:
    raw = {
        "version": 1,
        "entries": [
            {
                "id": "w",
                "type": "external-link",
                "sourceLabel": "Web",
                "sourceUsage": "used",
                "availableActions": ["open"],
                "title": "Plain page",
                "webViewLink": "http://example.net/a",
            }
        ],
    }
    asked: list[str] = []
    opened: list[QUrl] = []
    panel = SourcesPanel(opener=opened.append, confirm_http=lambda host: asked.append(host) or True)
    qtbot.addWidget(panel)
    panel.show_message("m", "t", decode_sources(raw), {}, None)
    entry = decode_sources(raw)[0]
    assert panel.open_entry(entry) and panel.open_entry(entry)
    assert asked == ["example.net"] and len(opened) == 2
    refusing = SourcesPanel(opener=opened.append, confirm_http=lambda host: False)
    qtbot.addWidget(refusing)
    refusing.show_message("m", "t", decode_sources(raw), {}, None)
    assert not refusing.open_entry(entry) and len(opened) == 2


def test_download_uses_the_authenticated_route_with_progress(qtbot: QtBot) -> None:
    calls: list[tuple[str, DownloadProgress]] = []
    panel = SourcesPanel(downloader=lambda route, progress: calls.append((route, progress)))
    qtbot.addWidget(panel)
    panel.show_message("msg_1", THREAD_ID, ENTRIES, NUMBERS, "mixed")
    panel.show()
    panel.rows["src_1"].buttons["download"].click()
    route, progress = calls[0]
    assert route == f"/api/threads/{THREAD_ID}/messages/msg_1/sources/src_1/download"
    row = panel.rows["src_1"]
    progress.progressed.emit(50, 200)
    assert row.progress.isVisible() and row.progress.value() == 50
    progress.finished.emit(True, "")
    assert not row.progress.isVisible() and row.status.text() == "Downloaded."


def test_public_threads_show_no_download_or_private_actions(qtbot: QtBot) -> None:
    panel = SourcesPanel()
    qtbot.addWidget(panel)
    panel.show_message("m", "t", ENTRIES, NUMBERS, "mixed", public=True)
    assert all("download" not in row.buttons for row in panel.rows.values())
    assert [k for k, row in panel.rows.items() if "open" in row.buttons] == ["src_4"]
    assert all(row.account is None for row in panel.rows.values())
    assert panel.download_entry(ENTRIES[0]) is None


def test_select_entry_expands_its_group(panel: SourcesPanel) -> None:
    assert panel.select_entry("src_3")
    assert panel.group_bodies["checked"].isVisible()
    assert panel.selected_entry() == "src_3" and panel.rows["src_3"].is_selected
    assert not panel.select_entry("nope")


def test_details_expand_on_request(panel: SourcesPanel) -> None:
    row = panel.rows["src_1"]
    row.buttons["details"].click()
    assert row.details.isVisible()
    texts = [w.text() for w in row.details.findChildren(type(row.summary))]
    assert "Travel: 48,000 (Q2: 54,500)" in texts and "Folder: Finance / Planning" in texts


def test_empty_states(qtbot: QtBot) -> None:
    panel = SourcesPanel()
    qtbot.addWidget(panel)
    panel.show_message("m", "t", [], {}, "general-knowledge")
    assert panel.notice.text() == "No sources: this answer is from general knowledge."
    checked: list[Any] = [e for e in ENTRIES if e.source_usage != "used"]
    panel.show_message("m", "t", checked, {}, "source-backed")
    assert panel.notice.text() == "Sources were checked but none supported the answer."


def test_snippet_shows_clean_text_under_a_quiet_heading_path(qtbot: QtBot) -> None:
    wire = copy.deepcopy(SOURCES)
    wire["entries"][0]["snippet"] = "# Budget\n## Travel\nTravel is **48,000**\nin Q3."
    widget = SourcesPanel()
    qtbot.addWidget(widget)
    widget.show_message("msg_1", THREAD_ID, decode_sources(wire), NUMBERS, "mixed")
    widget.show()
    row = widget.rows["src_1"]
    row.buttons["details"].click()
    path = row.details.findChild(QLabel, "sourceSnippetPath")
    snippet = row.details.findChild(QLabel, "sourceSnippet")
    assert path is not None and path.text() == "Budget › Travel"
    assert snippet is not None and snippet.text() == "Travel is 48,000 in Q3."


def test_actions_wrap_in_the_narrowest_panel_and_are_never_clipped(panel: SourcesPanel,
                                                                    qtbot: QtBot) -> None:
    from composer_app.ui.transcript.sources_panel import MIN_WIDTH

    panel.resize(MIN_WIDTH, 700)
    qtbot.wait(20)
    row = panel.rows["src_1"]
    assert {"open", "download", "copy-title", "details"} <= set(row.buttons)
    tops = set()
    for button in row.buttons.values():
        right = button.mapTo(row, button.rect().topRight()).x()
        assert button.isVisible() and right < row.width(), (button.text(), right, row.width())
        tops.add(button.mapTo(row, button.rect().topLeft()).y())
    assert len(tops) >= 2  # they took a second line rather than run off the edge
