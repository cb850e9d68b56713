"""The window's calls into the sync engine: each answer reaches its own caller once, a failed
command shows its error, a stopped engine fails at once, and a closed window stays silent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from composer_app.sync.store import MessageRow, ThreadRow, UploadRow
from composer_app.ui.engine_calls import EngineCalls
from tests.ui.fake_engine import NOT_RUNNING as FAKE_NOT_RUNNING
from tests.ui.fake_engine import fake_bridge
from tests.ui.window.window_support import WAIT_MS, Backend, running_backend

NOT_RUNNING = "the sync engine is not running"


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


def test_each_answer_reaches_its_own_caller_once(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    got: dict[str, list[tuple[Any, str]]] = {"threads": [], "messages": []}
    window.engine_calls.threads(lambda r, e: got["threads"].append((r, e)))
    window.engine_calls.messages(window.current_thread, lambda r, e: got["messages"].append((r, e)))
    qtbot.waitUntil(lambda: all(got.values()), timeout=WAIT_MS)
    with qtbot.waitSignal(backend.started.bridge.request_finished, timeout=WAIT_MS):
        window.navigator.reload_threads()  # a later answer: the earlier callbacks are not run again
    [(threads, error)] = got["threads"]
    assert error == "" and all(isinstance(t, ThreadRow) for t in threads)
    assert [t.thread_id for t in threads] == [window.current_thread]
    [(messages, error)] = got["messages"]
    assert error == "" and messages == [] and not isinstance(messages, MessageRow)


def test_a_failed_command_shows_its_error(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    thread = window.current_thread
    window.status.clearMessage()
    window.navigator.set_thread_provider(thread, "No such provider!")  # not a provider name
    qtbot.waitUntil(lambda: window.status.currentMessage() != "", timeout=WAIT_MS)
    assert "provider" in window.status.currentMessage()
    row = window.navigator.thread_row(thread)
    assert row is not None and row.provider != "no-such-provider"


def test_attachments_go_through_typed_calls(backend: Backend, qtbot: QtBot,
                                            tmp_path: Path) -> None:
    window = backend.window(qtbot)
    source = tmp_path / "notes.txt"
    source.write_text("remember the milk\n", encoding="utf-8")
    got: dict[str, list[tuple[Any, str]]] = {"attach": [], "uploads": [], "cancel": []}
    window.engine_calls.attach_file(source, "notes.txt", "text/plain", "local_cafe",
                                    lambda r, e: got["attach"].append((r, e)))
    qtbot.waitUntil(lambda: bool(got["attach"]), timeout=WAIT_MS)
    [(row, error)] = got["attach"]
    assert error == "" and isinstance(row, UploadRow)
    assert (row.local_id, row.name, row.size) == ("local_cafe", "notes.txt", source.stat().st_size)
    window.engine_calls.uploads(lambda r, e: got["uploads"].append((r, e)))
    qtbot.waitUntil(lambda: bool(got["uploads"]), timeout=WAIT_MS)
    [(rows, error)] = got["uploads"]
    assert error == "" and "local_cafe" in [r.local_id for r in rows]
    window.engine_calls.cancel_upload("local_cafe", lambda r, e: got["cancel"].append((r, e)))
    qtbot.waitUntil(lambda: bool(got["cancel"]), timeout=WAIT_MS)
    assert got["cancel"] == [(True, "")]


def test_with_the_engine_stopped_a_command_fails_at_once_and_says_so(
        backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    backend.started.bridge.stop()
    window.navigator.rename_thread(window.current_thread, "Too late")
    assert window.status.currentMessage() == NOT_RUNNING
    window.new_thread()  # (Ctrl+N would keep the empty open thread instead)
    assert window.status.currentMessage() == f"Could not create a thread: {NOT_RUNNING}"
    answers: list[tuple[Any, str]] = []
    assert window.engine_calls.threads(lambda r, e: answers.append((r, e))) == -1
    assert answers == [(None, NOT_RUNNING)]


def test_a_closed_window_makes_no_more_calls(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.close()
    backend.started.bridge.stop()
    window.status.clearMessage()
    answers: list[tuple[Any, str]] = []
    assert window.engine_calls.threads(lambda r, e: answers.append((r, e))) == -1
    window.window_actions.new_thread_action.trigger()
    assert answers == []
    assert window.status.currentMessage() == ""


# -- alone, against a fake engine behind the real bridge ------------------------------------------
def test_typed_answers_arrive_once_on_the_gui_thread(qtbot: QtBot) -> None:
    bridge, engine = fake_bridge()
    calls = EngineCalls(bridge)
    alpha = engine.add_thread("Alpha")
    got: list[tuple[Any, str]] = []
    with qtbot.waitSignal(bridge.request_finished):
        assert calls.threads(lambda rows, error: got.append((rows, error))) > 0
    with qtbot.waitSignal(bridge.request_finished):
        calls.create_thread("Beta", lambda thread_id, error: got.append((thread_id, error)))
    [(rows, error), (created, no_error)] = got
    assert error == no_error == ""
    assert [r.thread_id for r in rows] == [alpha] and created.startswith("thr_")
    assert engine.calls == [("threads",), ("create_thread", "Beta")]


def test_a_command_without_callback_reports_its_error_with_failed(qtbot: QtBot) -> None:
    bridge, engine = fake_bridge()
    calls = EngineCalls(bridge)
    engine.failures["set_thread_provider"] = "unknown provider"
    with qtbot.waitSignal(calls.failed) as failed:
        calls.set_thread_provider("thr_1", "nope")
    assert failed.args == ["unknown provider"]


def test_a_stopped_engine_fails_at_once_and_a_closed_caller_stays_silent(qtbot: QtBot) -> None:
    bridge, engine = fake_bridge()
    calls = EngineCalls(bridge)
    engine.stop()
    answers: list[tuple[Any, str]] = []
    assert calls.threads(lambda r, e: answers.append((r, e))) == -1
    assert answers == [(None, FAKE_NOT_RUNNING)]
    with qtbot.waitSignal(calls.failed) as failed:
        calls.retry_now()
    assert failed.args == [FAKE_NOT_RUNNING]
    engine.start()
    calls.close()
    with qtbot.assertNotEmitted(calls.failed, wait=50):
        assert calls.threads(lambda r, e: answers.append((r, e))) == -1
        calls.rename_thread("thr_1", "Late")
    assert len(answers) == 1 and engine.calls == []
