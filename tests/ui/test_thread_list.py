"""The thread list: ordering, title search, archived threads, selection."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from composer_app.sync.store import ThreadRow
from composer_app.ui.thread_list import ThreadListPane
from composer_app.ui.thread_list_model import UNTITLED, thread_title, visible_threads

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
