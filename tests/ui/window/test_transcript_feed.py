"""The transcript and the Sources panel follow the open thread: answers for a thread the user left
stay out of the one shown, Sources opens on the latest sourced answer and the *Sources panel*
entry mirrors the dock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from pytestqt.qtbot import QtBot

from composer_app.ui.window.main_window import MainWindow
from tests.ui.window.window_support import (
    SOURCED_QUESTION,
    WAIT_MS,
    Backend,
    answered,
    knowledge_settings,
    new_thread,
    running_backend,
)


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data", knowledge_settings(tmp_path / "knowledge"))


def _ask(window: MainWindow, qtbot: QtBot, question: str = SOURCED_QUESTION) -> str:
    """Send ``question`` in the open thread and wait for the answer; the answer's id."""
    window.editor.insertPlainText(question)
    assert window.editor.request_send()
    qtbot.waitUntil(lambda: answered(window), timeout=WAIT_MS)
    answer = window.transcript.messages[-1]
    assert answer.sources is not None
    return answer.message_id


def test_an_answer_for_a_thread_the_user_left_stays_out_of_the_shown_one(
        backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    asked = window.current_thread
    window.editor.insertPlainText(SOURCED_QUESTION)
    assert window.editor.request_send()
    other = new_thread(window, qtbot)
    engine = backend.started.bridge.engine

    def answered_on_server() -> bool:
        rows = engine.messages(asked).result(10)
        return any(r.role == "assistant" and not r.is_streaming and r.local_state is None
                   for r in rows)

    qtbot.waitUntil(answered_on_server, timeout=WAIT_MS)
    with qtbot.waitSignal(backend.started.bridge.request_finished, timeout=WAIT_MS):
        window.navigator.reload_threads()  # a later round trip: everything before it has arrived
    assert window.current_thread == other
    assert window.transcript.messages == []
    assert window.transcript_stack.currentWidget() is window.transcript_stack.empty_page
    window.open_thread(asked)
    qtbot.waitUntil(lambda: [m.role for m in window.transcript.messages]
                    == ["user", "assistant"], timeout=WAIT_MS)


def test_sources_opens_on_the_latest_sourced_answer(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    _ask(window, qtbot, "Which strategy does the staging deploy use?")
    latest = _ask(window, qtbot)
    assert not window.sources_dock.isVisible()
    window.window_actions.sources_action.trigger()
    assert window.sources_dock.isVisible()
    assert window.sources_dock.panel.message_id == latest


def test_opening_another_thread_closes_sources_on_an_answer(backend: Backend,
                                                            qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    _ask(window, qtbot)
    window.window_actions.sources_action.trigger()
    assert window.sources_dock.isVisible()
    new_thread(window, qtbot)
    assert not window.sources_dock.isVisible()
    assert not window.window_actions.sources_action.isChecked()


def test_the_menu_entry_follows_the_dock_closed_on_its_own(backend: Backend,
                                                          qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.window_actions.sources_action.setChecked(True)
    assert window.sources_dock.isVisible()
    window.sources_dock.close()  # the dock's own close button
    assert not window.window_actions.sources_action.isChecked()
    window.sources_dock.show()
    assert window.window_actions.sources_action.isChecked()
    assert window.sources_dock.isVisible()  # mirroring did not toggle it back


def test_an_attachment_that_cannot_be_opened_says_so(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    assert window.transcript.asset_opener is not None
    window.transcript.asset_opener(SimpleNamespace(attachment_id="att_missing"))
    qtbot.waitUntil(lambda: window.status.currentMessage() != "", timeout=WAIT_MS)
