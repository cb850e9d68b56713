"""Several servers in one window, with two real servers on loopback: grouped threads, Ctrl+digit,
new threads on the open thread's server, chips copied on one server pasted with their files into
another, one server going away while the other works, and signing out of one."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from keyring.backends import fail
from PySide6.QtGui import QGuiApplication, QKeySequence
from pytestqt.qtbot import QtBot

from composer_app.core.contracts.messages import decode_message_context
from composer_app.core.document.model import RecordState
from composer_app.server.embedded import EmbeddedServer, start_embedded
from composer_app.sync.accounts import EMBEDDED_ID, Account, AccountBook
from composer_app.sync.secrets import TokenStore
from composer_app.sync.store import ClientStore
from composer_app.ui.account_engines import AccountEngines
from composer_app.ui.backend import Started, connect_backend
from composer_app.ui.session import Session
from composer_app.ui.settings.settings_logic import AppSettings, Connection, app_paths
from composer_app.ui.threads.server_groups_logic import GroupHeader
from composer_app.ui.threads.thread_list_model import HeaderRole
from composer_app.ui.window.main_window import MainWindow

WAIT_MS = 30_000
WAIT_S = WAIT_MS / 1000


class TwoServers:
    """Server A (the app's embedded account) and server B (a remote account named Team), each on
    loopback with its own data, and windows of the app on both."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.paths = app_paths(root / "app")
        self.a = start_embedded(root / "a-server")
        self.b = start_embedded(root / "b-server")
        self.tokens = TokenStore(self.paths.config_dir, backend=fail.Keyring())
        book = AccountBook.load(self.paths.config_dir)
        self.team: Account = book.add(self.b.url, "Team")
        self.tokens.set(self.b.url, self.b.token)
        self.started: Started | None = None
        self.window: MainWindow | None = None

    def open(self, qtbot: QtBot) -> MainWindow:
        """The app's window: A's engine first, B's connected the way a saved server is."""
        book = AccountBook.load(self.paths.config_dir)
        started = connect_backend(self.paths, Connection(True, self.a.url), self.a.token)
        engines = AccountEngines(self.paths)
        started.engines = engines
        self.started = started
        session = Session(started.bridge, self.paths, AppSettings(), self.tokens, True,
                          self.a.url, token=self.a.token, book=book, engines=engines)
        window = MainWindow(session)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.servers.start_saved(self.team, self.b.url, self.b.token)
        self.window = window
        qtbot.waitUntil(lambda: window.current_thread != "" and all(
            window.accounts_bridge.state_of(a)[0] == "connected"
            for a in (EMBEDDED_ID, self.team.account_id)), timeout=WAIT_MS)
        return window

    def close_window(self) -> None:
        if self.window is not None:
            self.window.shutdown()
            self.window = None
        if self.started is not None:
            self.started.stop()
            self.started = None

    def restart_server(self, which: str) -> None:
        """Stop a server and start it again on its data folder and port."""
        server: EmbeddedServer = getattr(self, which)
        port = int(server.url.rsplit(":", 1)[1])
        server.stop()
        setattr(self, which, start_embedded(self.root / f"{which}-server", port=port))

    def close(self) -> None:
        self.close_window()
        for server in (self.a, self.b):
            server.stop()


@pytest.fixture
def two(tmp_path: Path) -> Iterator[TwoServers]:
    servers = TwoServers(tmp_path)
    try:
        yield servers
    finally:
        servers.close()


def headers(window: MainWindow) -> list[GroupHeader]:
    model = window.thread_pane.model
    return [h for i in range(model.rowCount())
            if isinstance(h := model.index(i).data(HeaderRole), GroupHeader)]


def new_thread_on(window: MainWindow, qtbot: QtBot, account_id: str, title: str) -> str:
    before = window.current_thread
    window.new_thread(title)
    qtbot.waitUntil(lambda: window.current_thread not in ("", before), timeout=WAIT_MS)
    thread = window.current_thread
    qtbot.waitUntil(lambda: window.navigator.account_of(thread) == account_id
                    and window.thread_pane.model.row_of(thread) >= 0, timeout=WAIT_MS)
    return thread


def server_threads(server: EmbeddedServer) -> list[str]:
    reply = httpx.get(f"{server.url}/api/threads", timeout=10,
                      headers={"Authorization": f"Bearer {server.token}"})
    reply.raise_for_status()
    return [t["threadId"] for t in reply.json()["threads"]]


def user_messages(window: MainWindow, account_id: str, thread: str) -> list[Any]:
    bridge = window.accounts_bridge.bridge_of(account_id)
    assert bridge is not None
    rows = bridge.engine.messages(thread).result(10)
    return [r for r in rows if r.role == "user" and r.local_state is None]


def copy_all(qtbot: QtBot, window: MainWindow) -> None:
    editor = window.editor
    editor.setFocus()
    editor.selectAll()
    with qtbot.waitSignal(QGuiApplication.clipboard().dataChanged, timeout=WAIT_MS):
        qtbot.keySequence(editor, QKeySequence.StandardKey.Copy)


def test_threads_are_grouped_by_server_and_new_threads_go_to_the_open_threads_server(
        two: TwoServers, qtbot: QtBot) -> None:
    window = two.open(qtbot)
    qtbot.waitUntil(lambda: [h.name for h in headers(window)] == ["This computer", "Team"],
                    timeout=WAIT_MS)
    assert all(h.state == "connected" for h in headers(window))
    first = window.current_thread
    assert window.navigator.account_of(first) == EMBEDDED_ID
    window.servers.jump_actions[1].trigger()  # Ctrl+2: Team has no thread yet
    assert window.accounts_bridge.active_account == two.team.account_id
    on_team = new_thread_on(window, qtbot, two.team.account_id, "On the team server")
    assert on_team in server_threads(two.b) and on_team not in server_threads(two.a)
    window.servers.jump_actions[0].trigger()  # Ctrl+1: back to this computer's last thread
    assert window.current_thread == first
    assert window.accounts_bridge.active_account == EMBEDDED_ID
    here = new_thread_on(window, qtbot, EMBEDDED_ID, "On this computer")
    assert here in server_threads(two.a) and here not in server_threads(two.b)
    window.open_thread(on_team)  # opening a thread makes its server the active one
    assert window.accounts_bridge.active_account == two.team.account_id
    # Ctrl+K lists the threads of both servers, each with its server's name
    window.navigator.open_switcher()
    servers = {e.thread_id: e.server for e in window.switcher.entries()}
    assert servers[on_team] == "Team" and servers[here] == "This computer"
    window.switcher.hide()
    # a collapsed server shows its header only
    window.thread_pane.set_collapsed(EMBEDDED_ID, True)
    assert window.thread_pane.model.row_of(here) == -1
    assert window.thread_pane.model.row_of(on_team) >= 0
    window.thread_pane.set_collapsed(EMBEDDED_ID, False)
    assert window.thread_pane.model.row_of(here) >= 0


def test_chips_copied_on_one_server_paste_with_their_files_into_another(
        two: TwoServers, qtbot: QtBot, tmp_path: Path) -> None:
    window = two.open(qtbot)
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"release checklist\n" * 300)
    digest = hashlib.sha256(notes.read_bytes()).hexdigest()
    window.editor.insertPlainText("see ")
    [record] = window.editor.attach_paths([str(notes)])
    qtbot.waitUntil(lambda: window.uploads.export_record(record).attachment_id.startswith(
        "att_"), timeout=WAIT_MS)
    copy_all(qtbot, window)
    window.servers.jump_actions[1].trigger()
    on_team = new_thread_on(window, qtbot, two.team.account_id, "Pasted here")
    window.editor.setFocus()
    qtbot.keySequence(window.editor, QKeySequence.StandardKey.Paste)
    [pasted] = [r for r in window.editor.draft.records.values() if r.kind == "file"]
    assert pasted.attachment_id != record.attachment_id
    qtbot.waitUntil(lambda: window.editor.draft.state_of(pasted.context_id)
                    is RecordState.RESOLVED, timeout=WAIT_MS)
    assert window.editor.request_send()
    qtbot.waitUntil(lambda: bool(user_messages(window, two.team.account_id, on_team)),
                    timeout=WAIT_MS)
    [sent] = user_messages(window, two.team.account_id, on_team)
    [context_record] = decode_message_context(sent.context).records
    b_attachment = context_record.attachment_id
    assert b_attachment.startswith("att_")
    stored = _download(two.b, b_attachment)
    assert hashlib.sha256(stored).hexdigest() == digest  # server B holds the file itself
    # restart everything: both servers, the engines and the window
    two.close_window()
    two.restart_server("a")
    two.restart_server("b")
    window = two.open(qtbot)
    qtbot.waitUntil(lambda: window.navigator.account_of(on_team) == two.team.account_id,
                    timeout=WAIT_MS)
    [again] = user_messages(window, two.team.account_id, on_team)
    [again_record] = decode_message_context(again.context).records
    assert again_record.attachment_id == b_attachment
    assert hashlib.sha256(_download(two.b, b_attachment)).hexdigest() == digest


