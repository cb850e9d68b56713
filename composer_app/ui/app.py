"""``composer-app`` (= ``python -m composer_app``): start the desktop app.

Invariants: with nothing configured the embedded server starts (loopback, random port, generated
token, the local provider) and a first thread is ready; ``--server URL`` (or a remote server in
the settings) connects there with ``--token``, the keyring's token or one typed at a prompt (kept
in the keyring, or in memory with a visible banner when there is none); cancelling that prompt
offers the embedded server instead of quitting; a new server or assistant saved in Settings is
used by reconnecting in the same process (window, engine and embedded server are shut down in
order and started again), never by asking for a restart when the user agrees; the application id is
``APP_ID`` for the desktop entry; on every exit (window closed, Ctrl+Q, SIGTERM/SIGINT/SIGHUP) the
window saves and hands over its pending sends, then the sync engine stops, then the embedded server,
then the app's clipboard data is released; one process per data folder (``SingleInstance``): a
second start on the same folder asks the running one to bring its window to the front and exits 0
before it opens anything there;
``--self-test`` runs the offscreen end-to-end check and exits 0 or 1 with a one-line reason;
with ``COMPOSER_READY_FILE=PATH`` set, ``ready <seconds since the epoch>`` is written to PATH (a
file or a FIFO with a reader) once the window is shown, connected with its thread listed and its
event loop has answered a zero-delay timer (see ``report_ready``).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from composer_app import __version__
from composer_app.sync.accounts import EMBEDDED_ID, AccountBook, is_server_url
from composer_app.ui import unused_imports
from composer_app.ui.account_engines import AccountEngines
from composer_app.ui.application import create_application, quit_now, shut_down
from composer_app.ui.backend import (
    EarlyServer,
    RunningServer,
    Started,
    connect_backend,
    stop_embedded_server,
)
from composer_app.ui.server_process import CHILD_FLAG, ServerProcess
from composer_app.ui.settings.settings_logic import (
    AppPaths,
    AppSettings,
    Connection,
    app_paths,
    choose_connection,
    load_settings,
    save_settings,
    settings_for_start,
)
from composer_app.ui.sign_in import ask_token, offer_embedded

if TYPE_CHECKING:
    from PySide6.QtCore import QTimer

    from composer_app.sync.secrets import TokenStore
    from composer_app.ui.single_instance import SingleInstance
    from composer_app.ui.window.main_window import MainWindow

__all__ = [
    "READY_FILE_ENV",
    "OtherAccounts",
    "QuitSignals",
    "ask_token",
    "bring_to_front",
    "build_parser",
    "folders_text",
    "load_accounts",
    "main",
    "report_ready",
    "serve_embedded",
    "start_backend",
    "start_settings",
    "watch_embedded",
]

_log = logging.getLogger(__name__)


def folders_text(paths: AppPaths) -> str:
    """Where this app keeps its files, one folder a line (``--help`` and Help ▸ About)."""
    return paths.folders_text()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="composer-app", description="Composer: a chat composer whose messages point at "
                                         "typed context.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="folders (without --data-dir):\n" + folders_text(app_paths()))
    parser.add_argument("--server", metavar="URL",
                        help="connect to this thread server instead of the embedded one")
    parser.add_argument("--token", help="sign-in token for --server (default: the keyring, "
                                        "else a prompt)")
    parser.add_argument("--data-dir", metavar="DIR", type=Path,
                        help="keep all data, settings and caches under DIR")
    parser.add_argument("--self-test", action="store_true",
                        help="run the offscreen end-to-end check and exit 0 or 1")
    parser.add_argument("--version", action="version", version=f"composer-app {__version__}")
    parser.add_argument(CHILD_FLAG, action="store_true", help=argparse.SUPPRESS)
    return parser


class QuitSignals:
    """SIGTERM, SIGINT and SIGHUP close the window like Ctrl+Q does (drafts, geometry and queued
    sends are saved, the clipboard released) instead of killing the process mid-write.

    Python runs signal handlers only between bytecodes, which a Qt event loop rarely gives it;
    the handler's wake-up byte lands on a socket that a ``QSocketNotifier`` watches, so the
    event loop wakes at once. ``close()`` restores the previous handlers.
    """

    SIGNALS = ("SIGTERM", "SIGINT", "SIGHUP")

    def __init__(self, on_signal: Callable[[], None]) -> None:
        import signal
        import socket

        from PySide6.QtCore import QSocketNotifier

        self._on_signal = on_signal
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(False)
        self._writer.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno())
        self._previous: dict[int, signal.Handlers | Callable[[int, FrameType | None], object]
                             | int | None] = {}
        for name in self.SIGNALS:
            number = getattr(signal, name, None)
            if number is not None:
                self._previous[number] = signal.signal(number, self._handle)
        self.received: list[int] = []
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read)
        self._notifier.activated.connect(self._on_wake)

    def _handle(self, _number: int, _frame: FrameType | None) -> None:
        """The Python-level handler; the work happens on the event loop (``_on_wake``)."""

    def _on_wake(self, *_: object) -> None:
        woken = b""
        try:
            while chunk := self._reader.recv(64):
                woken += chunk
        except (BlockingIOError, InterruptedError):
            pass
        if woken:  # the wake-up fd carries one byte per signal: its number
            self.received.extend(woken)
            self._on_signal()

    def close(self) -> None:
        import signal

        self._notifier.setEnabled(False)
        for number, previous in self._previous.items():
            signal.signal(number, previous)
        signal.set_wakeup_fd(self._previous_fd)
        self._reader.close()
        self._writer.close()


READY_FILE_ENV = "COMPOSER_READY_FILE"


def report_ready(window: MainWindow, path: Path) -> QTimer:
    """Write ``ready <time.time()>`` and a newline to ``path`` once, as soon as ``window`` is
    visible, its sync engine is ``connected``, its current thread is listed and the event loop has
    then answered a zero-delay timer. Wall-clock time, so another process can subtract its own
    ``time.time()`` at spawn. One ``write`` of the whole line; a FIFO without a reader is skipped
    (non-blocking open), never waited on. Returns the polling ``QTimer`` (5 ms, window-owned).
    """
    import time

    from PySide6.QtCore import QTimer

    def write() -> None:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o644)
            try:
                os.write(fd, f"ready {time.time():.6f}\n".encode())
            finally:
                os.close(fd)
        except OSError as exc:
            _log.warning("could not write the ready file %s: %s", path, exc)

    def check() -> None:
        if window.is_ready():
            timer.stop()
            QTimer.singleShot(0, window, write)

    timer = QTimer(window)
    timer.setInterval(5)
    timer.timeout.connect(check)
    timer.start()
    return timer


def main(argv: Sequence[str] | None = None) -> int:
    """The ``composer-app`` console entry point."""
    args = build_parser().parse_args(list(argv) if argv is not None else None)
    if not args.self_test:
        unused_imports.skip()
    if args.embedded_server:  # the app's own server process (see ``server_process``)
        return serve_embedded()
    if args.self_test:
        from composer_app.ui.self_test import run_self_test

        return run_self_test()
    console = logging.StreamHandler()
    console.setLevel(logging.WARNING)
    logging.getLogger().addHandler(console)
    paths = app_paths(args.data_dir)
    from composer_app.ui.single_instance import SingleInstance

    instance = SingleInstance(paths.data_dir)
    if not instance.claim():  # before anything opens the stores of this data folder
        print("composer-app: Composer is already running with this data folder "
              f"({paths.data_dir}); its window was asked to come to the front.", file=sys.stderr)
        return 0
    try:
        return _run(args, paths, instance)
    finally:
        instance.release()


def serve_embedded() -> int:
    """Run as the embedded server's process: Ctrl+C in a terminal is the app's to handle (it
    then closes the pipe), and SIGTERM stops the server as cleanly as the pipe's end does."""
    import signal

    from composer_app.ui.server_process import serve_child

    def stop(_number: int, _frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, stop)
    console = logging.StreamHandler()
    console.setLevel(logging.WARNING)
    logging.getLogger().addHandler(console)
    return serve_child()


