"""The main window against a real embedded server: first thread, threads, shortcuts, panes,
status bar and what it remembers."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from composer_app.core.contracts.messages import decode_message_context
from composer_app.server.snapshots import choice_key
from composer_app.server.store.executor import token_hash
from composer_app.server.store.sqlite import DATABASE_FILE
from composer_app.sync.secrets import TokenStore
from composer_app.ui.backend import (
    LocalServer,
    connect_backend,
    start_embedded_server,
    stop_embedded_server,
)
from composer_app.ui.session import Session
from composer_app.ui.settings.settings_logic import AppSettings, Connection, app_paths
from composer_app.ui.window.main_window import MainWindow

WAIT_MS = 20_000


class _Backend:
    """An embedded server and the sync engine for one test; windows share them."""

    def __init__(self, root: Path) -> None:
        self.paths = app_paths(root)
        self.settings = AppSettings()
        self.server = start_embedded_server(self.paths, self.settings)
        self.started = connect_backend(self.paths, Connection(True, self.server.url),
                                       self.server.token)
        self.windows: list[MainWindow] = []

    def window(self, qtbot: QtBot) -> MainWindow:
        session = Session(self.started.bridge, self.paths, self.settings,
                          TokenStore(self.paths.config_dir), True, self.started.url)
        window = MainWindow(session)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitUntil(lambda: window.thread_pane.model.row_of(window.current_thread) >= 0,
                        timeout=WAIT_MS)
        self.windows.append(window)
        return window

    def close(self) -> None:
        for window in self.windows:
            window.close()
        self.started.bridge.stop()
        stop_embedded_server(self.server)


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[_Backend]:
    running = _Backend(tmp_path / "data")
    yield running
    running.close()


def _titles(window: MainWindow) -> list[str]:
    model = window.thread_pane.model
    return [model.index(i).data() for i in range(model.rowCount())]


def test_first_run_has_a_ready_thread_and_embedded_status(backend: _Backend,
                                                          qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    assert _titles(window) == ["New thread"]
    assert window.editor.isEnabled() and window.composer_area.send_button.isEnabled()
    qtbot.waitUntil(lambda: window.status.connection.text() == "Embedded server",
                    timeout=WAIT_MS)
    assert not window.status.unsent.isVisible()
    assert not window.status.banner.isVisible()  # no token to keep for the embedded server


def test_ctrl_n_creates_and_shows_a_thread_then_rename_and_search(backend: _Backend,
                                                                  qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    window.editor.insertPlainText("an idea")  # not empty: Ctrl+N makes another thread
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.current_thread != first, timeout=WAIT_MS)
    second = window.current_thread
    qtbot.waitUntil(lambda: len(_titles(window)) == 2, timeout=WAIT_MS)
    window.navigator.rename_thread(second, "Budget  review")
    qtbot.waitUntil(lambda: "Budget review" in _titles(window), timeout=WAIT_MS)
    assert window.windowTitle() == "Budget review — Composer"
    window.thread_pane.search.setText("budget")
    assert _titles(window) == ["Budget review"]
    window.thread_pane.search.setText("zzz")
    assert _titles(window) == []
    assert window.current_thread == second  # searching never switches thread


def test_archive_hides_a_thread_until_show_archived(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    thread = window.current_thread
    window.navigator.toggle_archive_current()
    assert _titles(window) == []
    assert window.window_actions.archive_action.text() == "Un&archive thread"
    window.window_actions.show_archived_action.setChecked(True)
    assert _titles(window) == ["New thread"]
    window.navigator.set_archived(thread, False)
    window.window_actions.show_archived_action.setChecked(False)
    assert _titles(window) == ["New thread"]


def test_sending_shows_the_echo_and_the_answer(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    qtbot.waitUntil(lambda: window.status.connection.text() == "Embedded server",
                    timeout=WAIT_MS)
    assert window.transcript_stack.currentWidget() is window.transcript_stack.empty_page
    window.editor.setFocus()
    window.editor.insertPlainText("What is in my knowledge folder?")
    qtbot.keyClick(window.editor, Qt.Key.Key_Return)
    assert window.editor.markdown() == ""

    def answered() -> bool:
        roles = [(m.role, m.streaming) for m in window.transcript.messages]
        return roles == [("user", False), ("assistant", False)]

    qtbot.waitUntil(answered, timeout=WAIT_MS)
    assert window.transcript_stack.currentWidget() is window.transcript
    assert window.transcript.messages[0].text == "What is in my knowledge folder?"
    assert window.transcript.messages[1].text.strip()


def test_a_send_right_after_dropping_a_file_survives_an_immediate_quit(
        backend: _Backend, qtbot: QtBot, tmp_path: Path) -> None:
    window = backend.window(qtbot)
    thread = window.current_thread
    notes = tmp_path / "notes.txt"
    notes.write_text("deploys at 02:00\n" * 2000, encoding="utf-8")
    window.editor.insertPlainText("see ")
    [record] = window.editor.attach_paths([str(notes)])
    assert window.editor.request_send()  # the attach is still being registered
    assert window.shutdown()  # waits until the client has queued the message
    assert window.pending_sends == 0
    engine = backend.started.bridge.engine

    def on_server() -> list[Any]:
        rows = engine.messages(thread).result(10)
        return [r for r in rows if r.role == "user" and r.local_state is None]

    qtbot.waitUntil(lambda: bool(on_server()), timeout=WAIT_MS)
    [sent] = on_server()
    assert sent.text.startswith("see ")
    assert [a["name"] for a in sent.attachments] == ["notes.txt"]  # bound to its upload
    context = decode_message_context(sent.context)
    assert [(r.kind, r.label) for r in context.records] == [("file", record.label)]


def test_sources_shortcut_toggles_even_from_the_composer(backend: _Backend,
                                                          qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.activateWindow()
    window.editor.setFocus()
    assert not window.sources_dock.isVisible()
    window.window_actions.sources_action.trigger()
    assert window.sources_dock.isVisible() and window.window_actions.sources_action.isChecked()
    window.window_actions.sources_action.trigger()
    assert not window.sources_dock.isVisible()
    # the composer claims Ctrl+Shift+S for itself; the window's filter gives it to Sources
    qtbot.keyClick(window.editor, Qt.Key.Key_S,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.sources_dock.isVisible()


def test_f6_cycles_focus_through_the_visible_panes(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    window.activateWindow()
    window.thread_pane.list.setFocus()
    seen = []
    for _ in range(3):
        window.window_actions.next_pane_action.trigger()
        seen.append(window.pane_focus.focused_pane())
    assert seen == [1, 2, 0]  # transcript, composer, back to the list (Sources hidden)
    window.sources_dock.show()
    window.pane_focus.focus_previous_pane()
    assert window.pane_focus.focused_pane() == 3


def test_every_action_is_in_a_menu_with_the_issue_shortcuts(backend: _Backend,
                                                            qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    in_menus = {a.objectName() for menu in window.menuBar().findChildren(type(
        window.menuBar().actions()[0].menu())) for a in menu.actions()}
    shortcuts = {a.objectName(): a.shortcut().toString() for a in window.actions()}
    assert shortcuts["newThread"] == "Ctrl+N"
    assert shortcuts["quickSwitcher"] == "Ctrl+K"
    assert shortcuts["stash"] == "Ctrl+S"
    assert shortcuts["plainPaste"] == "Ctrl+Shift+V"
    assert shortcuts["toggleSources"] == "Ctrl+Shift+S"
    assert shortcuts["nextPane"] == "F6"
    assert set(shortcuts) <= in_menus
    window.activateWindow()
    window.editor.setFocus()
    window.window_actions.find_action.trigger()
    assert window.thread_pane.search.hasFocus() or QApplication.focusWidget() is (
        window.thread_pane.search)


def test_quick_switcher_opens_on_ctrl_k_and_switches(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    window.navigator.rename_thread(first, "Alpha notes")
    window.new_thread("Beta plan")
    qtbot.waitUntil(lambda: window.current_thread != first, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: sorted(_titles(window)) == ["Alpha notes", "Beta plan"],
                    timeout=WAIT_MS)
    window.window_actions.switcher_action.trigger()
    assert window.switcher.isVisible()
    qtbot.keyClicks(window.switcher.query, "alph")
    shown = [window.navigator.thread_row(t) for t in window.switcher.shown_ids()]
    assert [row.title for row in shown if row is not None] == ["Alpha notes"]
    qtbot.keyClick(window.switcher.query, Qt.Key.Key_Return)
    assert not window.switcher.isVisible()
    assert window.current_thread == first


def test_stash_shortcut_and_drafts_follow_the_thread(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    window.editor.insertPlainText("half-written idea")
    window.thread_pane.list.setFocus()  # Ctrl+S works from anywhere in the window
    window.window_actions.stash_action.trigger()
    assert window.editor.markdown() == ""
    assert len(window.editor.draft.stash) == 1
    notices = window.composer_area.notices
    assert notices.isVisible() and notices.history[-1][0] == "Prompt stashed."
    window.window_actions.stash_action.trigger()  # empty composer: brings it back
    assert window.editor.markdown() == "half-written idea"
    window.new_thread()
    qtbot.waitUntil(lambda: window.current_thread != first, timeout=WAIT_MS)
    assert window.editor.markdown() == ""
    window.open_thread(first)
    assert window.editor.markdown() == "half-written idea"


def test_geometry_and_last_thread_are_remembered(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    window.new_thread("Second")
    qtbot.waitUntil(lambda: window.current_thread != first, timeout=WAIT_MS)
    second = window.current_thread
    qtbot.waitUntil(lambda: len(_titles(window)) == 2, timeout=WAIT_MS)
    window.open_thread(first)
    window.resize(780, 700)
    qtbot.waitUntil(lambda: (window.width(), window.height()) == (780, 700), timeout=WAIT_MS)
    window.close()
    again = backend.window(qtbot)
    assert again.current_thread == first != second
    assert (again.width(), again.height()) == (780, 700)


def test_unsent_count_appears_when_the_server_is_gone(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    qtbot.waitUntil(lambda: window.status.connection.text() == "Embedded server",
                    timeout=WAIT_MS)
    stop_embedded_server(backend.server)
    backend.started.bridge.engine.disconnect()
    qtbot.waitUntil(lambda: window.status.retry.isVisible(), timeout=WAIT_MS)
    window.editor.insertPlainText("queued while offline")
    window.window_actions.send_action.trigger()
    qtbot.waitUntil(lambda: window.status.unsent.isVisible(), timeout=WAIT_MS)
    assert window.status.unsent.text().startswith("1 unsent")
    window.status.unsent.click()
    assert window.unsent_dialog.isVisible()
    assert window.unsent_dialog.items.count() == 1
    assert "queued while offline" in window.unsent_dialog.items.item(0).text()
    assert window.unsent_dialog.edit_button.isEnabled()
    window.unsent_dialog.edit_button.click()  # Edit: back into the composer, out of the queue
    qtbot.waitUntil(lambda: window.editor.markdown() == "queued while offline", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.status.unsent.isVisible(), timeout=WAIT_MS)
    assert window.unsent_dialog.items.count() == 0
    backend.server = _Stopped()


class _Stopped:
    """Stands in for a server the test already stopped."""

    def stop(self, *_: Any) -> None:
        return None


def test_remote_session_without_keyring_shows_the_banner_and_can_remember(
        backend: _Backend, qtbot: QtBot, tmp_path: Path) -> None:
    from keyring.backends import fail

    tokens = TokenStore(tmp_path / "config", backend=fail.Keyring())
    tokens.set(backend.started.url, backend.server.token)
    session = Session(backend.started.bridge, backend.paths, backend.settings, tokens, False,
                      backend.started.url)
    window = MainWindow(session)
    qtbot.addWidget(window)
    window.show()
    backend.windows.append(window)
    assert window.status.banner.isVisible()
    assert "keyring is unavailable" in window.status.banner.text()
    assert window.status.remember.text() == "Remember on this device (unencrypted)"
    qtbot.waitUntil(lambda: window.status.connection.text() == "Connected", timeout=WAIT_MS)
    window.status.remember.click()
    assert not window.status.banner.isVisible()
    assert (tokens.credentials_path.stat().st_mode & 0o777) == 0o600


def test_shutdown_waits_for_dropped_files_still_being_registered(
        backend: _Backend, qtbot: QtBot, tmp_path: Path) -> None:
    window = backend.window(qtbot)
    notes = tmp_path / "notes.txt"
    notes.write_text("release notes\n" * 2000, encoding="utf-8")
    [record] = window.editor.attach_paths([str(notes)])
    assert window.uploads.registering() == 1
    assert not window.shutdown(timeout_ms=0)  # bounded: reports what is left behind
    assert window.shutdown()
    assert window.uploads.registering() == 0
    uploads = backend.started.bridge.engine.uploads().result(10)
    assert record.attachment_id in {u.local_id for u in uploads}  # resumes on the next start


def _user_of(server: LocalServer) -> str:
    """The server's user id of the app's device token (provider choices are per user)."""
    database = sqlite3.connect(server.server.data_dir / DATABASE_FILE)
    try:
        row = database.execute("SELECT user_id FROM devices WHERE token_sha256 = ?",
                               (token_hash(server.token),)).fetchone()
    finally:
        database.close()
    assert row is not None
    return str(row[0])


def _assistant(window: MainWindow) -> dict[str, bool]:
    return {a.text(): a.isChecked() for a in window.window_actions.assistant_menu.actions()}


def test_thread_assistant_menu_shows_and_changes_the_threads_provider(
        backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    thread_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Thread")
    assert window.window_actions.assistant_menu.menuAction() in thread_menu.actions()
    assert window.window_actions.assistant_menu.title() == "A&ssistant"
    first = window.current_thread
    qtbot.waitUntil(lambda: _assistant(window) == {"Local (offline)": True,
                                                   "OpenAI-compatible": False},
                    timeout=WAIT_MS)
    assert window.window_actions.assistant_menu.isEnabled()
    window.window_actions.assistant_actions["openai"].trigger()
    assert _assistant(window) == {"Local (offline)": False, "OpenAI-compatible": True}
    server = backend.server  # the server routes the thread's turns to the choice
    qtbot.waitUntil(lambda: server.router.name_for(choice_key(_user_of(server), first))
                    == "openai", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: (r := window.navigator.thread_row(first)) is not None
                    and r.provider == "openai", timeout=WAIT_MS)
    # A new thread uses the server default; the menu follows the selected thread.
    window.new_thread()  # Ctrl+N would keep this empty thread
    qtbot.waitUntil(lambda: window.current_thread not in ("", first), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: _assistant(window)["Local (offline)"], timeout=WAIT_MS)
    window.open_thread(first)
    assert _assistant(window) == {"Local (offline)": False, "OpenAI-compatible": True}
    # Choosing the checked entry again keeps it (and sends nothing).
    window.window_actions.assistant_actions["openai"].trigger()
    assert _assistant(window)["OpenAI-compatible"]
    assert window.windowTitle() == "New thread — Composer"  # the title was kept


def _file_record(attachment_id: str) -> Any:
    from composer_app.core.contracts.records import decode_record

    return decode_record({"version": 1, "contextId": f"file_{attachment_id}", "kind": "file",
                          "label": "notes.txt", "attachmentId": attachment_id,
                          "name": "notes.txt", "mimeType": "text/plain", "sizeBytes": 4})


def _bubble_line(window: MainWindow, message_id: str) -> list[tuple[str, str]]:
    from composer_app.ui.transcript.view_actions import action_rects

    view = window.transcript
    row = view.transcript_model().transcript.row_of(message_id)
    if row < 0:
        return []
    message = view.messages[row]
    rect = view.visualRect(view.model().index(row, 0))
    return [(name, text) for name, text, _ in
            action_rects(message, view.layout_for(message), rect, view.fontMetrics())]


def test_failed_send_shows_reason_and_retry_on_its_bubble(backend: _Backend,
                                                            qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    thread = window.current_thread
    engine = backend.started.bridge.engine
    message_id = engine.send_message(
        thread, "see [notes.txt](t3-context://v1/file/file_att_missing)",
        [_file_record("att_missing")]).result(WAIT_MS / 1000)
    qtbot.waitUntil(lambda: ("retry", "Retry") in _bubble_line(window, message_id),
                    timeout=WAIT_MS)
    line = dict(_bubble_line(window, message_id))
    assert line["status"].startswith("Not sent: ")
    assert len(line["status"]) > len("Not sent: ")  # the reason the outbox recorded
    assert {"retry", "edit", "delete"} <= line.keys()
    # the Unsent messages dialog shows the chip's label and the same reason
    qtbot.waitUntil(lambda: window.status.unsent.isVisible(), timeout=WAIT_MS)
    window.status.unsent.click()
    shown = window.unsent_dialog.items.item(0).text()
    assert "see notes.txt" in shown and "t3-context" not in shown
    assert line["status"].removeprefix("Not sent: ").lower() in shown.lower()
    window.unsent_dialog.close()
    # the bubble's Delete removes the message from the transcript and the queue
    window.transcript.unsent_action.emit(message_id, "delete")
    qtbot.waitUntil(lambda: window.transcript.transcript_model().transcript.row_of(message_id)
                    < 0, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not window.status.unsent.isVisible(), timeout=WAIT_MS)


def test_queued_send_shows_a_clock_on_its_bubble(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    qtbot.waitUntil(lambda: window.status.connection.text() == "Embedded server",
                    timeout=WAIT_MS)
    stop_embedded_server(backend.server)
    backend.started.bridge.engine.disconnect()
    qtbot.waitUntil(lambda: window.status.retry.isVisible(), timeout=WAIT_MS)
    window.editor.insertPlainText("waits for the server")
    window.window_actions.send_action.trigger()
    messages = window.transcript.transcript_model().transcript.messages
    qtbot.waitUntil(lambda: bool(messages) and messages[-1].delivery is not None,
                    timeout=WAIT_MS)
    message_id = messages[-1].message_id
    qtbot.waitUntil(lambda: bool(_bubble_line(window, message_id)), timeout=WAIT_MS)
    assert [name for name, _ in _bubble_line(window, message_id)] == ["status"]
    assert messages[-1].delivery is not None and messages[-1].delivery[0] == "queued"
    backend.server = _Stopped()


def test_rejected_token_says_so_and_offers_sign_in(backend: _Backend, qtbot: QtBot,
                                                    tmp_path: Path) -> None:
    from keyring.backends import fail

    url = backend.server.url
    started = connect_backend(backend.paths, Connection(False, url), "not-the-token")
    tokens = TokenStore(tmp_path / "config", backend=fail.Keyring())
    tokens.set(url, "not-the-token")
    window = MainWindow(Session(started.bridge, backend.paths, backend.settings, tokens, False,
                                url))
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.status.connection.text()
                        == "The server did not accept the token", timeout=WAIT_MS)
        assert window.status.sign_in.isVisible() and window.status.tone == "error"
        assert not window.status.retry.isVisible()
        asked: list[str] = []
        window.connection.ask_token = lambda where: asked.append(where) or backend.server.token
        window.status.sign_in.click()
        assert asked == [url]
        qtbot.waitUntil(lambda: window.status.connection.text() == "Connected", timeout=WAIT_MS)
        assert not window.status.sign_in.isVisible()
        assert tokens.get(url) == backend.server.token  # kept for the next start
    finally:
        window.close()
        started.bridge.stop()


def test_settings_show_the_connected_server(backend: _Backend, qtbot: QtBot,
                                            tmp_path: Path) -> None:
    from keyring.backends import fail
    from PySide6.QtCore import QTimer

    from composer_app.ui.settings.dialog import SettingsDialog
    from composer_app.ui.settings.settings_logic import load_settings, save_settings

    url = backend.started.url
    save_settings(backend.paths.settings_file, backend.settings)  # the saved default: embedded
    tokens = TokenStore(tmp_path / "config", backend=fail.Keyring())
    tokens.set(url, backend.server.token)
    # a session given --server: the saved default stays embedded
    window = MainWindow(Session(backend.started.bridge, backend.paths, backend.settings, tokens,
                                False, url))
    qtbot.addWidget(window)
    backend.windows.append(window)
    window.show()
    seen: list[str] = []

    def inspect_and_save() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, SettingsDialog)
        seen.append(dialog.connected.text())
        seen.append("embedded" if dialog.embedded.isChecked() else "remote")
        dialog.token.setText("ignored")  # a token for no chosen remote server is not used
        dialog.buttons.accepted.emit()

    QTimer.singleShot(0, inspect_and_save)
    window.open_settings()
    assert seen[0].startswith(f"Connected now: {url} (for this session only")
    assert seen[1] == "embedded"
    assert load_settings(backend.paths.settings_file).server_mode == "embedded"
    assert window.status.currentMessage() == "Settings saved."


def test_a_token_saved_in_settings_is_used_at_once(backend: _Backend, qtbot: QtBot,
                                                   tmp_path: Path) -> None:
    from keyring.backends import fail
    from PySide6.QtCore import QTimer

    from composer_app.ui.settings.dialog import SettingsDialog
    from composer_app.ui.settings.settings_logic import AppSettings

    url = backend.server.url
    started = connect_backend(backend.paths, Connection(False, url), "not-the-token")
    settings = AppSettings(server_mode="remote", server_url=url)
    tokens = TokenStore(tmp_path / "config", backend=fail.Keyring())
    window = MainWindow(Session(started.bridge, backend.paths, settings, tokens, False, url))
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.status.sign_in.isVisible(), timeout=WAIT_MS)

        def type_token() -> None:
            dialog = QApplication.activeModalWidget()
            assert isinstance(dialog, SettingsDialog)
            assert dialog.connected.text() == f"Connected now: {url}."
            dialog.token.setText(backend.server.token)
            dialog.buttons.accepted.emit()

        QTimer.singleShot(0, type_token)
        window.open_settings()
        assert window.status.currentMessage() == "Settings saved. The new token is in use."
        qtbot.waitUntil(lambda: window.status.connection.text() == "Connected", timeout=WAIT_MS)
    finally:
        window.close()
        started.bridge.stop()


def test_a_new_assistant_in_settings_offers_to_reconnect_now(backend: _Backend,
                                                              qtbot: QtBot) -> None:
    from PySide6.QtCore import QTimer

    from composer_app.ui.settings.dialog import SettingsDialog

    window = backend.window(qtbot)
    asked: list[list[str]] = []
    window.ask_reopen = lambda reasons: asked.append(reasons) or False  # type: ignore[method-assign]

    def choose_openai() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, SettingsDialog)
        assert dialog.connected.text() == "Connected now: the embedded server on this computer."
        dialog.openai.setChecked(True)
        dialog.model.setText("llama3.1")
        dialog.buttons.accepted.emit()

    QTimer.singleShot(0, choose_openai)
    window.open_settings()
    assert asked == [["the assistant"]] and not window.reopen_requested
    assert window.status.currentMessage() == (
        "Settings saved. Restart Composer to use the new assistant.")


def test_edit_on_a_failed_bubble_brings_the_message_back_to_the_composer(
        backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    text = "see [notes.txt](t3-context://v1/file/file_att_missing)"
    message_id = backend.started.bridge.engine.send_message(
        window.current_thread, text, [_file_record("att_missing")]).result(WAIT_MS / 1000)
    qtbot.waitUntil(lambda: ("edit", "Edit") in _bubble_line(window, message_id),
                    timeout=WAIT_MS)
    window.transcript.unsent_action.emit(message_id, "edit")
    qtbot.waitUntil(lambda: window.editor.markdown().startswith("see [notes.txt]("),
                    timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.transcript.transcript_model().transcript.row_of(message_id)
                    < 0, timeout=WAIT_MS)
def _focused(window: MainWindow, qtbot: QtBot) -> None:
    """Wait until the composer holds the keyboard focus of the active window."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.editor, timeout=WAIT_MS)


