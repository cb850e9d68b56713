"""The window's actions: each shortcut of the desktop issue works wherever the focus is in the
window and is also reachable from exactly one menu."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu
from pytestqt.qtbot import QtBot

from composer_app.ui.window.actions import WindowActions
from composer_app.ui.window.main_window import MainWindow
from tests.ui.window.window_support import WAIT_MS, Backend, running_backend, titles

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


@pytest.fixture
def window(backend: Backend, qtbot: QtBot) -> MainWindow:
    shown = backend.window(qtbot)
    shown.activateWindow()
    return shown


def _menus_holding(window: MainWindow, shortcut: str) -> list[str]:
    """The titles of the menus (submenus included) with an entry for ``shortcut``."""
    found = []
    for top in window.menuBar().actions():
        menus = [top.menu(), *top.menu().findChildren(QMenu)]
        for menu in menus:
            found += [menu.title() for a in menu.actions()
                      if a.shortcut() == QKeySequence(shortcut)]
    return found


@pytest.mark.parametrize(("shortcut", "menu"), [
    ("Ctrl+N", "&File"), ("Ctrl+K", "&File"), ("Ctrl+S", "&Edit"), ("Ctrl+Shift+V", "&Edit"),
    ("Ctrl+Shift+S", "&View"), ("F6", "&View"), ("Shift+F6", "&View"),
])
def test_each_issue_shortcut_has_one_menu_entry(window: MainWindow, shortcut: str,
                                                menu: str) -> None:
    assert _menus_holding(window, shortcut) == [menu]


def test_every_window_action_is_in_exactly_one_menu(window: MainWindow) -> None:
    entries: Counter[QAction] = Counter()
    for top in window.menuBar().actions():
        for menu in [top.menu(), *top.menu().findChildren(QMenu)]:
            entries.update(a for a in menu.actions() if not a.isSeparator() and not a.menu())
    own = [a for a in window.actions() if isinstance(a, QAction)]
    assert own
    assert {a.objectName(): entries[a] for a in own} == {a.objectName(): 1 for a in own}


def test_ctrl_n_from_the_search_box_creates_and_opens_a_thread(window: MainWindow,
                                                              qtbot: QtBot) -> None:
    first = window.current_thread
    window.editor.insertPlainText("an idea")  # an empty thread would be kept instead
    window.thread_pane.search.setFocus()
    qtbot.keyClick(window.thread_pane.search, Qt.Key.Key_N, CTRL)
    qtbot.waitUntil(lambda: window.current_thread not in ("", first), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: len(titles(window)) == 2, timeout=WAIT_MS)
    assert window.thread_pane.search.text() == ""  # the key was not typed into the box


def test_ctrl_k_from_the_composer_opens_the_switcher(window: MainWindow, qtbot: QtBot) -> None:
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_K, CTRL)
    assert window.switcher.isVisible()
    assert window.switcher.shown_ids() == [window.current_thread]


def test_ctrl_s_from_the_thread_list_stashes_the_prompt(window: MainWindow,
                                                       qtbot: QtBot) -> None:
    window.editor.insertPlainText("an idea for later")
    window.thread_pane.list.setFocus()
    qtbot.keyClick(window.thread_pane.list, Qt.Key.Key_S, CTRL)
    assert window.editor.markdown() == ""
    qtbot.keyClick(window.thread_pane.list, Qt.Key.Key_S, CTRL)
    assert window.editor.markdown() == "an idea for later"


def test_ctrl_shift_v_pastes_plain_text_into_the_composer_from_anywhere(
        window: MainWindow, qtbot: QtBot) -> None:
    mime = QMimeData()
    mime.setHtml("<b>bold</b> words")
    mime.setText("bold words")
    QGuiApplication.clipboard().setMimeData(mime)
    window.thread_pane.list.setFocus()
    qtbot.keyClick(window.thread_pane.list, Qt.Key.Key_V, CTRL | SHIFT)
    assert window.editor.markdown() == "bold words"  # no **bold**
    assert QApplication.focusWidget() is window.editor


def test_ctrl_shift_s_toggles_sources_from_the_thread_list(window: MainWindow,
                                                          qtbot: QtBot) -> None:
    window.thread_pane.list.setFocus()
    qtbot.keyClick(window.thread_pane.list, Qt.Key.Key_S, CTRL | SHIFT)
    assert window.sources_dock.isVisible() and window.window_actions.sources_action.isChecked()
    qtbot.keyClick(window.thread_pane.list, Qt.Key.Key_S, CTRL | SHIFT)
    assert not window.sources_dock.isVisible()
    assert not window.window_actions.sources_action.isChecked()


def test_f6_and_shift_f6_keys_move_between_panes(window: MainWindow, qtbot: QtBot) -> None:
    window.thread_pane.list.setFocus()
    qtbot.keyClick(window.thread_pane.list, Qt.Key.Key_F6)
    assert window.transcript_stack.isAncestorOf(QApplication.focusWidget())
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_F6, SHIFT)
    assert QApplication.focusWidget() is window.thread_pane.list


def test_alone_the_actions_show_the_state_they_are_given(qtbot: QtBot) -> None:
    host = QMainWindow()
    qtbot.addWidget(host)
    acts = WindowActions(host)
    acts.build_menus(host.menuBar())
    assert set(host.actions()) >= {acts.new_thread_action, acts.sources_action}
    acts.set_thread_state(True, True)
    assert acts.rename_action.isEnabled() and acts.archive_action.text() == "Un&archive thread"
    acts.set_thread_state(False, False)
    assert not acts.archive_action.isEnabled() and acts.archive_action.text() == "&Archive thread"
    acts.set_assistant(True, "local")
    assert acts.assistant_menu.isEnabled()
    assert [n for n, a in acts.assistant_actions.items() if a.isChecked()] == ["local"]
    acts.set_assistant(False, "")
    assert not any(a.isChecked() for a in acts.assistant_actions.values())
    with qtbot.waitSignal(acts.assistant_chosen) as chosen:
        acts.assistant_actions["openai"].trigger()
    assert chosen.args == ["openai"]
    toggles: list[bool] = []
    acts.sources_action.toggled.connect(toggles.append)
    acts.set_sources_checked(True)
    assert acts.sources_action.isChecked() and toggles == []  # mirrored, not re-triggered


def test_thread_commands_start_off_until_a_thread_is_open(qtbot: QtBot) -> None:
    host = QMainWindow()
    qtbot.addWidget(host)
    actions = WindowActions(host)
    assert not actions.rename_action.isEnabled() and not actions.archive_action.isEnabled()
    assert not actions.share_action.isEnabled() and not actions.assistant_menu.isEnabled()
    actions.set_thread_state(True, False)
    assert actions.rename_action.isEnabled() and actions.share_action.isEnabled()