def _download(server: EmbeddedServer, attachment_id: str) -> bytes:
    auth = {"Authorization": f"Bearer {server.token}"}
    reply = httpx.post(f"{server.url}/api/assets/url", timeout=10, headers=auth,
                       json={"attachmentId": attachment_id, "disposition": "attachment"})
    reply.raise_for_status()
    url = reply.json()["url"]
    url = url if "://" in url else server.url + "/" + url.lstrip("/")
    body = httpx.get(url, timeout=10)
    body.raise_for_status()
    return body.content


def test_a_paste_from_a_server_that_went_away_is_unresolved_with_a_reason(
        two: TwoServers, qtbot: QtBot, tmp_path: Path) -> None:
    window = two.open(qtbot)
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"x" * 500)
    window.editor.insertPlainText("see ")
    [record] = window.editor.attach_paths([str(notes)])
    qtbot.waitUntil(lambda: window.uploads.export_record(record).attachment_id.startswith(
        "att_"), timeout=WAIT_MS)
    copy_all(qtbot, window)
    window.servers.jump_actions[1].trigger()
    new_thread_on(window, qtbot, two.team.account_id, "Pasted here")
    two.a.stop()  # server A is gone: its bytes cannot be fetched
    window.editor.setFocus()
    qtbot.keySequence(window.editor, QKeySequence.StandardKey.Paste)
    [pasted] = [r for r in window.editor.draft.records.values() if r.kind == "file"]
    qtbot.waitUntil(lambda: window.editor.draft.state_of(pasted.context_id)
                    is RecordState.UNRESOLVED, timeout=WAIT_MS)
    assert any(title == "Couldn't bring notes.txt into this message" and reason
               for title, reason in window.composer_area.notices.history)  # never silent


