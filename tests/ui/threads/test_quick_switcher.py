"""The Ctrl+K popup: ranked list, keyboard navigation, choosing."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from composer_app.ui.threads.quick_switcher import QuickSwitcher

THREADS = [("t1", "Budget review"), ("t2", "Release plan"), ("t3", "Bug triage")]


def _switcher(qtbot: QtBot) -> QuickSwitcher:
    switcher = QuickSwitcher()
    qtbot.addWidget(switcher)
    switcher.set_threads(THREADS)
    switcher.open_switcher()
    return switcher


def test_typing_filters_and_enter_chooses_the_best_match(qtbot: QtBot) -> None:
    switcher = _switcher(qtbot)
    assert switcher.shown_ids() == ["t1", "t2", "t3"]
    qtbot.keyClicks(switcher.query, "rel")
    assert switcher.shown_ids() == ["t2"]
    with qtbot.waitSignal(switcher.thread_chosen) as chosen:
        qtbot.keyClick(switcher.query, Qt.Key.Key_Return)
    assert chosen.args == ["t2"]
    assert not switcher.isVisible()


def test_down_moves_the_selection_while_typing_stays_in_the_field(qtbot: QtBot) -> None:
    switcher = _switcher(qtbot)
    qtbot.keyClicks(switcher.query, "bu")
    assert switcher.shown_ids() == ["t3", "t1"]  # equal scores: the shorter title first
    qtbot.keyClick(switcher.query, Qt.Key.Key_Down)
    assert switcher.results.currentRow() == 1
    with qtbot.waitSignal(switcher.thread_chosen) as chosen:
        qtbot.keyClick(switcher.query, Qt.Key.Key_Return)
    assert chosen.args == ["t1"]


def test_no_match_says_so_and_enter_does_nothing(qtbot: QtBot) -> None:
    switcher = _switcher(qtbot)
    qtbot.keyClicks(switcher.query, "xyz")
    assert switcher.shown_ids() == [] and switcher.empty.isVisible()
    with qtbot.assertNotEmitted(switcher.thread_chosen):
        qtbot.keyClick(switcher.query, Qt.Key.Key_Return)
    assert switcher.isVisible()


def test_reopening_clears_the_query(qtbot: QtBot) -> None:
    switcher = _switcher(qtbot)
    qtbot.keyClicks(switcher.query, "bug")
    switcher.reject()
    switcher.open_switcher()
    assert switcher.query.text() == "" and len(switcher.shown_ids()) == 3
