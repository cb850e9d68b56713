"""Keyboard access to chips, citation tokens and row actions in the transcript (pytest-qt)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow, QToolTip
from pytestqt.qtbot import QtBot

from composer_app.ui.transcript.keyboard_focus import row_items
from composer_app.ui.transcript.view import TranscriptView
from tests.ui.transcript.conftest import dock_of, view_of


def _focused_view(window: QMainWindow, qtbot: QtBot) -> TranscriptView:
    view = view_of(window)
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    return view


def _tab_to(qtbot: QtBot, view: TranscriptView, key: tuple[int, str, str]) -> None:
    for _ in range(40):
        if view.focus_key() == key:
            return
        qtbot.keyClick(view, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {key}; at {view.focus_key()}")


def test_tab_walks_chips_then_tokens_then_actions_in_reading_order(
    window: QMainWindow, qtbot: QtBot
) -> None:
    view = _focused_view(window, qtbot)
    seen = []
    for _ in range(40):
        qtbot.keyClick(view, Qt.Key.Key_Tab)
        key = view.focus_key()
        if key is None or key in seen:
            break
        seen.append(key)
    chips = [value for row, what, value in seen if row == 0 and what == "chip"]
    assert chips[:4] == ["ctx_term", "ctx_el", "ctx_note", "ctx_pr"]
    assert {"ctx_img", "ctx_file"} <= set(chips)  # the gallery is reachable too
    answer = [(what, value) for row, what, value in seen if row == 1]
    assert answer == [("cite", "src_1"), ("cite", "src_2"), ("action", "copy"),
                      ("action", "sources")]


def test_shift_tab_walks_back(window: QMainWindow, qtbot: QtBot) -> None:
    view = _focused_view(window, qtbot)
    _tab_to(qtbot, view, (1, "cite", "src_2"))
    qtbot.keyClick(view, Qt.Key.Key_Backtab)
    assert view.focus_key() == (1, "cite", "src_1")


def test_a_focused_token_shows_its_card_and_enter_selects_its_panel_row(
    window: QMainWindow, qtbot: QtBot
) -> None:
    view = _focused_view(window, qtbot)
    dock = dock_of(window)
    dock.show_sources("a1")
    _tab_to(qtbot, view, (1, "cite", "src_2"))
    assert view.accessibleDescription().startswith("Source 2, used: Revised plans due 14 October")
    assert "Revised plans due 14 October" in QToolTip.text()
    with qtbot.waitSignal(view.citation_activated) as blocker:
        qtbot.keyClick(view, Qt.Key.Key_Return)
    assert blocker.args == ["a1", "src_2"]
    assert view.active_source("a1") == "src_2"
    assert dock.panel.selected_entry() == "src_2"


def test_space_opens_a_focused_chip_and_escape_drops_focus(
    window: QMainWindow, qtbot: QtBot
) -> None:
    view = _focused_view(window, qtbot)
    _tab_to(qtbot, view, (0, "chip", "ctx_term"))
    assert "build" in view.accessibleDescription()
    with qtbot.waitSignal(view.chip_activated) as blocker:
        qtbot.keyClick(view, Qt.Key.Key_Space)
    assert blocker.args == ["u1", "ctx_term", "popover"]
    assert view.popover is not None
    view.popover.close()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert view.focus_key() is None


def test_the_sources_action_opens_the_panel_from_the_keyboard(
    window: QMainWindow, qtbot: QtBot
) -> None:
    view = _focused_view(window, qtbot)
    _tab_to(qtbot, view, (1, "action", "sources"))
    with qtbot.waitSignal(view.sources_requested) as blocker:
        qtbot.keyClick(view, Qt.Key.Key_Enter)
    assert blocker.args == ["a1"]
    assert dock_of(window).isVisible()


def test_focus_rects_sit_on_the_rendered_items(window: QMainWindow) -> None:
    view = view_of(window)
    for row in (0, 1):
        for item in row_items(view, row):
            if item.what == "action":
                continue
            assert view.hit(item.rect.center())[1:3] == (item.what, item.value)
