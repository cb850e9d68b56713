"""The app entry: arguments, identity, the embedded server with the local provider, shutdown."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from composer_app import __version__
from composer_app.ui.app import build_parser
from composer_app.ui.backend import Started
from composer_app.ui.settings.settings_logic import app_paths

ROOT = Path(__file__).resolve().parents[2]


def test_arguments() -> None:
    args = build_parser().parse_args(["--server", "https://c.example", "--token", "t",
                                      "--data-dir", "/tmp/x", "--self-test"])
    assert (args.server, args.token, args.data_dir, args.self_test) == (
        "https://c.example", "t", Path("/tmp/x"), True)
    assert build_parser().parse_args([]).server is None


def test_version_through_python_dash_m() -> None:
    out = subprocess.run([sys.executable, "-m", "composer_app", "--version"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == f"composer-app {__version__}"


@pytest.mark.skipif(os.name != "posix", reason="signals and offscreen Qt on POSIX")
def test_remote_server_without_token_fails_with_a_reason(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    code = ("import sys\nimport composer_app.ui.app as a\na.ask_token = lambda url: None\n"
            "a.offer_embedded = lambda url: False\n"
            "sys.exit(a.main(['--server', 'http://127.0.0.1:9', '--data-dir', sys.argv[1]]))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "no token for http://127.0.0.1:9" in out.stderr


@pytest.mark.skipif(os.name != "posix", reason="offscreen Qt on POSIX")
def test_cancelled_sign_in_offers_the_embedded_server(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    code = (
        "import sys\n"
        "import composer_app.ui.app as a\n"
        "import composer_app.ui.window.main_window as mw\n"
        "from PySide6.QtCore import QTimer\n"
        "from PySide6.QtWidgets import QApplication\n"
        "offered = []\n"
        "a.ask_token = lambda url: None\n"
        "a.offer_embedded = lambda url: offered.append(url) or True\n"
        "show = mw.MainWindow.show\n"
        "def patched(self):\n"
        "    show(self)\n"
        "    def poll():\n"
        "        if self.status.connection.text() == 'Embedded server':\n"
        "            print('STATUS', offered, self.session.embedded, flush=True)\n"
        "            QApplication.instance().quit()\n"
        "        else:\n"
        "            QTimer.singleShot(20, poll)\n"
        "    poll()\n"
        "mw.MainWindow.show = patched\n"
        "sys.exit(a.main(['--server', 'http://127.0.0.1:9', '--data-dir', sys.argv[1]]))\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=90)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "STATUS ['http://127.0.0.1:9'] True"


def test_a_new_server_in_settings_applies_without_a_restart(tmp_path: Path) -> None:
    from composer_app.server.embedded import start_embedded

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    code = (
        "import sys\n"
        "import composer_app.ui.window.main_window as mw\n"
        "from PySide6.QtCore import QTimer\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from composer_app.ui.settings.settings_logic import AppSettings, save_settings\n"
        "import time\n"
        "url, token = sys.argv[1], sys.argv[2]\n"
        "show = mw.MainWindow.show\n"
        "start, trail = time.monotonic(), []\n"
        "def patched(self):\n"
        "    show(self)\n"
        "    def poll():\n"
        "        text = self.status.connection.text()\n"
        "        if not trail or trail[-1] != text:\n"
        "            trail.append(text)\n"
        "        if time.monotonic() - start > 60:  # say what the status showed, then stop\n"
        "            print('status shown:', trail, file=sys.stderr, flush=True)\n"
        "            QApplication.instance().exit(1)\n"
        "        elif text == 'Embedded server':\n"
        "            print('FIRST', self.session.embedded, flush=True)\n"
        "            settings = AppSettings(server_mode='remote', server_url=url)\n"
        "            save_settings(self.session.paths.settings_file, settings)\n"
        "            self.session.settings = settings\n"
        "            self.session.tokens.set(url, token)\n"
        "            self.request_reopen()\n"
        "        elif text.split(': ')[-1] == 'Connected':  # named when several servers\n"
        "            print('SECOND', self.session.embedded, self.session.server_url == url,\n"
        "                  flush=True)\n"
        "            QApplication.instance().quit()\n"
        "        else:\n"
        "            QTimer.singleShot(20, poll)\n"
        "    poll()\n"
        "mw.MainWindow.show = patched\n"
        "from composer_app.ui.app import main\n"
        "sys.exit(main(sys.argv[3:]))\n")
    with start_embedded(tmp_path / "server") as server:
        out = subprocess.run(
            [sys.executable, "-c", code, server.url, server.token,
             "--data-dir", str(tmp_path / "client")],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=90)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["FIRST", "True", "SECOND", "False", "True"], out.stderr


@pytest.mark.skipif(os.name != "posix", reason="signals and offscreen Qt on POSIX")
def test_a_crashed_embedded_server_is_restarted_and_the_window_reconnects(tmp_path: Path
                                                                          ) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    code = (
        "import os, signal, sys, time\n"
        "import composer_app.ui.app as a\n"
        "import composer_app.ui.window.main_window as mw\n"
        "from PySide6.QtCore import QTimer\n"
        "from PySide6.QtWidgets import QApplication\n"
        "servers, said, trail = [], [], []\n"
        "watch = a.watch_embedded\n"
        "def watching(server, window):\n"
        "    servers.append(server)\n"
        "    window.servers.status_message.connect(said.append)\n"
        "    watch(server, window)\n"
        "a.watch_embedded = watching\n"
        "show = mw.MainWindow.show\n"
        "start, killed = time.monotonic(), []\n"
        "def patched(self):\n"
        "    show(self)\n"
        "    def poll():\n"
        "        text = self.status.connection.text()\n"
        "        if not trail or trail[-1] != text:\n"
        "            trail.append(text)\n"
        "        if time.monotonic() - start > 80:\n"
        "            print('status shown:', trail, said, file=sys.stderr, flush=True)\n"
        "            QApplication.instance().exit(1)\n"
        "            return\n"
        "        if text == 'Embedded server' and not killed:\n"
        "            killed.append(servers[0].pid)\n"
        "            os.kill(servers[0].pid, signal.SIGKILL)\n"
        "        elif (killed and text == 'Embedded server' and len(trail) > 2\n"
        "              and 'The embedded server was restarted.' in said):\n"
        "            print('BACK', servers[0].pid != killed[0], said[0].split(' (')[0],\n"
        "                  flush=True)\n"
        "            QApplication.instance().quit()\n"
        "            return\n"
        "        QTimer.singleShot(20, poll)\n"
        "    poll()\n"
        "mw.MainWindow.show = patched\n"
        "sys.exit(a.main(['--data-dir', sys.argv[1]]))\n")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["BACK", "True", "The", "embedded", "server", "stopped",
                                  "unexpectedly"], out.stderr


def test_server_argument_connects_to_a_remote_server(tmp_path: Path) -> None:
    from composer_app.server.embedded import start_embedded

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    code = (
        "import sys\n"
        "import composer_app.ui.window.main_window as mw\n"
        "from PySide6.QtCore import QTimer\n"
        "from PySide6.QtWidgets import QApplication\n"
        "show = mw.MainWindow.show\n"
        "def patched(self):\n"
        "    show(self)\n"
        "    def poll():\n"
        "        if self.status.connection.text().split(': ')[-1] == 'Connected':\n"
        "            print('STATUS', self.status.connection.text().split(': ')[-1],\n"
        "                  self.session.embedded,\n"
        "                  flush=True)\n"
        "            QApplication.instance().quit()\n"
        "        else:\n"
        "            QTimer.singleShot(20, poll)\n"
        "    poll()\n"
        "mw.MainWindow.show = patched\n"
        "from composer_app.ui.app import main\n"
        "sys.exit(main(sys.argv[1:]))\n")
    with start_embedded(tmp_path / "server") as server:
        out = subprocess.run(
            [sys.executable, "-c", code, "--server", server.url, "--token", server.token,
             "--data-dir", str(tmp_path / "client")],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "STATUS Connected False"
    assert not (tmp_path / "client" / "server").exists()  # no embedded server was started


_SIGNAL_RUN = '''
import os, signal, sys
import composer_app.ui.window.main_window as mw
from PySide6.QtCore import QMimeData, QTimer
from PySide6.QtGui import QGuiApplication
show = mw.MainWindow.show
def patched(self):
    show(self)
    def poll():
        if self.current_thread:
            self.editor.insertPlainText("kept through SIGTERM")
            data = QMimeData()
            data.setText("see [notes](context://file/x)")
            data.setData("application/x-composer-test", b"chips")
            QGuiApplication.clipboard().setMimeData(data)
            print("READY", self.current_thread, flush=True)
            if sys.argv[1] == "sigterm":
                os.kill(os.getpid(), signal.SIGTERM)
            else:
                self.window_actions.quit_action.trigger()
        else:
            QTimer.singleShot(20, poll)
    poll()
mw.MainWindow.show = patched
from composer_app.ui.app import main
code = main(sys.argv[2:])
print("EXIT", code, flush=True)
sys.exit(code)
'''


@pytest.mark.skipif(os.name != "posix", reason="signals and offscreen Qt on POSIX")
@pytest.mark.parametrize("how", ["sigterm", "ctrl+q"])
def test_quitting_saves_the_window_and_draft_and_releases_the_clipboard(tmp_path: Path,
                                                                         how: str) -> None:
    """SIGTERM closes the window like Ctrl+Q does; either way the process exits 0 (Python-made
    clipboard data outliving the interpreter would crash it) with the draft on disk."""
    from composer_app.core.document.store import DraftStore

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    data = tmp_path / "data"
    out = subprocess.run([sys.executable, "-c", _SIGNAL_RUN, how, "--data-dir", str(data)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split()
    assert lines[0] == "READY" and lines[-2:] == ["EXIT", "0"]
    thread = lines[1]
    paths = app_paths(data)
    assert "geometry=" in (paths.config_dir / "window.ini").read_text()  # the window closed
    draft = DraftStore(paths.drafts_dir).load(thread)
    assert "kept through SIGTERM" in draft.prompt


def read_ready_line(fifo: Path, timeout: float) -> str:
    """The first line written to ``fifo`` within ``timeout`` seconds ("" if none came)."""
    import selectors
    import time

    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # open before the writer: it never blocks
    received = b""
    deadline = time.monotonic() + timeout
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in received and (left := deadline - time.monotonic()) > 0:
                if selector.select(left):
                    chunk = os.read(fd, 4096)
                    if not chunk:
                        break
                    received += chunk
    finally:
        os.close(fd)
    return received.decode().partition("\n")[0]


@pytest.mark.skipif(os.name != "posix", reason="FIFOs and signals on POSIX")
def test_ready_file_gets_one_timestamped_line_once_connected(tmp_path: Path) -> None:
    """COMPOSER_READY_FILE: one ``ready <epoch seconds>`` line once the first thread is listed."""
    import time

    from composer_app.ui.app import READY_FILE_ENV

    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", READY_FILE_ENV: str(fifo)}
    spawned = time.time()
    child = subprocess.Popen([sys.executable, "-m", "composer_app", "--data-dir",
                              str(tmp_path / "data")], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        line = read_ready_line(fifo, timeout=60)
        read = time.time()
        word, _, stamp = line.partition(" ")
        assert word == "ready", line
        assert spawned < float(stamp) <= read
        assert (tmp_path / "data").is_dir()  # the embedded server's data went where asked
    finally:
        child.terminate()
        _, err = child.communicate(timeout=60)
    assert child.returncode == 0, err


def test_help_names_every_folder_the_app_keeps_files_in(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    out = capsys.readouterr().out
    paths = app_paths()
    for folder in (paths.data_dir, paths.config_dir, paths.cache_dir, paths.log_dir):
        assert str(folder) in out


def test_restored_draft_with_file_sends_after_restart_of_the_window(qtbot: QtBot,
                                                                    tmp_path: Path) -> None:
    """Paste a file, quit, start again (engine, client store, window), send: it goes out."""
    from composer_app.sync.secrets import TokenStore
    from composer_app.ui.backend import connect_backend, start_embedded_server, stop_embedded_server
    from composer_app.ui.session import Session
    from composer_app.ui.settings.settings_logic import AppSettings, Connection
    from composer_app.ui.window.main_window import MainWindow

    wait_ms = 20_000
    paths = app_paths(tmp_path / "data")
    settings = AppSettings()
    server = start_embedded_server(paths, settings)

    def open_client() -> tuple[Started, MainWindow]:
        started = connect_backend(paths, Connection(True, server.url), server.token, server)
        session = Session(started.bridge, paths, settings, TokenStore(paths.config_dir), True,
                          started.url)
        window = MainWindow(session)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitUntil(lambda: window.thread_pane.model.row_of(window.current_thread) >= 0,
                        timeout=wait_ms)
        return started, window

    try:
        started, window = open_client()
        thread = window.current_thread
        report = tmp_path / "report.pdf"
        report.write_bytes(b"%PDF-1.4 figures for the quarter")
        window.editor.insertPlainText("see ")
        [record] = window.editor.attach_paths([str(report)])
        qtbot.waitUntil(lambda: (s := window.uploads.status(record.attachment_id)) is not None
                        and s.state == "uploaded", timeout=wait_ms)
        assert window.shutdown()
        started.bridge.stop()
        report.unlink()  # only the app's kept copy is left

        started, window = open_client()
        assert window.current_thread == thread
        assert record.context_id in window.editor.draft.records
        window.editor.setFocus()
        assert window.editor.request_send()
        engine = started.bridge.engine

        def on_server() -> list[object]:
            rows = engine.messages(thread).result(10)
            return [r for r in rows if r.role == "user" and r.local_state is None]

        def outcome() -> object:
            items = [i for i in engine.outbox_items().result(10) if i.message_id]
            return on_server() or [i for i in items if i.state == "unsent"]

        qtbot.waitUntil(lambda: bool(outcome()), timeout=wait_ms)
        [sent] = on_server()
        assert [a["name"] for a in sent.attachments] == ["report.pdf"]  # type: ignore[attr-defined]
        assert window.shutdown()
        started.bridge.stop()
    finally:
        stop_embedded_server(server)


def test_accounts_keep_the_settings_server_and_add_server_for_this_run_only(
        tmp_path: Path) -> None:
    from composer_app.sync.accounts import EMBEDDED_ID, AccountBook, account_id_for
    from composer_app.ui.app import load_accounts
    from composer_app.ui.settings.settings_logic import AppSettings

    paths = app_paths(tmp_path)
    saved = AppSettings(server_mode="remote", server_url="https://team.example.org/")
    book = load_accounts(paths, saved, "http://127.0.0.1:9/")
    ids = [a.account_id for a in book]
    assert ids == [EMBEDDED_ID, account_id_for("https://team.example.org"),
                   account_id_for("http://127.0.0.1:9")]
    assert book.selected == account_id_for("http://127.0.0.1:9")  # this run's server
    again = AccountBook.load(paths.config_dir)  # what the next plain start sees
    assert [a.account_id for a in again] == ids[:2]
    assert again.selected == account_id_for("https://team.example.org")
    assert [a.account_id for a in load_accounts(paths, AppSettings(), None)] == ids[:2]


def test_the_app_opens_on_the_account_books_start_server_and_settings_agree(
        tmp_path: Path) -> None:
    from composer_app.sync.accounts import AccountBook
    from composer_app.ui.app import load_accounts, start_settings
    from composer_app.ui.settings.settings_logic import (
        AppSettings,
        choose_connection,
        load_settings,
        save_settings,
    )

    paths = app_paths(tmp_path)
    book = AccountBook.load(paths.config_dir)
    team = book.add("https://team.example.org")
    book.set_start_account(team.account_id)
    save_settings(paths.settings_file, AppSettings())  # the file still says "embedded"
    settings = load_settings(paths.settings_file)
    book = load_accounts(paths, settings, None)
    settings = start_settings(paths, settings, book)
    connection = choose_connection(settings, None, None)
    assert not connection.embedded and connection.url == "https://team.example.org"
    assert load_settings(paths.settings_file).server_url == "https://team.example.org"
    book.set_start_account("embedded")
    settings = start_settings(paths, load_settings(paths.settings_file),
                              load_accounts(paths, settings, None))
    assert choose_connection(settings, None, None).embedded
    assert load_settings(paths.settings_file).server_mode == "embedded"
