"""Applying events and snapshots to the cache: dedupe by sequence, in-place replacement."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from composer_app.core.contracts.wire import decode_event, decode_server_frame
from composer_app.sync.replica import SHELL, Changes, Replica, thread_stream
from composer_app.sync.store import ClientStore, MessageRow, OutboxRow, ThreadRow

AT = "2026-11-30T14:02:11.000Z"
TID = "thr_1"
STREAM = thread_stream(TID)


def _event(seq: int, kind: str, payload: dict[str, Any]) -> Any:
    return decode_event({"sequence": seq, "eventId": f"evt_{seq}", "type": kind,
                         "threadId": TID, "occurredAt": AT, "payload": payload})


def _message(mid: str, text: str, role: str = "user") -> dict[str, Any]:
    return {"messageId": mid, "threadId": TID, "role": role, "text": text, "createdAt": AT}


@pytest.fixture
def replica(tmp_path: Path) -> Any:
    store = ClientStore(tmp_path / "c.sqlite3")
    seen: list[Changes] = []
    yield Replica(store, seen.append), store, seen
    store.close()


def test_events_at_or_below_the_cursor_are_skipped(replica: Any) -> None:
    rep, store, _ = replica
    created = _event(1, "thread.created", {"thread": {"threadId": TID, "title": "t",
                                                      "createdAt": AT, "updatedAt": AT}})
    assert rep.apply_event(STREAM, created) is not None
    delta = _event(4, "thread.assistant.delta",
                   {"messageId": "msg_a", "turnId": "turn_1", "textDelta": "Hel"})
    delta2 = _event(5, "thread.assistant.delta",
                    {"messageId": "msg_a", "turnId": "turn_1", "textDelta": "lo"})
    for event in (delta, delta2, delta, delta2):  # replay overlapping live delivery
        rep.apply_event(STREAM, event)
    row = store.message("msg_a")
    assert row.text == "Hello" and row.is_streaming
    assert store.cursor(STREAM) == 5
    assert rep.apply_event(STREAM, delta) is None
    completed = _event(6, "thread.assistant.completed",
                       {"messageId": "msg_a", "turnId": "turn_1", "text": "Hello!",
                        "sources": {"entries": []}, "completedAt": AT})
    rep.apply_event(STREAM, completed)
    row = store.message("msg_a")
    assert (row.text, row.is_streaming, row.sources) == ("Hello!", False, {"entries": []})


def test_message_sent_replaces_the_local_echo_in_place(replica: Any) -> None:
    rep, store, seen = replica
    store.upsert_message(MessageRow("msg_u", TID, "user", "hi", local_state="sending",
                                    attachments=({"attachmentId": "upl_1", "name": "a.png",
                                                  "mimeType": "image/png", "sizeBytes": 1},)))
    sent = _event(3, "thread.message-sent", {"message": {
        **_message("msg_u", "hi"),
        "attachments": [{"attachmentId": "att_9", "name": "a.png", "mimeType": "image/png",
                         "sizeBytes": 1}]}})
    changes = rep.apply_event(STREAM, sent)
    assert changes.messages == [(TID, "msg_u")] and seen[-1] is changes
    (row,) = store.messages(TID)
    assert row.local_state is None and row.sequence == 3
    assert row.attachments[0]["attachmentId"] == "att_9"


def test_a_failed_turn_stops_streaming(replica: Any) -> None:
    rep, store, _ = replica
    rep.apply_event(STREAM, _event(2, "thread.assistant.delta",
                                   {"messageId": "msg_a", "turnId": "turn_1", "textDelta": "x"}))
    rep.apply_event(STREAM, _event(3, "thread.turn-failed",
                                   {"turnId": "turn_1", "error": {"code": "x", "message": "y"}}))
    assert not store.message("msg_a").is_streaming


def test_thread_snapshot_replaces_server_rows_and_keeps_pending_ones(replica: Any) -> None:
    rep, store, _ = replica
    store.upsert_message(MessageRow("msg_stale", TID, "user", "stale", sequence=2))
    store.upsert_message(MessageRow("msg_mine", TID, "user", "pending", local_state="sending"))
    store.upsert_message(MessageRow("msg_b", TID, "user", "b", local_state="sent"))
    frame = decode_server_frame({"type": "snapshot", "subscriptionId": STREAM, "sequence": 40,
                                 "snapshot": {"kind": "thread", "sequence": 40,
                                              "thread": {"threadId": TID, "createdAt": AT,
                                                         "updatedAt": AT, "lastSequence": 39},
                                              "messages": [_message("msg_a", "a"),
                                                           _message("msg_b", "b")]}})
    rep.apply_snapshot(STREAM, frame.snapshot)
    assert [(m.message_id, m.local_state) for m in store.messages(TID)] == [
        ("msg_a", None), ("msg_b", None), ("msg_mine", "sending")]
    assert store.cursor(STREAM) == 40


def test_shell_events_announce_new_and_deleted_threads(replica: Any) -> None:
    rep, store, _ = replica
    created = _event(7, "thread.created", {"thread": {"threadId": TID, "createdAt": AT,
                                                      "updatedAt": AT}})
    changes = rep.apply_event(SHELL, created)
    assert changes.new_threads == [(TID, 6)] and changes.thread_list
    rep.apply_event(SHELL, _event(8, "thread.meta-updated", {"title": "Renamed"}))
    assert store.thread(TID).title == "Renamed"
    changes = rep.apply_event(SHELL, _event(9, "thread.deleted", {}))
    assert changes.deleted_threads == [TID] and store.thread(TID) is None
    frame = decode_server_frame({"type": "snapshot", "subscriptionId": SHELL, "sequence": 12,
                                 "snapshot": {"kind": "shell", "sequence": 12, "threads": [
                                     {"threadId": "thr_2", "createdAt": AT, "updatedAt": AT}]}})
    changes = rep.apply_snapshot(SHELL, frame.snapshot)
    assert changes.new_threads == [("thr_2", -1)]
    assert [t.thread_id for t in store.threads()] == ["thr_2"]


def test_a_reply_takes_its_place_at_turn_start_like_on_the_server(replica: Any) -> None:
    # Turn 1's output is written after message 2 was sent (turns overlap): the server orders
    # messages by the event that created them, the reply by its ``thread.turn-started``.
    rep, store, _ = replica
    events = [
        _event(1, "thread.message-sent", {"message": _message("msg_u1", "one")}),
        _event(2, "thread.turn-started", {"turnId": "turn_1", "messageId": "msg_a1",
                                          "userMessageId": "msg_u1"}),
        _event(3, "thread.message-sent", {"message": _message("msg_u2", "two")}),
        _event(4, "thread.turn-started", {"turnId": "turn_2", "messageId": "msg_a2",
                                          "userMessageId": "msg_u2"}),
        _event(5, "thread.assistant.delta",
               {"messageId": "msg_a2", "turnId": "turn_2", "textDelta": "Echo: two"}),
        _event(6, "thread.assistant.delta",
               {"messageId": "msg_a1", "turnId": "turn_1", "textDelta": "Echo: one"}),
    ]
    for event in events:
        rep.apply_event(STREAM, event)
    rows = store.messages(TID)
    assert [m.message_id for m in rows] == ["msg_u1", "msg_a1", "msg_u2", "msg_a2"]
    assert [(m.role, m.text, m.is_streaming) for m in rows][1] == ("assistant", "Echo: one", True)


def test_a_thread_keeps_the_provider_the_server_last_named(replica: Any) -> None:
    rep, store, _ = replica
    rep.apply_event(SHELL, _event(1, "thread.created", {"thread": {
        "threadId": TID, "title": "t", "createdAt": AT, "updatedAt": AT, "provider": "local"}}))
    assert store.thread(TID).provider == "local"
    rep.apply_event(SHELL, _event(2, "thread.meta-updated", {"title": "t", "provider": "openai"}))
    assert store.thread(TID).provider == "openai"
    rep.apply_event(SHELL, _event(3, "thread.meta-updated", {"title": "Renamed"}))
    assert (store.thread(TID).title, store.thread(TID).provider) == ("Renamed", "openai")
    frame = decode_server_frame({"type": "snapshot", "subscriptionId": SHELL, "sequence": 4,
                                 "snapshot": {"kind": "shell", "sequence": 4, "threads": [
                                     {"threadId": TID, "createdAt": AT, "updatedAt": AT,
                                      "provider": "echo"}]}})
    rep.apply_snapshot(SHELL, frame.snapshot)
    assert store.thread(TID).provider == "echo"


def test_a_queued_provider_choice_outlives_older_server_state(replica: Any) -> None:
    # The user chose ``echo`` while the server still says ``local``: the thread stream's replay of
    # ``thread.created``, a snapshot or a rename's event arriving first must not undo the choice.
    rep, store, _ = replica
    store.add_outbox(OutboxRow("cmd_p", TID, "thread.meta.update", {
        "commandId": "cmd_p", "threadId": TID, "createdAt": AT, "type": "thread.meta.update",
        "title": "t", "provider": "echo"}, "sending"))
    rep.apply_event(STREAM, _event(1, "thread.created", {"thread": {
        "threadId": TID, "title": "t", "createdAt": AT, "updatedAt": AT, "provider": "local"}}))
    assert store.thread(TID).provider == "echo"
    rep.apply_event(STREAM, _event(2, "thread.meta-updated", {"title": "R", "provider": "local"}))
    assert (store.thread(TID).title, store.thread(TID).provider) == ("R", "echo")
    for kind, body in (("shell", {"threads": [{"threadId": TID, "createdAt": AT, "updatedAt": AT,
                                               "provider": "local"}]}),
                       ("thread", {"thread": {"threadId": TID, "createdAt": AT, "updatedAt": AT,
                                              "provider": "local"}, "messages": []})):
        frame = decode_server_frame({"type": "snapshot", "subscriptionId": STREAM, "sequence": 3,
                                     "snapshot": {"kind": kind, "sequence": 3, **body}})
        rep.apply_snapshot(STREAM, frame.snapshot)
        assert store.thread(TID).provider == "echo"
    # Once the server has it (the item left the queue), the server's word counts again.
    store.remove_outbox("cmd_p")
    rep.apply_event(STREAM, _event(4, "thread.meta-updated", {"title": "R", "provider": "openai"}))
    assert store.thread(TID).provider == "openai"


def _shell_snapshot(sequence: int, threads: list[dict[str, Any]]) -> Any:
    return decode_server_frame({"type": "snapshot", "subscriptionId": SHELL, "sequence": sequence,
                                "snapshot": {"kind": "shell", "sequence": sequence,
                                             "threads": threads}}).snapshot


def test_a_thread_list_older_than_a_thread_neither_drops_nor_rewinds_it(replica: Any) -> None:
    # The list was read by the server before the thread existed and arrives after the client
    # learned of it (its creation was accepted at sequence 9): the thread stays, and a row the
    # cache knows at a later sequence is not replaced by the list's older state.
    rep, store, _ = replica
    store.upsert_thread(ThreadRow(TID, "Mine", AT, 9))
    store.upsert_thread(ThreadRow("thr_old", "Renamed later", AT, 8))
    store.upsert_thread(ThreadRow("thr_gone", "Deleted on the server", AT, 3))
    rep.apply_snapshot(SHELL, _shell_snapshot(5, [
        {"threadId": "thr_old", "title": "Old title", "createdAt": AT, "updatedAt": AT,
         "lastSequence": 4}]))
    assert {t.thread_id: t.title for t in store.threads()} == {
        TID: "Mine", "thr_old": "Renamed later"}
    rep.apply_snapshot(SHELL, _shell_snapshot(12, [
        {"threadId": "thr_old", "title": "Newest", "createdAt": AT, "updatedAt": AT,
         "lastSequence": 11}]))
    assert {t.thread_id: t.title for t in store.threads()} == {"thr_old": "Newest"}


def test_a_creation_replayed_on_the_threads_own_stream_does_not_undo_a_rename(
        replica: Any) -> None:
    # The shell stream applies the creation (1) and a rename (2); the thread's own stream,
    # subscribed from just before the creation, then replays the creation.
    rep, store, _ = replica
    created = _event(1, "thread.created", {"thread": {"threadId": TID, "createdAt": AT,
                                                      "updatedAt": AT}})
    renamed = _event(2, "thread.meta-updated", {"title": "Release notes"})
    rep.apply_event(SHELL, created)
    rep.apply_event(SHELL, renamed)
    rep.apply_event(STREAM, created)
    assert store.thread(TID) == ThreadRow(TID, "Release notes", AT, 2, provider=None)
    older = _event(1, "thread.message-sent", {"message": _message("msg_1", "hi")})
    rep.apply_event(thread_stream(TID) + "-replay", older)  # a message still lands...
    assert store.message("msg_1") is not None
    assert store.thread(TID).title == "Release notes"  # ...without rewinding the thread


def test_a_thread_snapshot_older_than_the_cached_thread_keeps_the_newer_row(
        replica: Any) -> None:
    rep, store, _ = replica
    store.upsert_thread(ThreadRow(TID, "Release notes", AT, 7))
    frame = decode_server_frame({"type": "snapshot", "subscriptionId": STREAM, "sequence": 5,
                                 "snapshot": {"kind": "thread", "sequence": 5,
                                              "thread": {"threadId": TID, "createdAt": AT,
                                                         "updatedAt": AT, "lastSequence": 4},
                                              "messages": [_message("msg_a", "a")]}})
    rep.apply_snapshot(STREAM, frame.snapshot)
    assert store.thread(TID).title == "Release notes"
    assert [m.message_id for m in store.messages(TID)] == ["msg_a"]
