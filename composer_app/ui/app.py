"""``composer-app`` (= ``python -m composer_app``): start the desktop app.

Invariants: with nothing configured the embedded server starts (loopback, random port, generated
token, the local provider) and a first thread is ready; ``--server URL`` (or a remote server in
the settings) connects there with ``--token``, the keyring's token or one typed at a prompt (kept
in the keyring, or in memory with a visible banner when there is none); the application id is
``APP_ID`` for the desktop entry; on every exit (window closed, Ctrl+Q, SIGTERM/SIGINT/SIGHUP) the
window saves and hands over its pending sends, then the sync engine stops, then the embedded server,
then the app's clipboard data is released;
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
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from composer_app import APP_ID, __version__
from composer_app.ui.settings.settings_logic import (
    AppPaths,
    AppSettings,
    Connection,
    app_paths,
    choose_connection,
    load_settings,
    restart_needed,
    save_settings,
)

_log = logging.getLogger(__name__)
ICON_NAME = f"{APP_ID}.png"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="composer-app", description="Composer: a chat composer whose messages point at "
                                         "typed context.")
    parser.add_argument("--server", metavar="URL",
                        help="connect to this thread server instead of the embedded one")
    parser.add_argument("--token", help="sign-in token for --server (default: the keyring, "
                                        "else a prompt)")
    parser.add_argument("--data-dir", metavar="DIR", type=Path,
                        help="keep all data, settings and caches under DIR")
    parser.add_argument("--self-test", action="store_true",
                        help="run the offscreen end-to-end check and exit 0 or 1")
    parser.add_argument("--version", action="version", version=f"composer-app {__version__}")
    return parser


# -- the embedded server ---------------------------------------------------------------------------
def start_embedded_server(paths: AppPaths, settings: AppSettings,
                          server_dir: Path | None = None) -> Any:
    """Start the embedded server with the chosen assistant provider; returns ``EmbeddedServer``
    (its ``router`` attribute is set to the ``ProviderRouter``)."""
    from composer_app.server.embedded import start_embedded
    from composer_app.server.providers.registry import ProviderOptions, ProviderRouter
    from composer_app.server.settings import ServerSettings

    directory = server_dir or paths.server_dir
    directory.mkdir(parents=True, exist_ok=True)
    knowledge = Path(settings.knowledge_dir).expanduser() if settings.knowledge_dir else None
    router = ProviderRouter(ProviderOptions(
        data_dir=directory,
        provider=settings.provider,
        knowledge_dir=knowledge if knowledge is not None and knowledge.is_dir() else None,
        openai_base_url=settings.openai_base_url,
        openai_model=settings.openai_model or None,
    ))
    server = start_embedded(directory, settings=ServerSettings(directory, provider=router))
    server.router = router  # type: ignore[attr-defined]
    return server


def stop_embedded_server(server: Any) -> None:
    """Stop the server, then close its providers (the local index)."""
    server.stop()
    router = getattr(server, "router", None)
    if router is not None:
        try:
            router.close()
        except Exception:  # closing is best effort at exit
            _log.exception("closing the assistant providers failed")


class EarlyServer:
    """Starts the embedded server on a thread right away, so it overlaps building the window."""

    def __init__(self, paths: AppPaths, settings: AppSettings) -> None:
        self._result: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(paths, settings),
                                        name="composer-server-start", daemon=True)
        self._thread.start()

    def _run(self, paths: AppPaths, settings: AppSettings) -> None:
        try:
            self._result = start_embedded_server(paths, settings)
        except BaseException as exc:  # re-raised on the GUI thread by ``wait``
            self._error = exc

    def wait(self) -> Any:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._result


# -- the Qt application --------------------------------------------------------------------------
def icons_dir() -> Path:
    """``resources/icons`` of the bundle or of the source tree."""
    base = getattr(sys, "_MEIPASS", None)
    if base:
        return Path(base) / "resources" / "icons"
    return Path(__file__).resolve().parents[2] / "resources" / "icons"


def app_icon() -> Any:
    from PySide6.QtGui import QIcon

    icon = QIcon()
    root = icons_dir() / "hicolor"
    for png in sorted(root.glob(f"*/apps/{ICON_NAME}")):
        icon.addFile(str(png))
    if icon.isNull():
        return QIcon.fromTheme(APP_ID)
    return icon


def create_application(argv: Sequence[str] | None = None) -> Any:
    """The ``QApplication`` with the app's identity, icon and style."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(
        list(argv) if argv is not None else sys.argv[:1])
    QGuiApplication.setApplicationName("Composer")
    QGuiApplication.setApplicationDisplayName("Composer")
    QGuiApplication.setOrganizationName("ComposerApp")
    QGuiApplication.setApplicationVersion(__version__)
    QGuiApplication.setDesktopFileName(APP_ID)
    app.setStyle("Fusion")
    app.setWindowIcon(app_icon())
    return app