def test_one_server_killed_while_the_other_keeps_working(two: TwoServers,
                                                        qtbot: QtBot) -> None:
    window = two.open(qtbot)
    here = window.current_thread
    two.b.stop()
    qtbot.waitUntil(lambda: window.accounts_bridge.state_of(two.team.account_id)[0]
                    != "connected", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: [h.state for h in headers(window)][1] != "connected",
                    timeout=WAIT_MS)
    window.open_thread(here)
    window.editor.insertPlainText("still working here")
    assert window.editor.request_send()
    qtbot.waitUntil(lambda: bool(user_messages(window, EMBEDDED_ID, here)), timeout=WAIT_MS)
    assert window.accounts_bridge.state_of(EMBEDDED_ID)[0] == "connected"


def test_sign_out_of_one_server_keeps_its_outbox_and_the_other_going(
        two: TwoServers, qtbot: QtBot) -> None:
    window = two.open(qtbot)
    here = window.current_thread
    window.servers.jump_actions[1].trigger()
    on_team = new_thread_on(window, qtbot, two.team.account_id, "Team notes")
    qtbot.waitUntil(lambda: on_team in server_threads(two.b), timeout=WAIT_MS)
    two.b.stop()
    qtbot.waitUntil(lambda: window.accounts_bridge.state_of(two.team.account_id)[0]
                    != "connected", timeout=WAIT_MS)
    window.editor.insertPlainText("queued for the team")
    assert window.editor.request_send()
    team_dir = two.paths.client_dir(two.team.url)
    qtbot.waitUntil(lambda: window.pending_sends == 0, timeout=WAIT_MS)
    window.servers.sign_out(two.team.account_id)
    assert window.accounts_bridge.account_ids() == [EMBEDDED_ID]
    assert window.accounts_bridge.active_account == EMBEDDED_ID
    qtbot.waitUntil(lambda: window.thread_pane.model.row_of(on_team) == -1, timeout=WAIT_MS)
    store = ClientStore(team_dir / "client.sqlite3")
    try:
        assert [r.thread_id for r in store.outbox()] == [on_team]
    finally:
        store.close()
    # this computer's server goes on
    window.open_thread(here)
    window.editor.insertPlainText("and here")
    assert window.editor.request_send()
    qtbot.waitUntil(lambda: bool(user_messages(window, EMBEDDED_ID, here)), timeout=WAIT_MS)
    # signing in again delivers what was kept
    two.restart_server("b")
    window.servers.sign_in(two.team.account_id, two.b.token)
    qtbot.waitUntil(lambda: bool(user_messages(window, two.team.account_id, on_team)),
                    timeout=WAIT_MS)