def watch_embedded(server: RunningServer | None, window: MainWindow) -> None:
    """An embedded server in its own process is restarted when it ends unasked, and the status
    bar says so (the sync engines reconnect by themselves: same port, same token)."""
    if isinstance(server, ServerProcess):
        server.watch(window.servers.status_message.emit)


def bring_to_front(window: MainWindow) -> None:
    """Show ``window`` restored, raised and active (a second start asked for it)."""
    from PySide6.QtCore import Qt

    if window.isMinimized():
        window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMinimized)
    window.show()
    window.raise_()
    window.activateWindow()


def _run(args: argparse.Namespace, paths: AppPaths, instance: SingleInstance) -> int:
    settings = load_settings(paths.settings_file)
    book = load_accounts(paths, settings, args.server)
    settings = start_settings(paths, settings, book)
    connection = choose_connection(settings, args.server, args.token)
    early = EarlyServer(paths, settings) if connection.embedded else None

    from composer_app.sync.secrets import TokenStore
    from composer_app.ui.crash_report import CrashReporter
    from composer_app.ui.settings.dialog import apply_theme
    from composer_app.ui.window.main_window import MainWindow, Session

    app = create_application()
    reporter = CrashReporter(paths.log_dir, app)
    reporter.install()
    apply_theme(app, settings.theme)
    tokens = TokenStore(paths.config_dir)
    code = 0
    current: list[MainWindow] = []

    def activate() -> None:
        if current:
            bring_to_front(current[0])

    instance.listen()
    instance.activation_requested.connect(activate)
    while True:
        started = start_backend(paths, settings, connection, early, tokens)
        if isinstance(started, int):
            return started
        window: MainWindow | None = None
        signals = QuitSignals(quit_now)
        try:
            engines = AccountEngines(paths)
            started.engines = engines
            session = Session(started.bridge, paths, settings, tokens, started.embedded,
                              started.url, token=started.token, book=book, engines=engines)
            window = MainWindow(session)
            current[:] = [window]
            watch_embedded(started.server, window)
            window.show()
            OtherAccounts(window, paths, settings, embedded_running=started.embedded).start()
            if ready_file := os.environ.get(READY_FILE_ENV):
                report_ready(window, Path(ready_file))
            code = int(app.exec())
        finally:
            current.clear()
            signals.close()
            shut_down(window, started)
        if window is None or not window.reopen_requested:
            break
        # new server or assistant chosen in Settings: reconnect in this process, no restart
        settings = window.session.settings
        book = load_accounts(paths, settings, None)
        settings = start_settings(paths, settings, book)
        connection = choose_connection(settings, None, None)
        early = EarlyServer(paths, settings) if connection.embedded else None
    reporter.uninstall()
    return code


