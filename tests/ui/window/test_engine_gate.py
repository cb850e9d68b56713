"""With the open thread's server signed out and no other engine running, every action that needs
an engine is disabled with the reason (or says why), never raises, and keeps the draft; signing in
again brings them back. A real server on loopback, the real window offscreen."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from keyring.backends import fail
from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from composer_app.server.embedded import EmbeddedServer, start_embedded
from composer_app.sync.accounts import Account, AccountBook
from composer_app.sync.secrets import TokenStore
from composer_app.ui.account_engines import AccountEngines
from composer_app.ui.backend import Started, connect_backend
from composer_app.ui.session import Session
from composer_app.ui.settings.settings_logic import AppSettings, Connection, app_paths
from composer_app.ui.transcript.sources_panel import DownloadProgress
from composer_app.ui.window.main_window import MainWindow

WAIT_MS = 30_000


@dataclass
class RemoteOnly:
    server: EmbeddedServer
    started: Started
    window: MainWindow
    team: Account


@pytest.fixture
def remote_only(tmp_path: Path, qtbot: QtBot) -> Iterator[RemoteOnly]:
    """The app connected to one remote server only (no embedded server runs)."""
    server = start_embedded(tmp_path / "server")
    paths = app_paths(tmp_path / "app")
    tokens = TokenStore(paths.config_dir, backend=fail.Keyring())
    book = AccountBook.load(paths.config_dir)
    team = book.add(server.url, "Team")
    tokens.set(server.url, server.token)
    started = connect_backend(paths, Connection(False, server.url), server.token)
    engines = AccountEngines(paths)
    started.engines = engines
    session = Session(started.bridge, paths, AppSettings(), tokens, False, server.url,
                      token=server.token, book=book, engines=engines)
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.bridge.connection_state[0] == "connected",
                        timeout=WAIT_MS)
        window.new_thread("Plans")
        qtbot.waitUntil(lambda: window.current_thread != "", timeout=WAIT_MS)
        yield RemoteOnly(server, started, window, team)
    finally:
        window.shutdown()
        started.stop()
        for run in engines.runs():
            engines.stop(run.account.account_id)
        server.stop()


def engine_actions(window: MainWindow) -> list[QAction]:
    acts, context = window.window_actions, window.context
    return [acts.new_thread_action, acts.send_action, acts.share_action, acts.rename_action,
            acts.archive_action, acts.retry_action, *acts.assistant_actions.values(),
            *context.insert_actions.actions.values(), *context.thread_menu_actions()]


def test_a_signed_out_server_disables_what_needs_its_engine_and_never_raises(
        remote_only: RemoteOnly, qtbot: QtBot) -> None:
    window = remote_only.window
    thread = window.current_thread
    assert window.window_actions.share_action.isEnabled()
    window.servers.sign_out(remote_only.team.account_id)
    assert window.accounts_bridge.account_ids() == []
    reason = window.engine_missing_reason()
    assert reason.startswith("Team is signed out")
    for action in engine_actions(window):
        assert not action.isEnabled(), action.objectName()
        assert action.toolTip() == reason
    assert window.status.connection.text() == "Signed out"
    assert window.status.sign_in.isVisibleTo(window.status)
    assert not window.composer_area.send_button.isEnabled()
    # an owner enabling an action meanwhile does not show it enabled
    window.window_actions.set_thread_state(True, False)
    assert not window.window_actions.share_action.isEnabled()
    # Enter keeps the draft and says why
    window.editor.insertPlainText("keep me")
    assert not window.editor.request_send()
    assert window.editor.toPlainText() == "keep me"
    assert any(reason in detail for _t, detail in window.composer_area.notices.history)
    # everything reachable still runs without raising (pytest-qt fails on any exception)
    closer = QTimer()
    closer.timeout.connect(lambda: (w := QApplication.activeModalWidget()) and w.close())
    closer.start(100)
    for action in window.findChildren(QAction):
        if action.objectName() != "quit":
            action.trigger()
    window.open_share()
    window.new_thread("Nowhere")
    window.connection.retry_now()
    progress = DownloadProgress()
    with qtbot.waitSignal(progress.finished, timeout=WAIT_MS):
        window.sources_dock.panel.downloader("/api/threads/x/sources/y", progress)
    closer.stop()
    # signing in again brings every action back, and the kept draft sends
    window.servers.sign_in(remote_only.team.account_id, remote_only.server.token)
    qtbot.waitUntil(lambda: window.bridge.connection_state[0] == "connected", timeout=WAIT_MS)
    assert window.engine_missing_reason() == ""
    assert window.window_actions.share_action.isEnabled()
    assert window.window_actions.new_thread_action.isEnabled()
    assert window.composer_area.send_button.isEnabled()
    window.open_thread(thread)
    window.editor.setPlainText("keep me")
    assert window.editor.request_send()
    qtbot.waitUntil(lambda: window.pending_sends == 0, timeout=WAIT_MS)
