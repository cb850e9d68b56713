"""Token-to-row and row-to-block linking between the transcript and the Sources dock."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from tests.ui.transcript.conftest import dock_of, view_of


def test_sources_action_opens_the_full_inventory(window: QMainWindow) -> None:
    view, dock = view_of(window), dock_of(window)
    view.activate(1, "action", "sources")
    assert dock.isVisible() and dock.panel.message_id == "a1"
    assert list(dock.panel.rows) == ["src_1", "src_2", "src_3", "src_4"]


def test_activating_a_token_selects_its_row(window: QMainWindow) -> None:
    view, dock = view_of(window), dock_of(window)
    view.activate(1, "cite", "src_2")
    assert dock.isVisible() and dock.panel.selected_entry() == "src_2"


def test_selecting_a_row_highlights_the_blocks_it_supports(
    window: QMainWindow, qtbot: QtBot
) -> None:
    view, dock = view_of(window), dock_of(window)
    dock.show_sources("a1")
    with qtbot.waitSignal(dock.panel.row_selected):
        dock.panel.rows["src_1"].selected.emit("src_1")
    assert view.active_source("a1") == "src_1"
    html = view.layout_for(view.message_at(1)).doc.toHtml()  # type: ignore[arg-type]
    highlighted = [line for line in html.split("<p") if "background-color" in line]
    assert len(highlighted) == 1 and "48,000" in highlighted[0]


def test_user_messages_have_no_sources(window: QMainWindow) -> None:
    assert not dock_of(window).show_sources("u1")


def test_the_title_bar_names_the_panel_and_closes_it(window: QMainWindow, qtbot: QtBot) -> None:
    dock = dock_of(window)
    dock.show_sources("a1")
    assert dock.title_bar.label.text() == "Sources"
    assert dock.title_bar.close_button.accessibleName() == "Close Sources"
    qtbot.mouseClick(dock.title_bar.close_button, Qt.MouseButton.LeftButton)
    assert not dock.isVisible()
