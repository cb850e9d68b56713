"""Sending from the composer, and the bounded wait at quit that keeps a just-sent message from
being lost."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from composer_app.core.document.store import DraftStore
from composer_app.ui.composer.attachment_uploads import AttachmentUploads
from composer_app.ui.window.composer_area import ComposerArea
from composer_app.ui.window.state import WINDOW_SETTINGS
from tests.ui.fake_engine import FakeEngine, fake_bridge
from tests.ui.window.window_support import WAIT_MS, Backend, answered, running_backend


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[Backend]:
    yield from running_backend(tmp_path / "data")


def test_the_send_button_sends_the_composer_text(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.editor.insertPlainText("from the button")
    qtbot.mouseClick(window.composer_area.send_button, Qt.MouseButton.LeftButton)
    assert window.editor.markdown() == ""
    qtbot.waitUntil(lambda: answered(window), timeout=WAIT_MS)
    assert window.transcript.messages[0].text == "from the button"
    assert window.pending_sends == 0


def test_an_empty_composer_sends_nothing(backend: Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.window_actions.send_action.trigger()
    assert window.pending_sends == 0
    rows = backend.started.bridge.engine.messages(window.current_thread).result(10)
    assert rows == []


def test_a_send_waiting_for_a_dropped_file_is_pending_and_shutdown_is_bounded(
        backend: Backend, qtbot: QtBot, tmp_path: Path) -> None:
    window = backend.window(qtbot)
    thread = window.current_thread
    notes = tmp_path / "notes.txt"
    notes.write_text("the queue drains at night\n" * 2000, encoding="utf-8")
    window.editor.insertPlainText("read this ")
    window.editor.attach_paths([str(notes)])
    assert window.editor.request_send()
    assert window.pending_sends == 1  # waits for the file to be registered
    assert window.shutdown(timeout_ms=0) is False  # the time is up: something is left behind
    assert not window.isVisible()  # but the window is closed already
    assert window.shutdown() is True
    assert window.pending_sends == 0
    assert window.shutdown() is True  # idempotent
    rows = backend.started.bridge.engine.messages(thread).result(10)
    [sent] = [r for r in rows if r.role == "user"]
    assert sent.text.startswith("read this [notes.txt](")


def test_shutdown_with_nothing_pending_closes_and_saves_the_window(backend: Backend,
                                                                  qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    settings = backend.paths.config_dir / WINDOW_SETTINGS
    settings.unlink(missing_ok=True)
    assert window.shutdown() is True
    assert not window.isVisible()
    assert "geometry" in settings.read_text(encoding="utf-8")


# -- the composer area alone, against a fake engine behind the real bridge -------------------------
def _area(qtbot: QtBot, root: Path) -> tuple[ComposerArea, FakeEngine]:
    bridge, engine = fake_bridge()
    area = ComposerArea(AttachmentUploads(bridge), DraftStore(root / "drafts"))
    qtbot.addWidget(area)
    area.show()
    return area, engine


def test_alone_a_thread_enables_the_composer_with_its_own_draft(qtbot: QtBot,
                                                                tmp_path: Path) -> None:
    area, _engine = _area(qtbot, tmp_path)
    assert not area.editor.isEnabled() and not area.send_button.isEnabled()
    area.show_thread("thr_a")
    assert area.editor.isEnabled() and area.send_button.isEnabled()
    area.editor.insertPlainText("draft for a")
    area.show_thread("thr_b")
    assert area.editor.markdown() == ""
    area.show_thread("thr_a")
    assert area.editor.markdown() == "draft for a"


def test_alone_a_send_is_pending_until_the_engine_queued_it(qtbot: QtBot, tmp_path: Path) -> None:
    area, engine = _area(qtbot, tmp_path)
    area.show_thread("thr_a")
    area.editor.insertPlainText("hello")
    area.send_button.click()
    assert area.pending_sends == 1 and area.busy()
    assert area.wait_until_idle(2000)
    assert area.pending_sends == 0
    assert ("send_message", "thr_a", "hello", []) in engine.calls
    engine.failures["send_message"] = "thread is gone"
    area.editor.insertPlainText("again")
    with qtbot.waitSignal(area.status_message) as said:
        area.send()
    assert said.args == ["thread is gone"] and area.pending_sends == 0
