"""The connection part alone, against a fake engine behind the real bridge: the status bar follows
the bridge's state, the unsent count follows the outbox, and Retry / Delete / Edit reach the
engine."""

from __future__ import annotations

from pathlib import Path

from keyring.backends import fail
from pytestqt.qtbot import QtBot

from composer_app.sync.outbox import EditedMessage
from composer_app.sync.secrets import TokenStore
from composer_app.sync.store import OutboxRow
from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.window.connection_status import ConnectionStatus
from composer_app.ui.window.status_bar import AppStatusBar, UnsentDialog
from tests.ui.fake_engine import FakeEngine, fake_bridge


def _unsent(engine: FakeEngine, thread_id: str, text: str, state: str = "unsent") -> OutboxRow:
    row = OutboxRow(f"cmd_{len(engine.outbox)}", thread_id, "thread.turn.start",
                    {"message": {"text": text}}, state, f"msg_{len(engine.outbox)}")
    engine.outbox.append(row)
    return row


def _status(qtbot: QtBot, tmp_path: Path, *,
            embedded: bool = False) -> tuple[ConnectionStatus, FakeEngine]:
    bridge, engine = fake_bridge()
    bar = AppStatusBar()
    qtbot.addWidget(bar)
    dialog = UnsentDialog()
    qtbot.addWidget(dialog)
    tokens = TokenStore(tmp_path, backend=fail.Keyring())
    status = ConnectionStatus(bar, dialog, bridge, EngineCalls(bridge), tokens,
                              embedded=embedded, title_of=lambda _t: "Budget")
    return status, engine


def test_the_bar_follows_the_bridge_and_the_outbox(qtbot: QtBot, tmp_path: Path) -> None:
    status, engine = _status(qtbot, tmp_path)
    assert status.bar.connection.text() == "Connecting…"
    assert status.bar.banner.text()  # a remote server and no keyring: the banner says so
    _unsent(engine, "thr_1", "first")
    _unsent(engine, "thr_1", "second", state="sending")
    counts: list[int] = []
    status.unsent_changed.connect(counts.append)
    engine.emit("outbox_item_changed", "thr_1", "msg_0", "unsent")
    qtbot.waitUntil(lambda: status.bar.unsent.text() == "2 unsent (1 not sent)")
    assert counts[-1] == 2
    with qtbot.waitSignal(status.connected):
        engine.connect()
    qtbot.waitUntil(lambda: status.bar.connection.text() == "Syncing…")
    assert status.bar.tone == "busy"
    engine.outbox.clear()
    engine.emit("outbox_item_changed", "thr_1", "msg_0", "sent")
    qtbot.waitUntil(lambda: status.bar.connection.text() == "Connected")
    assert status.bar.tone == "ok" and counts[-1] == 0
    assert not status.bar.unsent.isVisibleTo(status.bar)


def test_retry_delete_and_edit_reach_the_engine(qtbot: QtBot, tmp_path: Path) -> None:
    status, engine = _status(qtbot, tmp_path, embedded=True)
    assert not status.bar.banner.text()  # the embedded server needs no token banner
    row = _unsent(engine, "thr_1", "lost words")
    status.refresh_outbox()
    qtbot.waitUntil(lambda: status.bar.unsent.text() == "1 unsent (1 not sent)")
    status.open_unsent()
    assert status.dialog.items.item(0).text() == "Budget — Not sent: lost words"
    status.dialog.retry_button.click()
    status.dialog.delete_button.click()
    with qtbot.waitSignal(status.edit_ready) as edited:
        status.dialog.edit_button.click()
    assert edited.args == [EditedMessage("thr_1", "lost words", None, ())]
    assert [c for c in engine.calls if c[0] in ("retry", "delete", "edit")] == [
        ("retry", row.message_id), ("delete", row.message_id), ("edit", row.message_id)]
    status.retry_now()
    assert engine.calls[-1] == ("retry_now",)


def test_edit_of_a_message_that_went_out_meanwhile_says_so(qtbot: QtBot,
                                                           tmp_path: Path) -> None:
    status, engine = _status(qtbot, tmp_path, embedded=True)
    status.bar.show()
    row = _unsent(engine, "thr_1", "just delivered", state="sending")
    status.refresh_outbox()
    qtbot.waitUntil(lambda: status.bar.unsent.text() == "1 unsent")
    status.open_unsent()
    edited: list[object] = []
    status.edit_ready.connect(edited.append)
    engine.outbox.remove(row)  # its attempt delivered it while Edit waited
    status.dialog.edit_button.click()
    qtbot.waitUntil(
        lambda: status.bar.currentMessage() == "That message is no longer waiting to be sent.")
    assert edited == []


def test_engine_failures_and_reconnects_show_in_the_bar(qtbot: QtBot, tmp_path: Path) -> None:
    status, engine = _status(qtbot, tmp_path)
    status.bar.show()
    engine.emit("toast_requested", "error", "Cannot save messages",
                "Cannot write to this device's storage: disk full")
    qtbot.waitUntil(lambda: status.bar.currentMessage().startswith("Cannot save messages: "))
    engine.emit("connection_state_changed", "reconnecting", 4)
    qtbot.waitUntil(lambda: status.bar.connection.text() == "Reconnecting (next try in 4 s)")
    assert status.bar.retry.isVisible() and status.bar.tone == "busy"
    assert "disk full" in status.bar.currentMessage()  # an error stays while it applies
    engine.emit("connection_state_changed", "offline", 64)
    qtbot.waitUntil(lambda: status.bar.connection.text() == "Offline")
    assert status.bar.tone == "down" and status.bar.retry.isVisible()
    engine.emit("toast_requested", "error", "Connection problem", "The event stream failed: x")
    qtbot.waitUntil(lambda: status.bar.currentMessage().startswith("Connection problem: "))
    engine.connect()
    qtbot.waitUntil(lambda: status.bar.currentMessage() == "")
    assert status.bar.connection.text() == "Connected" and not status.bar.retry.isVisible()


def test_rejected_token_state_offers_sign_in_only_then(qtbot: QtBot, tmp_path: Path) -> None:
    status, engine = _status(qtbot, tmp_path)
    status.bar.show()
    engine.emit("connection_state_changed", "unauthorized", 0)
    qtbot.waitUntil(lambda: status.bar.connection.text() == "The server did not accept the token")
    assert status.bar.sign_in.isVisible() and status.bar.tone == "error"
    status.ask_token = lambda _url: None  # cancelled: nothing changes
    status.bar.sign_in.click()
    assert status.bar.sign_in.isVisible()
    engine.connect()
    qtbot.waitUntil(lambda: not status.bar.sign_in.isVisible())
