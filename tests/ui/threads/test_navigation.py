"""Which thread the window shows: search by title with Enter, selecting in the list, archive and
*Show archived*, rename, and the *Thread ▸ Assistant* menu following the selected thread."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QInputDialog
from pytestqt.qtbot import QtBot

from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.threads.navigation import ThreadNavigator
from composer_app.ui.threads.quick_switcher import QuickSwitcher
from composer_app.ui.threads.thread_list import ThreadListPane
from composer_app.ui.window.main_window import MainWindow
from composer_app.ui.window.state import WindowState
from tests.ui.fake_engine import fake_bridge
from tests.ui.window.window_support import WAIT_MS, Backend, new_thread, running_backend, titles


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


def _two_threads(window: MainWindow, qtbot: QtBot) -> tuple[str, str]:
    """Rename the first thread to "Alpha notes", add "Beta plan" (then open); their ids."""
    alpha = window.current_thread
    window.navigator.rename_thread(alpha, "Alpha notes")
    beta = new_thread(window, qtbot, "Beta plan")
    qtbot.waitUntil(lambda: sorted(titles(window)) == ["Alpha notes", "Beta plan"],
                    timeout=WAIT_MS)
    return alpha, beta


def _click_row(window: MainWindow, qtbot: QtBot, thread_id: str) -> None:
    view = window.thread_pane.list
    index = window.thread_pane.model.index(window.thread_pane.model.row_of(thread_id))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.visualRect(index).center())


def _checked_assistant(window: MainWindow) -> list[str]:
    actions = window.window_actions.assistant_actions
    return [name for name, action in actions.items() if action.isChecked()]


def test_typing_a_title_filters_and_enter_opens_the_first_match(backend: Backend,
                                                                qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    alpha, beta = _two_threads(window, qtbot)
    assert window.current_thread == beta
    window.editor.insertPlainText("draft for beta")
    window.activateWindow()
    window.thread_pane.search.setFocus()
    qtbot.keyClicks(window.thread_pane.search, "ALP")
    assert titles(window) == ["Alpha notes"]
    assert window.current_thread == beta  # filtering alone switches nothing
    qtbot.keyClick(window.thread_pane.search, Qt.Key.Key_Return)
    assert window.current_thread == alpha
    assert window.windowTitle() == "Alpha notes — Composer"
    assert window.editor.markdown() == ""  # alpha's (empty) draft, not beta's
    assert QApplication.focusWidget() is window.thread_pane.list


def test_enter_in_a_search_without_matches_keeps_the_thread(backend: Backend,
                                                           qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    _alpha, beta = _two_threads(window, qtbot)
    qtbot.keyClicks(window.thread_pane.search, "nothing like it")
    assert titles(window) == []
    assert window.thread_pane.empty_label.text().startswith("No thread titles match")
    qtbot.keyClick(window.thread_pane.search, Qt.Key.Key_Return)
    assert window.current_thread == beta


def test_clicking_a_thread_opens_it_with_its_draft(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    alpha, beta = _two_threads(window, qtbot)
    window.editor.insertPlainText("beta's draft")
    _click_row(window, qtbot, alpha)
    assert window.current_thread == alpha
    assert window.editor.markdown() == ""
    _click_row(window, qtbot, beta)
    assert window.editor.markdown() == "beta's draft"


def test_assistant_menu_follows_the_thread_clicked_in_the_list(backend: Backend,
                                                              qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    alpha, beta = _two_threads(window, qtbot)
    qtbot.waitUntil(lambda: _checked_assistant(window) == ["local"], timeout=WAIT_MS)
    window.window_actions.assistant_actions["openai"].trigger()
    qtbot.waitUntil(lambda: (r := window.navigator.thread_row(beta)) is not None
                    and r.provider == "openai", timeout=WAIT_MS)
    _click_row(window, qtbot, alpha)
    assert _checked_assistant(window) == ["local"]
    _click_row(window, qtbot, beta)
    assert _checked_assistant(window) == ["openai"]
    assert window.window_actions.assistant_menu.isEnabled()


def test_without_a_thread_the_thread_commands_are_off(backend: Backend, qtbot: QtBot) -> None:
    window = backend.empty_window(qtbot)
    assert not window.window_actions.rename_action.isEnabled()
    assert not window.window_actions.archive_action.isEnabled()
    assert not window.window_actions.assistant_menu.isEnabled()
    assert _checked_assistant(window) == []
    assert window.windowTitle() == "Composer"
    new_thread(window, qtbot)
    acts = window.window_actions
    assert acts.rename_action.isEnabled() and acts.archive_action.isEnabled()


def test_show_archived_box_and_menu_entry_agree(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    alpha, _beta = _two_threads(window, qtbot)
    window.navigator.set_archived(alpha, True)
    assert titles(window) == ["Beta plan"]
    window.thread_pane.show_archived.click()  # the box under the list
    assert window.window_actions.show_archived_action.isChecked()
    assert sorted(titles(window)) == ["Alpha notes", "Beta plan"]
    window.window_actions.show_archived_action.trigger()  # the Thread menu entry
    assert not window.thread_pane.show_archived.isChecked()
    assert titles(window) == ["Beta plan"]


def test_archived_threads_stay_hidden_in_a_new_window(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    alpha, beta = _two_threads(window, qtbot)
    window.navigator.toggle_archive_current()  # beta is open
    assert titles(window) == ["Alpha notes"]
    window.close()
    again = backend.window(qtbot)
    assert titles(again) == ["Alpha notes"]
    assert again.current_thread == alpha
    again.window_actions.show_archived_action.setChecked(True)
    assert sorted(titles(again)) == ["Alpha notes", "Beta plan"]
    again.open_thread(beta)
    assert again.window_actions.archive_action.text() == "Un&archive thread"


def test_f2_renames_the_open_thread_starting_from_its_title(
        backend: Backend, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    window = backend.window(qtbot)
    asked: list[str] = []

    def answer(_parent: Any, _title: str, _label: str, text: str = "") -> tuple[str, bool]:
        asked.append(text)
        return "  Trip   planning ", True

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(answer))
    window.activateWindow()
    window.thread_pane.list.setFocus()
    qtbot.keyClick(window.thread_pane.list, Qt.Key.Key_F2)
    assert asked == ["New thread"]
    qtbot.waitUntil(lambda: titles(window) == ["Trip planning"], timeout=WAIT_MS)
    assert window.windowTitle() == "Trip planning — Composer"



def test_a_thread_list_read_before_a_creation_landed_keeps_the_new_thread_open(
        backend: Backend, qtbot: QtBot) -> None:
    # A thread created here is listed only once the server's event arrives; a list read in
    # between must not take the user back to another thread (the self-test once timed out on
    # exactly this). The creation's answer is delivered by hand, before any list has it.
    window = backend.window(qtbot)
    alpha = window.current_thread
    stale = list(window.navigator.threads)
    assert [r.thread_id for r in stale] == [alpha]
    window.navigator._on_thread_created("thr_created_here_not_listed_yet", "")
    window.navigator._on_threads(stale, "")
    assert window.current_thread == "thr_created_here_not_listed_yet"
    window.navigator._on_threads(stale, "")  # still not listed: still kept
    assert window.current_thread == "thr_created_here_not_listed_yet"


# -- the navigator alone, against a fake engine behind the real bridge ----------------------------
class _Parts:
    """A navigator with its list, switcher, engine calls and window state, no window around."""

    def __init__(self, qtbot: QtBot, root: Path, *, embedded: bool) -> None:
        self.bridge, self.engine = fake_bridge()
        self.pane = ThreadListPane()
        qtbot.addWidget(self.pane)
        self.switcher = QuickSwitcher()
        qtbot.addWidget(self.switcher)
        self.state = WindowState(root)
        self.navigator = ThreadNavigator(self.pane, self.switcher, EngineCalls(self.bridge),
                                         self.state, embedded=embedded)
        self.opened: list[str] = []
        self.titles: list[str] = []
        self.thread_states: list[tuple[bool, bool]] = []
        self.navigator.thread_opened.connect(self.opened.append)
        self.navigator.title_changed.connect(self.titles.append)
        self.navigator.thread_state_changed.connect(
            lambda has, archived: self.thread_states.append((has, archived)))

    def reload(self, qtbot: QtBot) -> None:
        with qtbot.waitSignal(self.bridge.request_finished):
            self.navigator.reload_threads()


def test_alone_the_remembered_thread_opens_and_names_the_window(qtbot: QtBot,
                                                                tmp_path: Path) -> None:
    parts = _Parts(qtbot, tmp_path, embedded=False)
    parts.engine.add_thread("Alpha")
    beta = parts.engine.add_thread("Beta")
    parts.state.remember_thread(beta)
    parts.reload(qtbot)
    assert parts.opened == [beta] and parts.navigator.current_thread == beta
    assert parts.pane.current_thread == beta
    assert parts.titles[-1] == "Beta — Composer"
    assert parts.thread_states[-1] == (True, False)


def test_alone_an_empty_embedded_list_gets_a_first_thread_once(qtbot: QtBot,
                                                               tmp_path: Path) -> None:
    parts = _Parts(qtbot, tmp_path, embedded=True)
    created: list[str] = []
    parts.navigator.thread_created.connect(created.append)
    parts.reload(qtbot)
    qtbot.waitUntil(lambda: bool(created))
    assert [c[0] for c in parts.engine.calls].count("create_thread") == 1
    assert parts.opened == created and parts.state.last_thread() == created[0]
    qtbot.waitUntil(lambda: parts.pane.current_thread == created[0])


def test_alone_archive_is_kept_in_the_window_state(qtbot: QtBot, tmp_path: Path) -> None:
    parts = _Parts(qtbot, tmp_path, embedded=False)
    alpha = parts.engine.add_thread("Alpha")
    parts.reload(qtbot)
    parts.navigator.toggle_archive_current()
    assert parts.state.archived() == frozenset({alpha})
    assert parts.thread_states[-1] == (True, True)
    assert parts.pane.model_rows() == []  # hidden until *Show archived*
    parts.navigator.toggle_archive_current()
    assert parts.state.archived() == frozenset()


def test_alone_the_assistant_choice_goes_to_the_engine(qtbot: QtBot, tmp_path: Path) -> None:
    parts = _Parts(qtbot, tmp_path, embedded=False)
    alpha = parts.engine.add_thread("Alpha", provider="local")
    parts.reload(qtbot)
    choices: list[tuple[bool, str]] = []
    parts.navigator.assistant_changed.connect(lambda on, name: choices.append((on, name)))
    with qtbot.waitSignal(parts.bridge.request_finished):
        parts.navigator.choose_assistant("openai")
    assert ("set_thread_provider", alpha, "openai") in parts.engine.calls
    assert choices == [(True, "openai")]
    parts.navigator.choose_assistant("local")  # already its provider: nothing to send
    assert [c for c in parts.engine.calls if c[0] == "set_thread_provider"] == [
        ("set_thread_provider", alpha, "openai")]


def test_alone_a_list_answer_older_than_the_one_shown_is_dropped(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two list reads are in flight; the later one (which knows the new thread) answers first.
    parts = _Parts(qtbot, tmp_path, embedded=False)
    answers: list[Any] = []
    monkeypatch.setattr(EngineCalls, "threads", lambda _self, then: answers.append(then))
    alpha = parts.engine.add_thread("Alpha")
    beta = parts.engine.add_thread("Beta")
    older = [r for r in parts.engine.threads().result(5) if r.thread_id == alpha]
    newer = parts.engine.threads().result(5)
    parts.navigator.reload_threads()
    parts.navigator.reload_threads()
    answers[1](newer, "")
    parts.navigator.open_thread(beta)
    answers[0](older, "")  # read before Beta existed
    assert {r.thread_id for r in parts.pane.model_rows()} == {alpha, beta}
    assert parts.navigator.current_thread == beta


def test_alone_a_creation_answered_after_the_user_moved_on_does_not_take_them_away(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parts = _Parts(qtbot, tmp_path, embedded=False)
    alpha = parts.engine.add_thread("Alpha")
    beta = parts.engine.add_thread("Beta")
    parts.reload(qtbot)
    parts.navigator.open_thread(alpha)
    answers: list[Any] = []
    monkeypatch.setattr(EngineCalls, "create_thread",
                        lambda _self, _title, then, *_a, **_k: answers.append(then))
    parts.navigator.new_thread("Gamma")
    parts.navigator.open_thread(beta)  # while the creation is on its way
    answers[0]("thr_gamma", "")
    assert parts.navigator.current_thread == beta
    parts.navigator.new_thread("Delta")  # nobody moved: the new thread opens
    answers[1]("thr_delta", "")
    assert parts.navigator.current_thread == "thr_delta"
