"""The *Share thread* dialog against a real server through the sync engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from composer_app.sync.engine import SyncEngine
from composer_app.ui.transcript.share_dialog import ShareDialog
from composer_app.ui.transcript.share_logic import COPY_ONCE, NO_LINKS
from tests.sync.conftest import WAIT, LoopbackServer, Recorder
from tests.sync.test_uploads import rec_sent

WAIT_MS = int(WAIT * 1000)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[tuple[SyncEngine, Recorder, LoopbackServer]]:
    server = LoopbackServer(tmp_path / "server").start()
    engine = SyncEngine(server.base_url, server.token(), tmp_path / "client")
    recorder = Recorder()
    engine.add_listener(recorder)
    engine.start()
    yield engine, recorder, server
    engine.stop()
    server.stop()


def test_share_dialog_creates_copies_and_revokes_a_link(engine, qtbot: QtBot) -> None:
    sync, rec, _server = engine
    thread_id = sync.create_thread().result(WAIT)
    message_id = sync.send_message(thread_id, "the shared words", [], []).result(WAIT)
    rec.wait(lambda: rec_sent(rec, thread_id, message_id))
    dialog = ShareDialog(sync, thread_id, "Budget")
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Share “Budget”"
    qtbot.waitUntil(lambda: not dialog.state.busy, timeout=WAIT_MS)
    assert dialog.hint.text() == NO_LINKS and not dialog.copy_button.isEnabled()
    dialog.create_button.click()
    qtbot.waitUntil(lambda: bool(dialog.link_field.text()), timeout=WAIT_MS)
    url = dialog.link_field.text()
    assert "/s/" in url and dialog.hint.text() == COPY_ONCE
    assert "the shared words" in httpx.get(url).text
    dialog.copy_button.click()
    assert QGuiApplication.clipboard().text() == url
    assert dialog.links.count() == 1 and dialog.links.item(0).text().startswith("Link created ")
    assert not dialog.revoke_button.isEnabled()  # nothing selected yet
    dialog.links.setCurrentRow(0)
    assert dialog.revoke_button.isEnabled()
    dialog.revoke_button.click()
    qtbot.waitUntil(lambda: dialog.links.count() == 0 and not dialog.state.busy,
                    timeout=WAIT_MS)
    assert dialog.link_field.text() == "" and httpx.get(url).status_code == 404


def test_share_dialog_shows_why_it_failed(engine, qtbot: QtBot) -> None:
    sync, _rec, _server = engine
    dialog = ShareDialog(sync, "thr_" + "0" * 32)  # not on the server
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.state.busy, timeout=WAIT_MS)
    assert "not on the server" in dialog.hint.text()
    assert dialog.isVisible() is False and dialog.result() == 0  # still open for another try
