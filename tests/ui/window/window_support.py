"""What the main window's tests share: a real embedded server with the sync engine,
and windows built on it the way the app builds them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from keyring.backends import fail
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from composer_app.sync.secrets import TokenStore
from composer_app.ui.backend import connect_backend, start_embedded_server, stop_embedded_server
from composer_app.ui.session import Session
from composer_app.ui.settings.settings_logic import AppSettings, Connection, app_paths
from composer_app.ui.window.main_window import MainWindow

WAIT_MS = 20_000
NO_THREADS = "No threads yet. Press Ctrl+N to start one."


class Backend:
    """An embedded server and the sync engine for one test; windows share them."""

    def __init__(self, root: Path, settings: AppSettings | None = None) -> None:
        self.paths = app_paths(root)
        self.settings = settings or AppSettings()
        self.server = start_embedded_server(self.paths, self.settings)
        self.started = connect_backend(self.paths,
                                       Connection(True, self.server.url), self.server.token)
        self.windows: list[MainWindow] = []

    def window(self, qtbot: QtBot) -> MainWindow:
        """A window of the embedded app, shown once a thread is open (the first run makes one)."""
        window = self._open(qtbot, embedded=True)
        qtbot.waitUntil(lambda: window.thread_pane.model.row_of(window.current_thread) >= 0,
                        timeout=WAIT_MS)
        return window

    def empty_window(self, qtbot: QtBot) -> MainWindow:
        """A window on a server without threads, connected as a remote one (which, unlike the
        embedded app, creates no first thread), once its list has loaded."""
        window = self._open(qtbot, embedded=False)
        qtbot.waitUntil(lambda: window.thread_pane.empty_label.text() == NO_THREADS,
                        timeout=WAIT_MS)
        return window

    def _open(self, qtbot: QtBot, *, embedded: bool) -> MainWindow:
        tokens = TokenStore(self.paths.config_dir, backend=fail.Keyring())
        session = Session(self.started.bridge, self.paths, self.settings, tokens, embedded,
                          self.started.url)
        window = MainWindow(session)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        self.windows.append(window)
        return window

    def close(self) -> None:
        for window in self.windows:
            window.close()
        self.started.bridge.stop()
        stop_embedded_server(self.server)


def running_backend(root: Path, settings: AppSettings | None = None) -> Iterator[Backend]:
    """Body of a ``backend`` fixture: the backend for one test, stopped afterwards."""
    running = Backend(root, settings)
    try:
        yield running
    finally:
        running.close()


def titles(window: MainWindow) -> list[str]:
    """The titles the thread list shows, top to bottom."""
    model = window.thread_pane.model
    return [model.index(i).data() for i in range(model.rowCount())]


def menu_of(window: MainWindow, title: str) -> QMenu:
    """The menu bar's menu titled ``title`` (with its ``&``)."""
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == title)
    assert isinstance(menu, QMenu)
    return menu


def new_thread(window: MainWindow, qtbot: QtBot, title: str | None = None) -> str:
    """Create a thread through the window and wait until it is open and listed."""
    before = window.current_thread
    window.new_thread(title)
    qtbot.waitUntil(lambda: window.current_thread not in ("", before), timeout=WAIT_MS)
    thread_id = window.current_thread
    qtbot.waitUntil(lambda: window.thread_pane.model.row_of(thread_id) >= 0, timeout=WAIT_MS)
    if title:
        qtbot.waitUntil(lambda: (r := window.navigator.thread_row(thread_id)) is not None
                        and r.title == title, timeout=WAIT_MS)
    return thread_id


def answered(window: MainWindow) -> bool:
    """The transcript ends in a finished assistant answer."""
    messages = window.transcript.messages
    return bool(messages) and messages[-1].role == "assistant" and not messages[-1].streaming


KNOWLEDGE_TEXT = (
    "# Release checklist\n\n"
    "The staging deploy runs every night at 02:00 and uses the blue-green strategy.\n"
)
SOURCED_QUESTION = "When does the staging deploy run?"


def knowledge_settings(folder: Path) -> AppSettings:
    """Settings whose local assistant answers from a one-file knowledge folder (with sources)."""
    folder.mkdir()
    (folder / "release-checklist.md").write_text(KNOWLEDGE_TEXT, encoding="utf-8")
    return AppSettings(knowledge_dir=str(folder))