def test_settings_show_a_live_page_per_server_and_add_server_names_the_token_command(
        two: TwoServers, qtbot: QtBot) -> None:
    from composer_app.ui.settings.server_pages import ServerPages
    from composer_app.ui.window.server_accounts import AddServerDialog

    window = two.open(qtbot)
    pages = ServerPages(window.servers)
    qtbot.addWidget(pages)
    assert [(p.name, p.status) for p in pages.pages()] == [
        ("This computer", "Connected now."), ("Team", "Connected now.")]
    pages.select(two.team.account_id)
    assert pages.sign_out.isVisibleTo(pages) and not pages.sign_in.isVisibleTo(pages)
    window.servers.sign_out(two.team.account_id)
    team_page = pages.pages()[1]
    assert team_page.status.startswith("Signed out") and team_page.can_sign_in
    assert pages.sign_in.isVisibleTo(pages) and not pages.sign_out.isVisibleTo(pages)
    pages.name.setText("Team (work)")
    pages.name.editingFinished.emit()
    renamed = window.servers.book.get(two.team.account_id)
    saved = AccountBook.load(two.paths.config_dir).get(two.team.account_id)
    assert renamed is not None and renamed.name == "Team (work)"
    assert saved is not None and saved.name == "Team (work)"
    dialog = AddServerDialog(window)
    qtbot.addWidget(dialog)
    assert "composer-server create-token" in dialog.hint.text()
    assert dialog.problem().startswith("Enter the server address")
    dialog.url.setText("https://example.org")
    assert dialog.problem().startswith("Enter the token")
    dialog.token.setText("secret")
    assert dialog.problem() == ""


def test_sign_out_of_one_server_keeps_the_other_servers_outbox(two: TwoServers,
                                                               qtbot: QtBot) -> None:
    window = two.open(qtbot)
    here = window.current_thread
    qtbot.waitUntil(lambda: here in server_threads(two.a), timeout=WAIT_MS)
    two.a.stop()  # this computer's messages wait in its outbox
    qtbot.waitUntil(lambda: window.accounts_bridge.state_of(EMBEDDED_ID)[0] != "connected",
                    timeout=WAIT_MS)
    window.editor.insertPlainText("waiting for this computer's server")
    assert window.editor.request_send()
    qtbot.waitUntil(lambda: window.pending_sends == 0, timeout=WAIT_MS)
    window.servers.sign_out(two.team.account_id)
    assert window.accounts_bridge.account_ids() == [EMBEDDED_ID]
    home = window.accounts_bridge.bridge_of(EMBEDDED_ID)
    assert home is not None
    assert [r.thread_id for r in home.engine.outbox_items().result(10)] == [here]
    two.restart_server("a")
    qtbot.waitUntil(lambda: bool(user_messages(window, EMBEDDED_ID, here)), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: home.engine.outbox_items().result(10) == [], timeout=WAIT_MS)


