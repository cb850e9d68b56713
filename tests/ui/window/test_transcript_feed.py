"""The transcript and the Sources panel follow the open thread: answers for a thread the user left
stay out of the one shown, Sources opens on the latest sourced answer and the *Sources panel*
entry mirrors the dock."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.transcript.samples import sourced_message
from composer_app.ui.transcript.sources_dock import SourcesDock
from composer_app.ui.transcript.view import TranscriptView
from composer_app.ui.window.main_window import MainWindow
from composer_app.ui.window.transcript_feed import TranscriptFeed
from tests.ui.fake_engine import fake_bridge
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


# -- the feed alone, against a fake engine behind the real bridge ---------------------------------
class _Feed:
    def __init__(self, qtbot: QtBot) -> None:
        self.bridge, self.engine = fake_bridge()
        self.window = QMainWindow()  # the dock needs a main window to live in
        qtbot.addWidget(self.window)
        self.transcript = TranscriptView(self.window)
        self.window.setCentralWidget(self.transcript)
        self.dock = SourcesDock(self.transcript, self.window)
        self.window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.hide()
        # parented like the window's: it goes with the window, answers after that reach nothing
        self.feed = TranscriptFeed(self.transcript, self.dock,
                                   EngineCalls(self.bridge, self.window))
        self.bridge.message_upserted.connect(lambda thread, _m: self.feed.thread_changed(thread))
        self.window.show()

    def ids(self) -> list[str]:
        return [m.message_id for m in self.transcript.messages]


def _sourced_fields() -> dict[str, Any]:
    """The contract's example sourced answer, as the cache's row fields."""
    wire = sourced_message()
    return {"sources": wire["sources"], "metadata": wire["metadata"],
            "created_at": wire["createdAt"]}


def test_alone_only_the_open_threads_messages_are_shown(qtbot: QtBot) -> None:
    parts = _Feed(qtbot)
    alpha = parts.engine.add_thread("Alpha")
    beta = parts.engine.add_thread("Beta")
    first = parts.engine.add_message(alpha, "user", "hello")
    parts.feed.show_thread(alpha)
    qtbot.waitUntil(lambda: parts.ids() == [first.message_id])
    parts.engine.add_message(beta, "user", "elsewhere")  # another thread: no refresh
    reply = parts.engine.add_message(alpha, "assistant", "hi")
    qtbot.waitUntil(lambda: parts.ids() == [first.message_id, reply.message_id])
    parts.feed.show_thread(beta)
    qtbot.waitUntil(lambda: parts.ids() == [m.message_id for m in parts.engine.messages_[beta]])


def test_alone_sources_open_on_the_latest_sourced_answer(qtbot: QtBot) -> None:
    parts = _Feed(qtbot)
    alpha = parts.engine.add_thread("Alpha")
    parts.engine.add_message(alpha, "user", "when?")
    answer = parts.engine.add_message(alpha, "assistant", sourced_message()["text"],
                                      **_sourced_fields())
    parts.feed.show_thread(alpha)
    qtbot.waitUntil(lambda: len(parts.ids()) == 2)
    assert parts.feed.latest_sourced_message() == answer.message_id
    with qtbot.waitSignal(parts.feed.sources_visibility_changed) as shown:
        parts.feed.set_sources_visible(True)
    assert shown.args == [True] and parts.dock.panel.message_id == answer.message_id
    parts.feed.show_thread(parts.engine.add_thread("Beta"))  # Sources of another thread close
    assert not parts.dock.isVisible()


def test_alone_an_attachment_that_cannot_open_says_so(qtbot: QtBot) -> None:
    parts = _Feed(qtbot)
    parts.engine.failures["asset_url"] = "HTTP 404"
    with qtbot.waitSignal(parts.feed.status_message) as said:
        parts.feed.open_asset(SimpleNamespace(attachment_id="att_gone"))  # type: ignore[arg-type]
    assert said.args == ["HTTP 404"]
    assert ("asset_url", "att_gone", "attachment") in parts.engine.calls


def _stream(parts: _Feed, row: Any, text: str) -> Any:
    """Replace an answer's text in the fake cache (a streamed delta) and announce it."""
    grown = replace(row, text=text, is_streaming=True)
    rows = parts.engine.messages_[row.thread_id]
    rows[rows.index(row)] = grown
    parts.engine.emit("message_upserted", row.thread_id, row.message_id)
    return grown


def _long_thread(parts: _Feed, qtbot: QtBot) -> tuple[str, Any]:
    parts.window.resize(600, 400)
    alpha = parts.engine.add_thread("Alpha")
    for n in range(30):
        parts.engine.add_message(alpha, "user", f"Question {n}\n\nwith a second paragraph")
    answer = parts.engine.add_message(alpha, "assistant", "The answer begins", is_streaming=True)
    parts.feed.show_thread(alpha)
    qtbot.waitUntil(lambda: len(parts.ids()) == 31)
    bar = parts.transcript.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 200 and bar.value() == bar.maximum())
    return alpha, answer