def load_accounts(paths: AppPaths, settings: AppSettings, server_arg: str | None
                  ) -> AccountBook:
    """The saved servers; a remote server chosen in Settings is one of them, and ``--server``
    adds (or selects) one for this run only, leaving the saved list and default alone."""
    book = AccountBook.load(paths.config_dir)
    if (settings.server_mode == "remote" and is_server_url(settings.server_url)
            and book.by_url(settings.server_url) is None):
        try:
            book.add(settings.server_url)
        except (ValueError, OSError) as exc:
            _log.warning("could not add the server from the settings: %s", exc)
    if server_arg and is_server_url(server_arg):
        book.for_this_run(server_arg)
    return book


def start_settings(paths: AppPaths, settings: AppSettings, book: AccountBook) -> AppSettings:
    """The settings naming the account book's start server (the book decides where the app
    opens; the settings file is brought in line with it when it said otherwise)."""
    start = book.get(book.start_account)
    wanted = settings_for_start(settings, "" if start is None or start.embedded else start.url)
    if wanted != settings:
        try:
            save_settings(paths.settings_file, wanted)
        except OSError as exc:
            _log.warning("could not save the settings: %s", exc)
    return wanted


class OtherAccounts:
    """After the window is shown, the servers other than the first one connect in the
    background: every remote one with a token in the token store, and the embedded one when it
    has been used before (its server started on a thread, polled without blocking the window);
    an embedded server never used is started when the user asks for it (its header's menu)."""

    POLL_MS = 20

    def __init__(self, window: MainWindow, paths: AppPaths, settings: AppSettings, *,
                 embedded_running: bool) -> None:
        self._window = window
        self._paths = paths
        self._settings = settings
        self._early: EarlyServer | None = None
        self._embedded_running = embedded_running
        window.servers.embedded_starter = None if embedded_running else self.start_embedded

    def start(self) -> None:
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, self._window, self._start_remote)
        if not self._embedded_running and self._paths.server_dir.is_dir():
            self.start_embedded()

    def start_embedded(self) -> None:
        """Start the embedded server on a thread; its engine joins once it answers."""
        from PySide6.QtCore import QTimer

        if self._early is not None or self._embedded_running:
            return
        self._early = EarlyServer(self._paths, self._settings)
        self._window.servers.engines.early = self._early
        self._window.servers.status_message.emit("Starting the embedded server…")
        QTimer.singleShot(self.POLL_MS, self._window, self._poll_embedded)

    def _start_remote(self) -> None:
        servers = self._window.servers
        running = set(servers.bridge.account_ids())
        for account in servers.book:
            if account.embedded or account.account_id in running:
                continue
            token = servers.tokens.get(account.url)
            if token:
                servers.start_saved(account, account.url, token)

    def _poll_embedded(self) -> None:
        from PySide6.QtCore import QTimer

        early = self._early
        if early is None or self._window.servers.engines.early is not early:
            return  # the window closed: the engines stop the server
        if not early.done():
            QTimer.singleShot(self.POLL_MS, self._window, self._poll_embedded)
            return
        servers = self._window.servers
        try:
            server = early.wait()
        except Exception as exc:
            _log.warning("the embedded server did not start: %s", exc)
            servers.engines.early = self._early = None
            servers.status_message.emit(f"The embedded server did not start: {exc}")
            return
        servers.engines.early = None
        servers.engines.server = server
        watch_embedded(server, self._window)
        self._embedded_running = True
        servers.embedded_starter = None
        embedded = servers.book.get(EMBEDDED_ID)
        if embedded is not None:
            servers.start_saved(embedded, server.url, server.token)


def start_backend(paths: AppPaths, settings: AppSettings, connection: Connection,
                  early: EarlyServer | None, tokens: TokenStore) -> Started | int:
    """The running backend for ``connection`` (a token from the connection, the token store or
    the prompt; a cancelled prompt offers the embedded server), or the exit code after saying on
    stderr why there is none."""
    server: RunningServer | None = None
    token = ""
    if early is None:
        typed = connection.token or tokens.get(connection.url) or ask_token(connection.url)
        if typed:
            token = typed
            if connection.token or not tokens.get(connection.url):
                tokens.set(connection.url, token)
        elif offer_embedded(connection.url):  # cancelled: this computer's own server instead
            connection = Connection(True)
            early = EarlyServer(paths, settings)
        else:
            print(f"composer-app: no token for {connection.url}", file=sys.stderr)
            return 1
    if early is not None:
        try:
            server = early.wait()
        except Exception as exc:
            print(f"composer-app: the embedded server did not start: {exc}", file=sys.stderr)
            return 1
        token = server.token
    try:
        return connect_backend(paths, connection, token, server)
    except Exception as exc:
        if server is not None:
            stop_embedded_server(server)
        print(f"composer-app: the sync client did not start: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