def release_clipboard() -> None:
    """Before Python shuts down, swap clipboard data this app put there for a Qt-made copy of its
    text: Qt destroys the clipboard's data after the interpreter is gone, and data made from Python
    would crash the process at exit. Other applications keep the Markdown text."""
    from PySide6.QtGui import QClipboard, QGuiApplication

    clipboard = QGuiApplication.clipboard()
    for mode in (QClipboard.Mode.Clipboard, QClipboard.Mode.Selection):
        if mode == QClipboard.Mode.Selection and not clipboard.supportsSelection():
            continue
        data = clipboard.mimeData(mode)
        if data is None or not data.formats():
            continue
        owned = (clipboard.ownsClipboard() if mode == QClipboard.Mode.Clipboard
                 else clipboard.ownsSelection())
        if owned or QGuiApplication.platformName() == "offscreen":
            text = data.text()
            if text:
                clipboard.setText(text, mode)
            else:
                clipboard.clear(mode)


@dataclass
class Started:
    """A running backend: the bridge and, for the embedded server, the server."""

    bridge: Any
    server: Any
    url: str
    embedded: bool
    stopped: bool = False

    def stop(self) -> None:
        """Stop the sync engine, then the embedded server (idempotent)."""
        if self.stopped:
            return
        self.stopped = True
        try:
            self.bridge.stop()
        finally:
            if self.server is not None:
                stop_embedded_server(self.server)


def connect_backend(app: Any, paths: AppPaths, connection: Connection, token: str,
                    server: Any = None) -> Started:
    """Start the sync engine against the server; the caller stops it with ``Started.stop``
    after the window's ``shutdown`` (window, then engine, then server). ``app`` is unused and
    kept for callers that pass it."""
    from composer_app.sync.engine import SyncEngine
    from composer_app.ui.sync_bridge import SyncBridge

    del app
    url = connection.url or (server.url if server is not None else "")
    if not url:
        raise ValueError("no server to connect to")
    engine = SyncEngine(url, token, paths.client_dir(None if connection.embedded else url))
    bridge = SyncBridge(engine)
    bridge.start()
    return Started(bridge, server, url, connection.embedded)


class QuitSignals:
    """SIGTERM, SIGINT and SIGHUP close the window like Ctrl+Q does (drafts, geometry and queued
    sends are saved, the clipboard released) instead of killing the process mid-write.

    Python runs signal handlers only between bytecodes, which a Qt event loop rarely gives it;
    the handler's wake-up byte lands on a socket that a ``QSocketNotifier`` watches, so the
    event loop wakes at once. ``close()`` restores the previous handlers.
    """

    SIGNALS = ("SIGTERM", "SIGINT", "SIGHUP")

    def __init__(self, on_signal: Any) -> None:
        import signal
        import socket

        from PySide6.QtCore import QSocketNotifier

        self._on_signal = on_signal
        self._reader, self._writer = socket.socketpair()
        self._reader.setblocking(False)
        self._writer.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno())
        self._previous: dict[int, Any] = {}
        for name in self.SIGNALS:
            number = getattr(signal, name, None)
            if number is not None:
                self._previous[number] = signal.signal(number, self._handle)
        self.received: list[int] = []
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read)
        self._notifier.activated.connect(self._on_wake)

    def _handle(self, _number: int, _frame: Any) -> None:
        """The Python-level handler; the work happens on the event loop (``_on_wake``)."""

    def _on_wake(self, *_: Any) -> None:
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


