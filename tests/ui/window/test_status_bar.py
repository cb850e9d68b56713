"""Status bar widgets and the unsent dialog."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from composer_app.sync.store import OutboxRow
from composer_app.ui.window.status_bar import (
    RICH_ROLE,
    AppStatusBar,
    UnsentDialog,
    outbox_html,
    outbox_line,
)


def test_outbox_line_names_thread_state_and_preview() -> None:
    row = OutboxRow("cmd", "thr", "thread.turn.start", {}, "blocked", "msg")
    assert outbox_line(row, "Budget", "hello\n  there") == (
        "Budget — Waiting for an earlier message: hello there")
    long = outbox_line(row, "B", "x" * 200)
    assert long.endswith("…") and len(long) < 120


def test_unsent_line_shows_chips_as_labels_and_the_reason() -> None:
    row = OutboxRow("cmd", "thr", "thread.turn.start", {}, "unsent", "msg",
                    last_error="notes.txt is no longer on the server.")
    text = "read [notes.txt](t3-context://v1/file/file_a1) please"
    line = outbox_line(row, "Budget", text)
    assert line == "Budget — Not sent: read notes.txt please\nNotes.txt is no longer on the server."
    assert "t3-context" not in line
    rich = outbox_html(row, "Budget", text)
    assert "t3-context" not in rich and "&nbsp;notes.txt&nbsp;</span>" in rich
    assert "no longer on the server" in rich


def test_unsent_dialog_paints_the_rich_line(qtbot: QtBot) -> None:
    dialog = UnsentDialog()
    qtbot.addWidget(dialog)
    row = OutboxRow("cmd", "thr", "thread.turn.start", {}, "unsent", "msg", last_error="Refused.")
    text = "a [x](t3-context://v1/file/file_a1)"
    dialog.set_items([("msg", "unsent", outbox_line(row, "T", text), outbox_html(row, "T", text))])
    dialog.show()
    item = dialog.items.item(0)
    assert item.data(RICH_ROLE).count("Refused.") == 1
    assert dialog.items.visualItemRect(item).height() > dialog.fontMetrics().height() * 1.5
    assert dialog.retry_button.isEnabled()


def test_bar_shows_only_what_applies(qtbot: QtBot) -> None:
    bar = AppStatusBar()
    qtbot.addWidget(bar)
    bar.show()
    assert not bar.unsent.isVisible() and not bar.banner.isVisible()
    bar.set_unsent("2 unsent")
    bar.set_connection("Offline", True, "down")
    assert bar.tone == "down" and bar.dot.isVisible()
    bar.set_banner("No keyring", "Remember")
    assert bar.unsent.isVisible() and bar.retry.isVisible() and bar.remember.isVisible()
    with qtbot.waitSignal(bar.unsent_requested):
        bar.unsent.click()


def test_dialog_enables_retry_only_for_failed_items(qtbot: QtBot) -> None:
    dialog = UnsentDialog()
    qtbot.addWidget(dialog)
    dialog.set_items([("m1", "sending", "a"), ("m2", "unsent", "b")])
    assert dialog.selected() == "m1" and not dialog.retry_button.isEnabled()
    dialog.items.setCurrentRow(1)
    assert dialog.retry_button.isEnabled()
    with qtbot.waitSignal(dialog.retry_requested) as retried:
        dialog.retry_button.click()
    assert retried.args == ["m2"]
    dialog.set_items([])
    assert not dialog.edit_button.isEnabled() and dialog.empty.isVisibleTo(dialog)


def test_a_growing_reconnect_countdown_never_widens_the_window(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QMainWindow

    from composer_app.ui.window.main_window_logic import connection_text
    from composer_app.ui.window.status_bar import AppStatusBar

    window = QMainWindow()
    qtbot.addWidget(window)
    bar = AppStatusBar(window)
    window.setStatusBar(bar)
    window.show()
    bar.set_connection("Connected", False, "ok")
    label_width, hint = bar.connection.width(), window.minimumSizeHint().width()
    for seconds in (1, 9, 10, 99, 100, 999, 12345):
        text = connection_text("reconnecting", seconds, embedded=False, syncing=False)
        bar.set_connection(text, True, "down")
        assert bar.connection.text() == text
        assert bar.connection.width() == label_width
    assert window.minimumSizeHint().width() <= hint + bar.retry.sizeHint().width() + 8


def test_a_temporary_message_and_the_keyring_banner_never_draw_over_each_other(
        qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QMainWindow

    window = QMainWindow()
    qtbot.addWidget(window)
    bar = AppStatusBar(window)
    window.setStatusBar(bar)
    window.resize(900, 300)
    window.show()
    qtbot.waitExposed(window)
    bar.set_banner("No keyring", "Remember")
    assert bar.banner.isVisible() and bar.remember.isVisible()
    bar.showMessage("Workspace folder set to project", 0)
    assert not bar.banner.isVisible() and not bar.remember.isVisible()
    bar.set_banner("No keyring", "Remember")  # set again while the message shows
    assert not bar.banner.isVisible() and not bar.remember.isVisible()
    bar.clearMessage()  # the banner comes back once the message is gone
    assert bar.banner.isVisible() and bar.remember.isVisible()
    bar.set_banner(None)
    bar.showMessage("Saved", 0)
    bar.clearMessage()
    assert not bar.banner.isVisible() and not bar.remember.isVisible()