def test_streamed_delta_keeps_a_reader_scrolled_up(qtbot: QtBot) -> None:
    parts = _Feed(qtbot)
    _alpha, answer = _long_thread(parts, qtbot)
    bar = parts.transcript.verticalScrollBar()
    bar.setValue(40)  # the reader scrolls up to read an older message
    text = "The answer begins"
    for n in range(5):
        text += f"\n\nand grows by paragraph {n}"
        answer = _stream(parts, answer, text)
        qtbot.waitUntil(lambda t=text: parts.transcript.messages[-1].text == t)
        qtbot.wait(50)  # the layout pass after the delta
        assert bar.value() == 40
    assert not parts.transcript.following


def test_streamed_delta_keeps_a_reader_at_the_bottom_following(qtbot: QtBot) -> None:
    parts = _Feed(qtbot)
    _alpha, answer = _long_thread(parts, qtbot)
    bar = parts.transcript.verticalScrollBar()
    before = bar.maximum()
    answer = _stream(parts, answer, "The answer begins" + "\n\nand grows" * 8)
    qtbot.waitUntil(lambda: bar.maximum() > before)
    qtbot.waitUntil(lambda: bar.value() == bar.maximum())
    assert parts.transcript.following


def test_sources_panel_has_an_empty_state_and_follows_the_newest_answer(qtbot: QtBot) -> None:
    from composer_app.ui.transcript.sources_panel import EMPTY_TEXT, MIN_WIDTH

    parts = _Feed(qtbot)
    alpha = parts.engine.add_thread("Alpha")
    parts.feed.show_thread(alpha)
    parts.feed.set_sources_visible(True)
    panel = parts.dock.panel
    assert panel.message_id == "" and panel.notice.isVisible()
    assert panel.notice.text() == EMPTY_TEXT
    assert panel.minimumWidth() >= MIN_WIDTH
    assert (panel.scroll_area.horizontalScrollBarPolicy()
            == Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    parts.engine.add_message(alpha, "user", "when?")
    first = parts.engine.add_message(alpha, "assistant", sourced_message()["text"],
                                     **_sourced_fields())
    qtbot.waitUntil(lambda: panel.message_id == first.message_id)
    assert not panel.notice.isVisible() or panel.notice.text() != EMPTY_TEXT
    parts.engine.add_message(alpha, "user", "and again?")
    second = parts.engine.add_message(alpha, "assistant", sourced_message()["text"],
                                      **_sourced_fields())
    qtbot.waitUntil(lambda: panel.message_id == second.message_id)
    # a reader who went back to the older answer's sources stays there
    parts.dock.show_sources(first.message_id)
    parts.engine.add_message(alpha, "user", "third?")
    third = parts.engine.add_message(alpha, "assistant", sourced_message()["text"],
                                     **_sourced_fields())
    qtbot.waitUntil(lambda: third.message_id in parts.ids())
    qtbot.wait(50)
    assert panel.message_id == first.message_id


def test_a_source_downloads_from_the_window_s_sources_panel(backend: Backend, qtbot: QtBot,
                                                            tmp_path: Path) -> None:
    from composer_app.ui.transcript.source_download import SourceDownloader

    window = backend.window(qtbot)
    _ask(window, qtbot)
    window.window_actions.sources_action.trigger()
    panel = window.sources_dock.panel
    downloader = panel.downloader
    assert isinstance(downloader, SourceDownloader)
    downloader.folder = tmp_path / "downloads"  # not the user's Downloads folder
    downloader.folder.mkdir()
    entry = next(e for e in panel._entries.values()
                 if e.id in panel.rows and "download" in panel.rows[e.id].model.actions)
    progress = panel.download_entry(entry)
    assert progress is not None
    with qtbot.waitSignal(progress.finished, timeout=WAIT_MS) as done:
        pass
    assert done.args[0] is True, done.args
    saved = list(downloader.folder.iterdir())
    assert [p.read_text(encoding="utf-8") for p in saved] == [
        (tmp_path / "knowledge" / "release-checklist.md").read_text(encoding="utf-8")]


def test_alone_a_read_that_waited_for_the_outbox_never_undoes_a_later_one(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    # Read 1 sees the local echo still sending and asks the outbox for reasons; read 2 (the
    # message went out, the reply is done) is shown first; read 1's late rows are dropped.
    parts = _Feed(qtbot)
    alpha = parts.engine.add_thread("Alpha")
    reasons: list[Any] = []
    monkeypatch.setattr(EngineCalls, "outbox_items", lambda _self, then: reasons.append(then))
    echo = parts.engine.add_message(alpha, "user", "hello", local_state="sending")
    parts.feed.show_thread(alpha)
    qtbot.waitUntil(lambda: len(reasons) == 1)
    sent = replace(echo, local_state=None)
    reply = parts.engine.add_message(alpha, "assistant", "hi")
    parts.engine.messages_[alpha][0] = sent
    parts.feed.refresh()
    qtbot.waitUntil(lambda: parts.ids() == [echo.message_id, reply.message_id])
    reasons[0]([], False)
    assert parts.ids() == [echo.message_id, reply.message_id]