def test_the_unsent_count_and_dialog_cover_every_server_and_name_it(
        two: TwoServers, qtbot: QtBot) -> None:
    window = two.open(qtbot)
    here = window.current_thread
    window.servers.jump_actions[1].trigger()
    on_team = new_thread_on(window, qtbot, two.team.account_id, "Team notes")
    qtbot.waitUntil(lambda: on_team in server_threads(two.b), timeout=WAIT_MS)
    two.b.stop()
    qtbot.waitUntil(lambda: window.accounts_bridge.state_of(two.team.account_id)[0]
                    != "connected", timeout=WAIT_MS)
    window.editor.insertPlainText("queued for the team")
    assert window.editor.request_send()
    qtbot.waitUntil(lambda: window.pending_sends == 0, timeout=WAIT_MS)
    window.open_thread(here)  # this computer's thread: Team's message still counts, named
    assert window.accounts_bridge.active_account == EMBEDDED_ID
    unsent = window.status.unsent
    qtbot.waitUntil(lambda: unsent.text() == "1 unsent on Team", timeout=WAIT_MS)
    assert "Team: 1 unsent" in unsent.toolTip()
    assert window.status.connection.text().startswith("This computer: ")  # whose it is
    assert window.window_actions.unsent_action.isEnabled()
    window.connection.open_unsent()
    dialog = window.unsent_dialog
    assert dialog.items.count() == 1
    assert dialog.items.item(0).text().startswith("Team · Team notes")
    # Delete in the dialog goes to Team's outbox although this computer's thread is open
    dialog.delete_button.click()
    team = window.accounts_bridge.bridge_of(two.team.account_id)
    assert team is not None
    qtbot.waitUntil(lambda: team.engine.outbox_items().result(10) == [], timeout=WAIT_MS)
    qtbot.waitUntil(lambda: not unsent.isVisibleTo(window.status), timeout=WAIT_MS)
    dialog.close()



def test_sign_in_again_from_the_status_bar_gives_pastes_from_that_server_the_new_token(
        two: TwoServers, qtbot: QtBot, tmp_path: Path) -> None:
    from tests.server.live import cli, data_args

    window = two.open(qtbot)
    window.servers.jump_actions[1].trigger()  # a file attached in a thread of Team
    new_thread_on(window, qtbot, two.team.account_id, "Team notes")
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"team checklist\n" * 200)
    window.editor.insertPlainText("see ")
    [record] = window.editor.attach_paths([str(notes)])
    qtbot.waitUntil(lambda: window.uploads.export_record(record).attachment_id.startswith(
        "att_"), timeout=WAIT_MS)
    copy_all(qtbot, window)
    # Team's token is revoked; a new one is made on its server
    server_args = data_args(two.root / "b-server")
    new_token = cli("create-token", "--user", "local", "--name", "laptop", *server_args)
    cli("revoke-token", "--user", "local", "--name", "desktop", *server_args)
    window.accounts_bridge.retry_now()
    qtbot.waitUntil(lambda: window.status.sign_in.isVisibleTo(window.status), timeout=WAIT_MS)
    window.connection.ask_token = lambda _where: new_token
    window.status.sign_in.click()
    qtbot.waitUntil(lambda: window.accounts_bridge.state_of(two.team.account_id)[0]
                    == "connected", timeout=WAIT_MS)
    run = window.servers.engines.run(two.team.account_id)
    assert run is not None and run.token == new_token
    # pasted into this computer's thread, the file comes from Team with the new token
    window.servers.jump_actions[0].trigger()
    window.editor.setFocus()
    qtbot.keySequence(window.editor, QKeySequence.StandardKey.Paste)
    [pasted] = [r for r in window.editor.draft.records.values() if r.kind == "file"]
    qtbot.waitUntil(lambda: window.editor.draft.state_of(pasted.context_id)
                    is RecordState.RESOLVED, timeout=WAIT_MS)


