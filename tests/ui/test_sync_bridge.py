"""The Qt bridge delivers engine callbacks as signals on the GUI thread."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QThread, Slot

from composer_app.server.embedded import start_embedded
from composer_app.sync.engine import SyncEngine
from composer_app.ui.sync_bridge import SyncBridge

WAIT_MS = 20_000


class _Sink(QObject):
    """A GUI-thread receiver that notes which thread ran each slot."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, Any, bool]] = []

    def _note(self, name: str, args: Any) -> None:
        on_gui = QThread.currentThread() is QCoreApplication.instance().thread()
        self.seen.append((name, args, on_gui and threading.current_thread() is
                          threading.main_thread()))

    @Slot(str, str)
    def on_message(self, thread_id: str, message_id: str) -> None:
        self._note("message_upserted", (thread_id, message_id))

    @Slot(str, int)
    def on_state(self, state: str, next_try: int) -> None:
        self._note("connection_state_changed", (state, next_try))


def test_engine_callbacks_arrive_as_signals_on_the_gui_thread(qtbot: Any, tmp_path: Path) -> None:
    server = start_embedded(tmp_path / "server")
    bridge = SyncBridge(SyncEngine(server.url, server.token, tmp_path / "client"))
    sink = _Sink()
    bridge.message_upserted.connect(sink.on_message)
    bridge.connection_state_changed.connect(sink.on_state)
    plain_threads: list[bool] = []
    bridge.outbox_item_changed.connect(
        lambda *_: plain_threads.append(threading.current_thread() is threading.main_thread()))
    environments: list[Any] = []
    bridge.environment_changed.connect(environments.append)
    assert bridge.connection_state == ("connecting", 0) and bridge.environment is None
    try:
        with qtbot.waitSignal(bridge.connection_state_changed, timeout=WAIT_MS,
                              check_params_cb=lambda state, _n: state == "connected"):
            bridge.start()
        # snapshots on the GUI thread, the environment announced before the state
        assert bridge.connection_state == ("connected", 0)
        assert bridge.environment is not None and environments == [bridge.environment]
        assert bridge.environment.environment_id == bridge.engine.environment.environment_id
        with qtbot.waitSignal(bridge.request_finished, timeout=WAIT_MS) as created:
            bridge.submit(lambda e: e.create_thread("From Qt"))
        request_id, thread_id, error = created.args
        assert request_id == 1 and error == "" and thread_id.startswith("thr_")
        with qtbot.waitSignal(bridge.outbox_item_changed, timeout=WAIT_MS,
                              check_params_cb=lambda _t, _m, state: state == "sent"):
            bridge.submit(lambda e: e.send_message(thread_id, "hello from the GUI"))
        qtbot.waitUntil(lambda: any(name == "message_upserted" for name, _, _ in sink.seen),
                        timeout=WAIT_MS)
        assert sink.seen and all(on_gui for _, _, on_gui in sink.seen)
        assert plain_threads and all(plain_threads)
        with qtbot.waitSignal(bridge.request_finished, timeout=WAIT_MS) as failed:
            bridge.submit(lambda e: e.import_asset("att_missing", "x.png", "image/png"))
        assert failed.args[1] is None
        assert failed.args[2] == "The original attachment is no longer available. HTTP 404"
    finally:
        bridge.stop()
        server.stop()