def test_ctrl_n_on_an_empty_thread_focuses_it(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    qtbot.waitUntil(window.feed.shows_empty_thread, timeout=WAIT_MS)
    window.thread_pane.search.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    _focused(window, qtbot)
    with qtbot.waitSignal(backend.started.bridge.request_finished, timeout=WAIT_MS):
        window.navigator.reload_threads()  # a later round trip: no creation was asked
    assert window.current_thread == first
    assert len(window.navigator.threads) == 1
    window.thread_pane.new_button.click()
    with qtbot.waitSignal(backend.started.bridge.request_finished, timeout=WAIT_MS):
        window.navigator.reload_threads()
    assert len(window.navigator.threads) == 1


def test_composer_has_the_focus_when_the_window_opens(backend: _Backend, qtbot: QtBot) -> None:
    backend.window(qtbot).close()  # the first run made a thread; the next start opens it
    window = backend.window(qtbot)
    _focused(window, qtbot)


def test_composer_has_the_focus_after_a_switch_with_the_caret_after_the_draft(
        backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    window.editor.insertPlainText("first draft\nsecond line")
    window.new_thread("Other")
    qtbot.waitUntil(lambda: window.current_thread != first, timeout=WAIT_MS)
    window.thread_pane.search.setFocus()
    window.window_actions.switcher_action.trigger()
    qtbot.keyClicks(window.switcher.query, "New thread")
    qtbot.keyClick(window.switcher.query, Qt.Key.Key_Return)
    assert window.current_thread == first
    _focused(window, qtbot)
    cursor = window.editor.textCursor()
    assert window.editor.markdown() == "first draft\nsecond line"
    assert cursor.atEnd() and not cursor.hasSelection()


def test_arrow_keys_in_the_thread_list_keep_the_focus_there(backend: _Backend,
                                                            qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    first = window.current_thread
    window.new_thread("Other")
    qtbot.waitUntil(lambda: window.current_thread != first, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: len(_titles(window)) == 2, timeout=WAIT_MS)
    other = window.current_thread
    window.activateWindow()
    listed = window.thread_pane.list
    listed.setFocus()
    qtbot.waitUntil(listed.hasFocus, timeout=WAIT_MS)
    # Walk from the top row: until the server's copies of both threads are in, its times can
    # still reorder the list (the first thread on top for a moment). Nothing reorders it between
    # two key presses, so the rows read here are the rows walked.
    top, below = (window.thread_pane.model.thread_at(i) for i in (0, 1))
    assert top is not None and below is not None
    assert {top.thread_id, below.thread_id} == {first, other}
    qtbot.keyClick(listed, Qt.Key.Key_Home)
    assert window.current_thread == top.thread_id and listed.hasFocus()
    qtbot.keyClick(listed, Qt.Key.Key_Down)
    assert window.current_thread == below.thread_id
    assert listed.hasFocus()


def test_ctrl_k_lists_threads_by_recent_activity_with_preview_time_and_current(
        backend: _Backend, qtbot: QtBot) -> None:
    from composer_app.ui.threads.quick_switcher_logic import first_line

    window = backend.window(qtbot)
    alpha = window.current_thread
    window.navigator.rename_thread(alpha, "Alpha")
    beta = window.current_thread
    window.new_thread("Beta")
    qtbot.waitUntil(lambda: window.current_thread != alpha, timeout=WAIT_MS)
    beta = window.current_thread
    window.open_thread(alpha)
    window.editor.insertPlainText("Deploy notes for Friday\nsecond line")
    assert window.editor.request_send()
    engine = backend.started.bridge.engine
    qtbot.waitUntil(lambda: any(m.role == "assistant" and not m.is_streaming
                                for m in engine.messages(alpha).result(10)), timeout=WAIT_MS)
    window.open_thread(beta)
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert window.switcher.isVisible()
    # the cache settles while the switcher is open (the question's echo becomes the server's
    # copy): the preview follows it
    qtbot.waitUntil(lambda: [e.preview for e in window.switcher.entries()][:1]
                    == [first_line(engine.messages(alpha).result(10)[-1].text)],
                    timeout=WAIT_MS)
    entries = window.switcher.entries()
    assert [e.thread_id for e in entries] == [alpha, beta]  # the active one first
    assert [e.current for e in entries] == [False, True]
    assert entries[0].activity and entries[0].preview


def test_an_open_switcher_shows_a_message_sent_while_it_is_open(
        backend: _Backend, qtbot: QtBot) -> None:
    from composer_app.ui.threads.quick_switcher_logic import first_line

    window = backend.window(qtbot)
    thread = window.current_thread
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert window.switcher.isVisible()
    assert [e.preview for e in window.switcher.entries()] == [""]
    window.editor.insertPlainText("Ship it on Monday")
    assert window.editor.request_send()
    engine = backend.started.bridge.engine
    qtbot.waitUntil(lambda: any(m.role == "assistant" and not m.is_streaming
                                for m in engine.messages(thread).result(10)), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: [e.preview for e in window.switcher.entries()]
                    == [first_line(engine.messages(thread).result(10)[-1].text)],
                    timeout=WAIT_MS)  # the answer that came in while it was open
    assert window.switcher.isVisible()


def test_one_sidebar_selection_after_a_ctrl_k_switch(backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    alpha = window.current_thread
    window.new_thread("Beta")
    qtbot.waitUntil(lambda: window.current_thread != alpha, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: len(_titles(window)) == 2, timeout=WAIT_MS)
    window.thread_pane.list.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(window.switcher.query, "New thread")
    qtbot.keyClick(window.switcher.query, Qt.Key.Key_Return)
    assert window.current_thread == alpha
    view = window.thread_pane.list
    selected = view.selectionModel().selectedIndexes()
    assert [i.row() for i in selected] == [window.thread_pane.model.row_of(alpha)]
    assert view.currentIndex().row() == selected[0].row()  # no second, focus-only highlight


def test_long_titles_elide_with_the_time_visible_and_no_sideways_scrolling(
        backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    long_title = "A very long thread title about the quarterly planning of everything " * 3
    window.navigator.rename_thread(window.current_thread, long_title.strip())
    qtbot.waitUntil(lambda: _titles(window)[0].startswith("A very long"), timeout=WAIT_MS)
    window.splitter.setSizes([180, 900])
    qtbot.wait(50)
    view = window.thread_pane.list
    assert not view.horizontalScrollBar().isVisible()
    assert view.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    index = window.thread_pane.model.index(0)
    qtbot.waitUntil(lambda: view.visualRect(index).right() <= view.viewport().width(),
                    timeout=2000)  # the row (and the time drawn at its right) fits the pane


def test_edit_menu_has_the_standard_commands_acting_on_the_focused_widget(
        backend: _Backend, qtbot: QtBot) -> None:
    from PySide6.QtGui import QKeySequence

    window = backend.window(qtbot)
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    names = [a.objectName() for a in edit.actions() if a.objectName().startswith("edit:")]
    assert names == ["edit:undo", "edit:redo", "edit:cut", "edit:copy", "edit:paste",
                     "edit:selectAll"]
    actions = window.window_actions.edit_commands.actions
    assert actions["copy"].shortcut() == QKeySequence(QKeySequence.StandardKey.Copy)
    assert actions["selectAll"].shortcut() == QKeySequence(QKeySequence.StandardKey.SelectAll)
    window.activateWindow()
    search = window.thread_pane.search
    search.setFocus()
    qtbot.waitUntil(search.hasFocus, timeout=WAIT_MS)
    search.setText("budget")
    actions["selectAll"].trigger()
    assert search.selectedText() == "budget"
    actions["cut"].trigger()
    assert search.text() == "" and QApplication.clipboard().text() == "budget"
    actions["undo"].trigger()
    assert search.text() == "budget"
    window.editor.setFocus()
    qtbot.waitUntil(window.editor.hasFocus, timeout=WAIT_MS)
    actions["paste"].trigger()
    assert window.editor.markdown() == "budget"
    qtbot.keyClick(window.editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert window.editor.textCursor().selectedText() == "budget"  # the key, in the editor


def test_help_about_names_the_folders_and_open_log_folder_opens_it(
        backend: _Backend, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    from composer_app.ui.window import main_window as module

    window = backend.window(qtbot)
    text = window.about_text()
    paths = backend.paths
    for folder in (paths.data_dir, paths.config_dir, paths.cache_dir, paths.log_dir):
        assert str(folder) in text
    opened: list[str] = []
    monkeypatch.setattr(module, "open_url_externally", lambda url: opened.append(url) or True)
    window.window_actions.log_folder_action.trigger()
    assert opened == [paths.log_dir.as_uri()]
    assert paths.log_dir.is_dir()
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert window.window_actions.log_folder_action in help_menu.actions()


def test_thread_share_opens_the_share_dialog_on_the_engine(backend: _Backend,
                                                          qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    thread = window.current_thread
    window.navigator.rename_thread(thread, "Budget")
    qtbot.waitUntil(lambda: _titles(window) == ["Budget"], timeout=WAIT_MS)
    thread_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Thread")
    assert window.window_actions.share_action in thread_menu.actions()
    window.window_actions.share_action.trigger()
    dialog = window.share_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.thread_id == thread and dialog.windowTitle() == "Share \u201cBudget\u201d"
    assert dialog.service is backend.started.bridge.engine
    qtbot.waitUntil(lambda: not dialog.state.busy and not dialog.state.error, timeout=WAIT_MS)
    dialog.create_button.click()  # a link from the running server
    qtbot.waitUntil(lambda: "/s/" in dialog.link_field.text(), timeout=WAIT_MS)
    dialog.close()
    window.window_actions.share_action.trigger()  # the thread's dialog again
    assert window.share_dialog is dialog and dialog.isVisible()
    dialog.close()


def test_sources_panel_downloads_through_the_engine(backend: _Backend, qtbot: QtBot) -> None:
    from composer_app.ui.transcript.source_download import SourceDownloader

    window = backend.window(qtbot)
    downloader = window.sources_dock.panel.downloader
    assert isinstance(downloader, SourceDownloader)
    # through the open thread's server's engine at the time of the download
    assert downloader.service is window.accounts_bridge
    assert window.accounts_bridge.engine is backend.started.bridge.engine


def test_ctrl_f_finds_message_text_and_opens_the_thread_at_that_message(
        backend: _Backend, qtbot: QtBot) -> None:
    window = backend.window(qtbot)
    alpha = window.current_thread
    window.navigator.rename_thread(alpha, "Alpha")
    engine = backend.started.bridge.engine
    for n in range(12):
        word = "quokka migration" if n == 3 else f"filler number {n}"
        engine.send_message(alpha, f"Note {n}: {word}\n\nmore text here", [], []).result(10)
    qtbot.waitUntil(lambda: len([m for m in engine.messages(alpha).result(10)
                                 if m.role == "assistant" and not m.is_streaming]) == 12,
                    timeout=WAIT_MS * 3)
    window.new_thread("Beta")
    qtbot.waitUntil(lambda: window.current_thread != alpha, timeout=WAIT_MS)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(window.thread_pane.search, "quokka")
    pane = window.thread_pane
    qtbot.waitUntil(lambda: pane.message_hits.isVisible() and bool(pane.message_hit_ids()),
                    timeout=WAIT_MS)
    target = next(m.message_id for m in engine.messages(alpha).result(10)
                  if "quokka" in m.text and m.role == "user")
    assert pane.message_hit_ids()[0] == (alpha, target)
    item = pane.message_hits.item(0)
    assert item.text().startswith("Alpha\n") and "quokka" in item.text()
    assert pane.model.rowCount() == 0  # no title matches: the messages answer
    pane.message_hits.itemActivated.emit(item)
    qtbot.waitUntil(lambda: window.current_thread == alpha, timeout=WAIT_MS)
    view = window.transcript
    qtbot.waitUntil(lambda: view.currentIndex().isValid()
                    and view.messages[view.currentIndex().row()].message_id == target,
                    timeout=WAIT_MS)
    rect = view.visualRect(view.currentIndex())
    assert view.viewport().rect().intersects(rect)
    assert not view.following  # the reader is at the hit, not pulled to the bottom
