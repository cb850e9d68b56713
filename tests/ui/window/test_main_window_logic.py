"""Pure decisions of the main window."""

from __future__ import annotations

from composer_app.sync.store import MessageRow, OutboxRow
from composer_app.ui.window.main_window_logic import (
    can_retry_now,
    connection_text,
    connection_tone,
    message_wire,
    next_pane,
    plan_refresh,
    summarize_outbox,
    unsent_text,
)


def _row(state: str, message_id: str | None = "msg_1") -> OutboxRow:
    return OutboxRow("cmd", "thr", "thread.turn.start", {}, state, message_id)


def test_connection_texts() -> None:
    assert connection_text("connected", 0, embedded=True, syncing=False) == "Embedded server"
    assert connection_text("connected", 0, embedded=False, syncing=False) == "Connected"
    assert connection_text("connected", 0, embedded=False, syncing=True) == "Syncing…"
    assert connection_text("reconnecting", 4, embedded=False, syncing=False) == (
        "Reconnecting (next try in 4 s)")
    assert connection_text("offline", 0, embedded=False, syncing=True) == "Offline"
    assert connection_text("error", 0, embedded=True, syncing=False) == "Connection error"
    assert can_retry_now("offline") and not can_retry_now("connected")


def test_connection_tones() -> None:
    assert connection_tone("connected", syncing=False) == "ok"
    assert connection_tone("connected", syncing=True) == "busy"
    assert connection_tone("reconnecting", syncing=False) == "busy"
    assert connection_tone("connecting", syncing=False) == "busy"
    assert connection_tone("offline", syncing=True) == "down"
    assert connection_tone("error", syncing=False) == "error"


def test_outbox_summary_counts_messages_not_commands() -> None:
    summary = summarize_outbox([_row("sending"), _row("unsent", "msg_2"), _row("blocked", "m3"),
                                _row("sending", None)])
    assert (summary.unsent, summary.failed, summary.sending) == (3, 1, True)
    assert unsent_text(summary) == "3 unsent (1 not sent)"
    assert unsent_text(summarize_outbox([_row("sending", None)])) == ""


def test_next_pane_wraps_and_skips_hidden_panes() -> None:
    visible = [True, True, True, False]
    assert next_pane(visible, -1) == 0
    assert next_pane(visible, 2) == 0
    assert next_pane(visible, 0, -1) == 2
    assert next_pane([False, False], 0) == -1


def test_refresh_plan_upserts_changed_rows_and_reloads_on_removal() -> None:
    a = MessageRow("m1", "t", "user", "hi")
    b = MessageRow("m2", "t", "assistant", "he", is_streaming=True)
    b2 = MessageRow("m2", "t", "assistant", "hello")
    assert plan_refresh({}, [a, b]).upserts == (a, b)
    plan = plan_refresh({"m1": a, "m2": b}, [a, b2])
    assert not plan.reload and plan.upserts == (b2,)
    assert plan_refresh({"m1": a, "m2": b}, [b2]).reload


def test_message_wire_uses_camel_case_and_omits_missing_parts() -> None:
    row = MessageRow("m1", "t1", "assistant", "x", sources=[{"id": "s"}], created_at="2026")
    assert message_wire(row) == {"messageId": "m1", "threadId": "t1", "role": "assistant",
                                 "text": "x", "isStreaming": False, "createdAt": "2026",
                                 "sources": [{"id": "s"}]}


def test_sent_here_only_for_the_users_own_sending_echo() -> None:
    from composer_app.sync.store import MessageRow
    from composer_app.ui.window.main_window_logic import sent_here

    sending = MessageRow("m1", "t", "user", "hi", local_state="sending")
    assert sent_here([sending])
    assert not sent_here([MessageRow("m1", "t", "user", "hi")])
    assert not sent_here([MessageRow("m2", "t", "assistant", "delta", is_streaming=True)])


def test_unsent_by_server_names_the_server_when_all_of_it_waits_on_one() -> None:
    from composer_app.ui.window.main_window_logic import OutboxSummary, unsent_by_server

    none, two, one = OutboxSummary(0, 0, False), OutboxSummary(2, 1, False), OutboxSummary(
        1, 0, True)
    assert unsent_by_server([("This computer", none), ("Team", none)]) == ("", "")
    assert unsent_by_server([("This computer", two)]) == ("2 unsent (1 not sent)",
                                                         "This computer: 2 unsent (1 not sent)")
    assert unsent_by_server([("This computer", none), ("Team", two)]) == (
        "2 unsent on Team (1 not sent)", "Team: 2 unsent (1 not sent)")
    assert unsent_by_server([("This computer", one), ("Team", two)]) == (
        "3 unsent (1 not sent)", "This computer: 1 unsent; Team: 2 unsent (1 not sent)")
