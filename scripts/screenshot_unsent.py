"""Screenshots of failures in place to ``docs/unsent.png`` and ``docs/unsent_dialog.png``
(offscreen, light theme).

It starts the embedded server, builds the real main window, has one message answered, sends one
whose file the server does not know (it fails with the server's reason: a red mark, the reason and
Retry / Edit / Delete under its bubble), then stops the server and sends another (a clock while it
waits), and saves the window and the *Unsent messages* dialog.

Usage: ``.venv/bin/python scripts/screenshot_unsent.py [output.png]``
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from composer_app.core.contracts.records import decode_record  # noqa: E402

FIRST = "What does the staging deploy do when /ready fails?"
FAILED = "Please summarise [deploy-log.txt](t3-context://v1/file/file_gone) for the release notes"
QUEUED = "And who gets paged when it happens twice?"


def _wait(condition: Any, what: str, timeout: float = 60.0) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        loop = QEventLoop()
        QTimer.singleShot(20, loop.quit)
        loop.exec()


def build(work: Path) -> tuple[Any, Any, Any]:
    """The real window with an answered, a failed and a queued message."""
    from composer_app.sync.secrets import TokenStore
    from composer_app.ui.application import create_application
    from composer_app.ui.backend import connect_backend, start_embedded_server
    from composer_app.ui.session import Session
    from composer_app.ui.settings.dialog import apply_theme
    from composer_app.ui.settings.settings_logic import AppSettings, Connection, app_paths
    from composer_app.ui.window.main_window import MainWindow

    app = create_application()
    settings = AppSettings(theme="light")
    apply_theme(app, settings.theme)
    paths = app_paths(work / "data")
    server = start_embedded_server(paths, settings)
    started = connect_backend(paths, Connection(True), server.token, server)
    window = MainWindow(Session(started.bridge, paths, settings, TokenStore(paths.config_dir),
                                True, started.url))
    window.resize(1100, 680)
    window.show()
    _wait(lambda: bool(window.current_thread), "the first thread")
    window.navigator.rename_thread(window.current_thread, "Staging rollback")
    _wait(lambda: window.bridge.connection_state[0] == "connected", "the connection")
    window.editor.insertPlainText(FIRST)
    window.editor.request_send()
    _wait(lambda: any(m.role == "assistant" and not m.streaming
                      for m in window.transcript.messages), "the answer")
    record = decode_record({"version": 1, "contextId": "file_gone", "kind": "file",
                            "label": "deploy-log.txt", "attachmentId": "att_gone",
                            "name": "deploy-log.txt", "mimeType": "text/plain", "sizeBytes": 120})
    started.bridge.engine.send_message(window.current_thread, FAILED, [record]).result(30)
    _wait(lambda: any(m.delivery and m.delivery[0] == "failed"
                      for m in window.transcript.messages), "the failed send")
    server.stop()
    started.bridge.engine.disconnect()
    _wait(lambda: window.bridge.connection_state[0] != "connected", "the disconnect")
    window.editor.insertPlainText(QUEUED)
    window.editor.request_send()
    _wait(lambda: sum(1 for m in window.transcript.messages if m.delivery) == 2, "the queued send")
    return window, started, server


def _settle() -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    for _ in range(10):  # let deferred layouts settle
        loop = QEventLoop()
        QTimer.singleShot(30, loop.quit)
        loop.exec()


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    out = Path(args[0]) if args else ROOT / "docs" / "unsent.png"
    from composer_app.ui.application import shut_down

    with tempfile.TemporaryDirectory(prefix="composer-shot-") as tmp:
        for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
            os.environ[name] = str(Path(tmp) / name.lower())
        window, started, _server = build(Path(tmp))
        window.transcript.scrollToBottom()
        _settle()
        out.parent.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(out))
        window.connection.open_unsent()
        _wait(lambda: window.unsent_dialog.items.count() == 2, "the unsent list")
        _settle()
        dialog_out = out.with_name(out.stem + "_dialog.png")
        window.unsent_dialog.grab().save(str(dialog_out))
        window.unsent_dialog.close()
        shut_down(window, started)
    print(out)


if __name__ == "__main__":
    main()