def test_settings_choose_the_server_composer_opens_on_and_the_file_agrees(
        two: TwoServers, qtbot: QtBot) -> None:
    from composer_app.ui.settings.dialog import SettingsDialog
    from composer_app.ui.settings.server_pages import ServerPages
    from composer_app.ui.settings.settings_logic import load_settings

    window = two.open(qtbot)
    book = window.servers.book
    assert book.start_account == two.team.account_id  # the fixture's book.add chose it
    window.servers.set_start_server(EMBEDDED_ID)
    dialog = SettingsDialog(window.session.settings, window)
    qtbot.addWidget(dialog)
    pages = ServerPages(window.servers, dialog)
    dialog.add_servers_page(pages)
    assert not dialog.server_box.isVisibleTo(dialog)  # no second, contradicting server choice
    assert [p.opens_at_start for p in pages.pages()] == [True, False]
    pages.select(two.team.account_id)
    assert not pages.opens_at_start.isChecked()
    pages.opens_at_start.click()
    assert book.start_account == two.team.account_id
    assert AccountBook.load(two.paths.config_dir).start_account == two.team.account_id
    saved = load_settings(two.paths.settings_file)
    assert (saved.server_mode, saved.server_url) == ("remote", two.b.url)
    assert [p.opens_at_start for p in pages.pages()] == [False, True]
    # adding a server does not change where Composer opens
    window.servers.add_server(two.a.url.replace("127.0.0.1", "localhost"), "token", "Other")
    assert book.start_account == two.team.account_id
    # removing the start server: Composer opens on this computer, and the file says so
    window.servers.remove(two.team.account_id)
    assert book.start_account == EMBEDDED_ID
    assert load_settings(two.paths.settings_file).server_mode == "embedded"


def test_unread_counts_and_the_last_open_thread_come_back_after_a_restart(
        two: TwoServers, qtbot: QtBot) -> None:
    window = two.open(qtbot)
    here = window.current_thread
    window.servers.jump_actions[1].trigger()
    on_team = new_thread_on(window, qtbot, two.team.account_id, "Team notes")
    window.open_thread(here)  # this computer's thread is open; a message arrives on Team's
    team = window.accounts_bridge.bridge_of(two.team.account_id)
    assert team is not None
    team.engine.send_message(on_team, "from another device", None, []).result(10)
    qtbot.waitUntil(lambda: [h.unread for h in headers(window)] == [0, 1], timeout=WAIT_MS)
    two.close_window()
    window = two.open(qtbot)
    qtbot.waitUntil(lambda: [h.unread for h in headers(window)] == [0, 1], timeout=WAIT_MS)
    assert window.navigator.unread.is_unread(on_team)
    # Team's thread is the open one when the app quits: it opens again, although Team
    # connects after the window is shown
    window.open_thread(on_team)
    assert not window.navigator.unread.is_unread(on_team)
    two.close_window()
    window = two.open(qtbot)
    qtbot.waitUntil(lambda: window.current_thread == on_team, timeout=WAIT_MS)
    assert window.accounts_bridge.active_account == two.team.account_id
    assert [h.unread for h in headers(window)] == [0, 0]


def test_a_message_that_arrived_while_the_app_was_closed_is_unread_at_the_next_start(
        two: TwoServers, qtbot: QtBot, tmp_path: Path) -> None:
    from composer_app.sync.engine import SyncEngine

    window = two.open(qtbot)
    here = window.current_thread
    window.servers.jump_actions[1].trigger()
    on_team = new_thread_on(window, qtbot, two.team.account_id, "Team notes")
    window.open_thread(here)
    assert [h.unread for h in headers(window)] == [0, 0]  # creating it was no news
    two.close_window()
    # while the app is closed, another device writes in Team's thread
    other = SyncEngine(two.b.url, two.b.token, tmp_path / "other-device")
    other.start()
    try:
        other.send_message(on_team, "while you were away", None, []).result(10)
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and any(
                m.local_state for m in other.messages(on_team).result(10)):
            time.sleep(0.05)
        assert [m.local_state for m in other.messages(on_team).result(10)][:1] == [None]
    finally:
        other.stop()
    window = two.open(qtbot)
    qtbot.waitUntil(lambda: [h.unread for h in headers(window)] == [0, 1], timeout=WAIT_MS)
    assert window.navigator.unread.is_unread(on_team)
    assert window.current_thread == here
    window.open_thread(on_team)
    assert [h.unread for h in headers(window)] == [0, 0]
    two.close_window()
    window = two.open(qtbot)  # read once: not unread again
    qtbot.waitUntil(lambda: window.navigator.thread_row(on_team) is not None, timeout=WAIT_MS)
    assert [h.unread for h in headers(window)] == [0, 0]
