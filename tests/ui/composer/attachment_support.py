"""Shared helpers of the clipboard and attachment tests: composers wired to real files."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtGui import QGuiApplication

from composer_app.core.codecs.references import format_reference
from composer_app.sync.engine import SyncEngine
from composer_app.sync.store import MessageRow
from composer_app.ui.composer.attachment_uploads import AttachmentUploads
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.image_paste import PastedFiles
from composer_app.ui.workers import Runner, inline_runner

ENV = "env_local"


def link(record: Any) -> str:
    return format_reference(record.kind, record.context_id, record.label)


def make_uploads(tmp_path: Path, *, runner: Runner = inline_runner, bridge: Any = None,
                 env: str | None = ENV, sources: Any = None) -> AttachmentUploads:
    files = PastedFiles(tmp_path / "cache" / "pasted", runner)
    return AttachmentUploads(bridge, sources=sources, files=files, environment_id=env)


def make_composer(qtbot: Any, uploads: AttachmentUploads, *, env: str = ENV,
                  thread_id: str | None = None) -> ComposerEditor:
    w = ComposerEditor(environment_id=env)
    w.thread_id = thread_id
    w.use_uploads(uploads)
    w.notices = []  # type: ignore[attr-defined]
    w.notice_posted.connect(lambda title, detail: w.notices.append((title, detail)))
    qtbot.addWidget(w)
    w.resize(640, 240)
    w.show()
    qtbot.waitExposed(w)
    w.setFocus()
    return w


def clear_clipboard() -> None:
    QGuiApplication.clipboard().clear()


WAIT_MS = 20_000


class Connected:
    """An embedded server on loopback with a sync bridge connected to it."""

    def __init__(self, qtbot: Any, root: Path, name: str, **settings: Any) -> None:
        from composer_app.server.embedded import start_embedded
        from composer_app.server.settings import ServerSettings
        from composer_app.ui.sync_bridge import SyncBridge

        data = root / f"{name}-server"
        self.server = start_embedded(data, settings=ServerSettings(data, **settings))
        self.bridge = SyncBridge(SyncEngine(self.server.url, self.server.token,
                                            root / f"{name}-client"))
        with qtbot.waitSignal(self.bridge.connection_state_changed, timeout=WAIT_MS,
                              check_params_cb=lambda state, _n: state == "connected"):
            self.bridge.start()

    @property
    def environment_id(self) -> str:
        return self.server.environment_id

    def call(self, qtbot: Any,
             start: Callable[[SyncEngine], concurrent.futures.Future[Any]]) -> tuple[Any, str]:
        """Run a typed engine request and wait for its outcome: ``(result, error)``."""
        box: dict[str, Any] = {}

        def done(request_id: int, result: Any, error: str) -> None:
            if request_id == box.get("id"):
                box["out"] = (result, error)

        self.bridge.request_finished.connect(done)
        try:
            box["id"] = self.bridge.submit(start)
            qtbot.waitUntil(lambda: "out" in box, timeout=WAIT_MS)
        finally:
            self.bridge.request_finished.disconnect(done)
        out: tuple[Any, str] = box["out"]
        return out

    def close(self) -> None:
        self.bridge.stop()
        self.server.stop()


def stored_copy(qtbot: Any, client: Any, thread_id: str, message_id: str) -> MessageRow:
    """The message as the server stored it. An outbox item is "sent" once the server accepted
    it; the cache holds the local echo (local attachment ids) until the message's event arrives
    with the stored copy."""
    found: list[MessageRow] = []

    def delivered() -> bool:
        rows, _ = client.call(qtbot, lambda e: e.messages(thread_id))
        found[:] = [r for r in rows if r.message_id == message_id and r.local_state is None]
        return bool(found)

    qtbot.waitUntil(delivered, timeout=WAIT_MS)
    return found[0]