def report_ready(window: Any, path: Path) -> Any:
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
        connected = window.bridge.engine.connection_state[0] == "connected"
        listed = window.thread_pane.model.row_of(window.current_thread) >= 0
        if connected and listed and window.isVisible():
            timer.stop()
            QTimer.singleShot(0, window, write)

    timer = QTimer(window)
    timer.setInterval(5)
    timer.timeout.connect(check)
    timer.start()
    return timer


def quit_now() -> None:
    """Close every window (dialogs included) and leave the event loop."""
    from PySide6.QtWidgets import QApplication

    QApplication.closeAllWindows()
    QApplication.quit()


def ask_token(url: str) -> str | None:
    """Prompt for a sign-in token (None when cancelled)."""
    from PySide6.QtWidgets import QInputDialog, QLineEdit

    token, ok = QInputDialog.getText(None, "Sign in to Composer",
                                     f"Token for {url}:", QLineEdit.EchoMode.Password)
    return token.strip() if ok and token.strip() else None


def apply_settings_result(session: Any, result: Any) -> str:
    """Save what the settings dialog returned; the status message to show (may be empty)."""
    import keyring
    from PySide6.QtWidgets import QApplication

    from composer_app.server.providers.registry import keyring_user
    from composer_app.ui.settings.dialog import apply_theme

    before: AppSettings = session.settings
    after: AppSettings = result.settings
    save_settings(session.paths.settings_file, after)
    session.settings = after
    if result.server_token and after.server_mode == "remote" and after.server_url:
        session.tokens.set(after.server_url, result.server_token)
    if result.api_key and session.tokens.uses_keyring:
        try:
            keyring.set_password(APP_ID, keyring_user(after.openai_base_url), result.api_key)
        except Exception:  # the key simply is not remembered; say so
            return "The API key could not be stored in the system keyring."
    app = QApplication.instance()
    if isinstance(app, QApplication):
        apply_theme(app, after.theme)
    if restart_needed(before, after):
        return "Settings saved. Restart Composer to use the new server or assistant."
    return "Settings saved."


def main(argv: Sequence[str] | None = None) -> int:
    """The ``composer-app`` console entry point."""
    args = build_parser().parse_args(list(argv) if argv is not None else None)
    if args.self_test:
        from composer_app.ui.self_test import run_self_test

        return run_self_test()
    logging.basicConfig(level=logging.WARNING)
    paths = app_paths(args.data_dir)
    settings = load_settings(paths.settings_file)
    connection = choose_connection(settings, args.server, args.token)
    early = EarlyServer(paths, settings) if connection.embedded else None

    from composer_app.sync.secrets import TokenStore
    from composer_app.ui.settings.dialog import apply_theme
    from composer_app.ui.window.main_window import MainWindow, Session

    app = create_application()
    apply_theme(app, settings.theme)
    tokens = TokenStore(paths.config_dir)
    server = None
    if early is not None:
        try:
            server = early.wait()
        except Exception as exc:
            print(f"composer-app: the embedded server did not start: {exc}", file=sys.stderr)
            return 1
        token = server.token
    else:
        token = connection.token or tokens.get(connection.url) or ask_token(connection.url)
        if not token:
            print(f"composer-app: no token for {connection.url}", file=sys.stderr)
            return 1
        if connection.token or not tokens.get(connection.url):
            tokens.set(connection.url, token)
    try:
        started = connect_backend(app, paths, connection, token, server)
    except Exception as exc:
        if server is not None:
            stop_embedded_server(server)
        print(f"composer-app: the sync client did not start: {exc}", file=sys.stderr)
        return 1
    window: Any = None
    signals = QuitSignals(quit_now)
    try:
        session = Session(started.bridge, paths, settings, tokens, started.embedded, started.url)
        window = MainWindow(session)
        window.show()
        if ready_file := os.environ.get(READY_FILE_ENV):
            report_ready(window, Path(ready_file))
        code = int(app.exec())
    finally:
        signals.close()
        shut_down(window, started)
    return code


def shut_down(window: Any, started: Started) -> None:
    """Every exit path: the window (drafts, geometry, sends still waiting for an upload to be
    registered), then the sync engine, then the embedded server, then the clipboard (data made
    by Python must not outlive the interpreter)."""
    try:
        if window is not None:
            window.shutdown()
    finally:
        try:
            started.stop()
        finally:
            release_clipboard()


if __name__ == "__main__":
    sys.exit(main())
