"""The thread list: ordering, title search, archived threads, selection."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionButton
from pytestqt.qtbot import QtBot

from composer_app.sync.store import ThreadRow
from composer_app.ui.settings.dialog import theme_palette
from composer_app.ui.threads.thread_list import ThreadListPane, checkbox_palette
from composer_app.ui.threads.thread_list_model import (
    UNTITLED,
    WhenRole,
    empty_list_hint,
    short_time,
    thread_title,
    visible_threads,
)

ROWS = [
    ThreadRow("t1", "Budget review", "2026-01-01T00:00:00Z"),
    ThreadRow("t2", "Release plan", "2026-03-01T00:00:00Z"),
    ThreadRow("t3", None, None, local_state="creating"),
]


def test_order_search_and_archive_rules() -> None:
    assert [r.thread_id for r in visible_threads(ROWS)] == ["t3", "t2", "t1"]
    assert [r.thread_id for r in visible_threads(ROWS, "PLAN rel")] == ["t2"]
    assert [r.thread_id for r in visible_threads(ROWS, archived={"t2"})] == ["t3", "t1"]
    assert len(visible_threads(ROWS, archived={"t2"}, show_archived=True)) == 3
    assert thread_title(ROWS[2]) == UNTITLED
    assert [r.thread_id for r in visible_threads(ROWS, "new")] == ["t3"]


def test_pane_keeps_selection_and_reports_user_choice(qtbot: QtBot) -> None:
    pane = ThreadListPane()
    qtbot.addWidget(pane)
    pane.set_threads(ROWS)
    pane.select_thread("t1")
    pane.set_threads([*ROWS, ThreadRow("t4", "Zeta", "2026-04-01T00:00:00Z")])
    assert pane.list.currentIndex().row() == pane.model.row_of("t1") == 3
    with qtbot.waitSignal(pane.thread_selected) as chosen:
        pane.list.setCurrentIndex(pane.model.index(0))
    assert chosen.args == ["t3"] and pane.current_thread == "t3"  # unsynced rows lead
    pane.search.setText("budget")
    assert pane.model.thread_ids() == ["t1"]
    pane.set_threads(ROWS, archived={"t1"})
    assert pane.model.thread_ids() == []
    pane.show_archived.setChecked(True)
    assert pane.model.thread_ids() == ["t1"]


def test_short_time_is_the_time_today_then_coarser_in_the_local_zone() -> None:
    berlin = timezone(timedelta(hours=1))
    now = datetime(2026, 11, 30, 13, 5, tzinfo=berlin)  # a Monday
    assert short_time("2026-11-30T08:04:00.000Z", now) == "09:04"
    assert short_time("2026-11-29T23:30:00.000Z", now) == "00:30"  # today in Berlin
    assert short_time("2026-11-29T12:00:00Z", now) == "Yesterday"
    assert short_time("2026-11-25T12:00:00Z", now) == "Wed"
    assert short_time("2026-11-23T12:00:00Z", now) == "23 Nov"
    assert short_time("2025-12-31T12:00:00Z", now) == "2025-12-31"
    assert short_time(None, now) == short_time("yesterday", now) == ""


def test_an_empty_list_says_why() -> None:
    assert empty_list_hint(3, 1, "plan") == ""
    assert empty_list_hint(3, 0, "  zzz  top ") == "No thread titles match \u201czzz top\u201d."
    assert "archived" in empty_list_hint(2, 0, "")
    assert "Ctrl+N" in empty_list_hint(0, 0, "")


def test_pane_shows_the_empty_hint_and_row_times(qtbot: QtBot) -> None:
    pane = ThreadListPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.set_threads([*ROWS, ThreadRow("t0", "Old notes", "2020-02-03T12:00:00Z")])
    assert not pane.empty_label.isVisible()
    assert pane.model.index(pane.model.row_of("t3")).data(WhenRole) == ""  # not dated yet
    assert pane.model.index(pane.model.row_of("t0")).data(WhenRole) == "2020-02-03"
    pane.search.setText("zzz")
    assert pane.empty_label.isVisible() and "zzz" in pane.empty_label.text()
    pane.search.clear()
    pane.set_threads(ROWS, archived={"t1", "t2", "t3"})
    assert pane.empty_label.isVisible() and "archived" in pane.empty_label.text()
    pane.grab()  # the delegate paints without errors


def test_enter_in_the_search_opens_the_first_match_and_down_enters_the_list(
        qtbot: QtBot) -> None:
    pane = ThreadListPane()
    qtbot.addWidget(pane)
    with qtbot.waitActive(pane):
        pane.show()
        pane.activateWindow()
    pane.set_threads(ROWS)
    pane.select_thread("t3")
    pane.search.setFocus()
    qtbot.keyClicks(pane.search, "budget")
    with qtbot.waitSignal(pane.thread_selected) as chosen:
        qtbot.keyClick(pane.search, Qt.Key.Key_Return)
    assert chosen.args == ["t1"]
    pane.search.clear()
    pane.search.setFocus()
    qtbot.keyClick(pane.search, Qt.Key.Key_Down)
    assert pane.list.hasFocus()
    assert pane.list.currentIndex().row() == pane.model.row_of("t1")


def _box_contrast(pane: ThreadListPane) -> tuple[int, int]:
    """(outline, fill) lightness differences of the *Show archived* square from the pane."""
    box = pane.show_archived
    option = QStyleOptionButton()
    box.initStyleOption(option)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    image = box.grab().toImage()
    background = pane.palette().color(QPalette.ColorRole.Window).lightness()
    y = rect.center().y()
    outline = max(QColor(image.pixel(x, y)).lightness() for x in (rect.left(), rect.left() + 1))
    fill = QColor(image.pixel(rect.center().x() - 2, y)).lightness()
    return abs(outline - background), abs(fill - background)


def test_show_archived_box_stands_out_on_the_dark_theme_and_follows_switches(
        qtbot: QtBot) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = app.palette()
    app.setPalette(theme_palette("dark"))
    try:
        pane = ThreadListPane()
        qtbot.addWidget(pane)
        pane.resize(300, 200)
        pane.show()
        outline, fill = _box_contrast(pane)
        assert outline >= 60 and fill >= 8, (outline, fill)
        app.setPalette(theme_palette("light"))  # the light palette is left as the style has it
        light = theme_palette("light").color(QPalette.ColorRole.Window)
        qtbot.waitUntil(lambda: pane.palette().color(QPalette.ColorRole.Window) == light)
        assert checkbox_palette(pane.palette()) == pane.palette()
        assert pane.show_archived.palette().color(QPalette.ColorRole.Base) == QColor("#ffffff")
        assert pane.list.palette().color(QPalette.ColorRole.Base) == QColor("#ffffff")
    finally:
        app.setPalette(before)
