"""POST /api/commands: receipts, validation, authorization, context records, legacy upgrade."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from composer_app.server.store.base import MessageRow
from composer_app.server.store.sqlite import SqliteStore
from tests.server.harness import Harness, cid, create_thread, harness, mid, skill, tid, turn_start


def error_of(response: object) -> dict[str, object]:
    body = response.json()  # type: ignore[attr-defined]
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "retryable"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]  # type: ignore[no-any-return]


def messages(h: Harness, who: dict[str, str], thread_id: str) -> list[dict[str, object]]:
    response = h.client.get(f"/api/threads/{thread_id}", headers=who)
    assert response.status_code == 200, response.text
    return response.json()["messages"]  # type: ignore[no-any-return]


def test_same_command_twice_returns_the_original_result_and_one_message(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    body = turn_start(thread, "hello")
    first = h.ok(h.alice, body)
    h.wait_turns()
    again = h.ok(h.alice, dict(reversed(list(body.items()))))  # key order does not matter
    assert again == first
    user_rows = [m for m in messages(h, h.alice, thread) if m["role"] == "user"]
    assert [m["messageId"] for m in user_rows] == [body["message"]["messageId"]]


def test_same_command_id_with_another_body_is_409(h: Harness) -> None:
    thread = tid()
    body = create_thread(thread, "One")
    h.ok(h.alice, body)
    response = h.command(h.alice, {**body, "title": "Two"})
    assert response.status_code == 409
    assert error_of(response) == {"code": "command_id_reused", "retryable": False,
                                  "message": error_of(response)["message"]}


def test_command_ids_are_scoped_per_device(h: Harness) -> None:
    command_id = cid()
    h.ok(h.alice, create_thread(tid(), command_id=command_id))
    h.ok(h.alice2, create_thread(tid(), command_id=command_id))


def test_a_rejected_command_repeats_its_error_and_writes_nothing(h: Harness) -> None:
    body = {"type": "thread.meta.update", "commandId": cid(), "threadId": tid(), "title": "x"}
    first = h.command(h.alice, body)
    assert first.status_code == 404 and error_of(first)["code"] == "unknown_thread"
    h.ok(h.alice, create_thread(body["threadId"]))
    second = h.command(h.alice, body)  # same commandId and body: the stored outcome
    assert (second.status_code, second.json()) == (first.status_code, first.json())


def test_existing_thread_id_is_409_thread_exists(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    response = h.command(h.alice, create_thread(thread))
    assert response.status_code == 409 and error_of(response)["code"] == "thread_exists"


def test_turn_start_with_bootstrap_creates_the_thread(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, turn_start(thread, "first", bootstrap=True))
    h.wait_turns()
    shell = h.client.get("/api/threads", headers=h.alice).json()
    assert [t["threadId"] for t in shell["threads"]] == [thread]
    assert [m["role"] for m in messages(h, h.alice, thread)] == ["user", "assistant"]


def test_turn_start_on_a_missing_thread_without_bootstrap_is_404(h: Harness) -> None:
    response = h.command(h.alice, turn_start(tid(), "x"))
    assert response.status_code == 404 and error_of(response)["code"] == "unknown_thread"


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"{not json", "malformed"),
        (b"[1, 2]", "not an object"),
        (b'{"type": "thread.create", "commandId": 7, "threadId": "thr_1"}', "wrong type"),
        (b'{"type": "thread.rename", "commandId": "cmd_1", "threadId": "thr_1"}', "unknown type"),
        (b'{"commandId": "cmd_1", "threadId": "thr_1"}', "no type"),
        (b'{"type": "thread.meta.update", "commandId": "cmd_1", "threadId": "t"}', "no title"),
        (b'{"type": "thread.create", "commandId": "c", "threadId": "t", "n": NaN}', "NaN"),
        (b"\xff\xfe", "not utf-8"),
    ],
)
def test_bad_input_is_400_invalid_command(h: Harness, raw: bytes, why: str) -> None:
    response = h.client.post("/api/commands", headers={**h.alice, "Content-Type":
                                                       "application/json"}, content=raw)
    assert response.status_code == 400, why
    assert error_of(response)["code"] == "invalid_command"


def test_oversize_body_is_413_too_large(tmp_path: Path) -> None:
    with harness(tmp_path, max_command_bytes=2_000) as h:
        body = turn_start(tid(), "x" * 5_000, bootstrap=True)
        response = h.command(h.alice, body)
        assert response.status_code == 413
        assert error_of(response)["code"] == "too_large"


def test_missing_or_bad_token_is_401(h: Harness) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic x"}):
        response = h.client.post("/api/commands", headers=headers, json=create_thread(tid()))
        assert response.status_code == 401
        assert error_of(response) == {"code": "unauthorized", "retryable": False,
                                      "message": error_of(response)["message"]}


def test_environment_needs_no_token_and_is_stable(h: Harness) -> None:
    first = h.client.get("/api/environment").json()
    assert first["capabilities"]["inlineMessageContext"] is True
    assert first["protocolVersion"] == 1
    assert first["environmentId"].startswith("env_")
    assert h.client.get("/api/environment").json() == first


def test_other_users_resources_answer_404(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    assert h.client.get(f"/api/threads/{thread}", headers=h.bob).status_code == 404
    for body in (
        {"type": "thread.meta.update", "commandId": cid(), "threadId": thread, "title": "mine"},
        {"type": "thread.delete", "commandId": cid(), "threadId": thread},
        turn_start(thread, "hi"),
    ):
        response = h.command(h.bob, body)
        assert response.status_code == 404, body["type"]
        assert error_of(response)["code"] == "unknown_thread"
    assert h.client.get("/api/threads", headers=h.bob).json()["threads"] == []
    # Ids are per user: bob's bootstrap with the same id makes a thread of his own.
    h.ok(h.bob, turn_start(thread, "hi", bootstrap=True))
    h.wait_turns()
    assert [(t["threadId"], t["title"]) for t in h.client.get(
        "/api/threads", headers=h.bob).json()["threads"]] == [(thread, "New")]
    assert [(t["threadId"], t["title"]) for t in h.client.get(
        "/api/threads", headers=h.alice2).json()["threads"]] == [(thread, "Hello")]


def test_deleted_thread_is_gone_from_snapshots(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    h.ok(h.alice, {"type": "thread.delete", "commandId": cid(), "threadId": thread})
    assert h.client.get(f"/api/threads/{thread}", headers=h.alice).status_code == 404
    assert h.client.get("/api/threads", headers=h.alice).json()["threads"] == []


def test_meta_update_renames(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread, "Old"))
    h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": thread,
                   "title": "New"})
    snapshot = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()
    assert snapshot["thread"]["title"] == "New"


def test_an_untitled_thread_is_titled_from_its_first_message(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread, None))
    h.ok(h.alice, turn_start(thread, "Why is the **build** failing?\nIt worked yesterday."))
    snapshot = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()
    assert snapshot["thread"]["title"] == "Why is the build failing?"
    listed = h.client.get("/api/threads", headers=h.alice).json()["threads"]
    assert [t["title"] for t in listed] == ["Why is the build failing?"]
    h.ok(h.alice, turn_start(thread, "A second question"))
    snapshot = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()
    assert snapshot["thread"]["title"] == "Why is the build failing?"
    h.wait_turns()


def test_a_named_thread_keeps_its_name_when_the_first_message_arrives(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread, None))
    h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": thread,
                   "title": "Renamed"})
    h.ok(h.alice, turn_start(thread, "first message"))
    snapshot = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()
    assert snapshot["thread"]["title"] == "Renamed"
    h.wait_turns()


def test_context_keeps_valid_records_and_drops_a_bad_one(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    context = {"version": 1, "records": [skill("s1"), {"version": 1, "kind": "image"},
                                         skill(" s2 ", "audit")]}
    text = "Use [review](t3-context://v1/skill/s1) and [audit](t3-context://v1/skill/s2)"
    h.ok(h.alice, turn_start(thread, text, context=context))
    h.wait_turns()
    user = messages(h, h.alice, thread)[0]
    assert user["text"] == text
    assert [r["contextId"] for r in user["context"]["records"]] == ["s1", "s2"]  # type: ignore[index]


@pytest.mark.parametrize(
    "context",
    [
        {"version": 1, "records": [skill("s1"), skill(" s1 ")]},
        {"version": 2, "records": []},
        {"version": 1, "records": [{}] * 201},
        {"version": 1, "records": "nope"},
    ],
    ids=["duplicate-id", "version", "too-many", "not-a-list"],
)
def test_fatal_context_errors_are_400(h: Harness, context: dict[str, object]) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    response = h.command(h.alice, turn_start(thread, "x", context=context))
    assert response.status_code == 400 and error_of(response)["code"] == "invalid_command"
    assert messages(h, h.alice, thread) == []


LEGACY = (
    "Look at @terminal-1:3-4 please\n\n<terminal_context>\n- Terminal 1 lines 3-4:\n"
    "  3 | npm test\n  4 | FAIL\n</terminal_context>"
)


def test_legacy_message_is_upgraded_on_read_and_never_rewritten(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    h.ok(h.alice, turn_start(thread, LEGACY))  # an old client: text only, no context
    h.wait_turns()
    user = messages(h, h.alice, thread)[0]
    assert "<terminal_context>" not in user["text"]  # type: ignore[operator]
    assert "t3-context://v1/terminal/legacy_terminal_1" in user["text"]  # type: ignore[operator]
    records = user["context"]["records"]  # type: ignore[index]
    assert [(r["kind"], r["lineStart"], r["lineEnd"]) for r in records] == [("terminal", 3, 4)]

    user_id = h.user_id(h.alice)
    stored = h.store.read_sync(lambda r: r.messages_of(user_id, thread))[0][0]
    assert (stored.text, stored.context) == (LEGACY, None)
    events = h.store.read_sync(lambda r: r.events_after(0, user_id, thread_id=thread))
    sent = next(e for e in events if e.event_type == "thread.message-sent")
    assert sent.payload["message"]["text"] == LEGACY
    assert "context" not in sent.payload["message"]


def test_legacy_row_written_by_an_old_server_is_upgraded(tmp_path: Path) -> None:
    with harness(tmp_path) as h:
        thread = tid()
        h.ok(h.alice, create_thread(thread))
        message_id = mid()

        user_id = h.user_id(h.alice)

        def old_row(tx: object) -> None:
            tx.insert_message(MessageRow(  # type: ignore[attr-defined]
                message_id=message_id, thread_id=thread, turn_id=None, role="user",
                text=LEGACY, is_streaming=False, created_at="2025-01-01T00:00:00Z",
                created_sequence=1, user_id=user_id))

        h.store.write_sync(old_row)
        first = messages(h, h.alice, thread)[0]
        assert first["context"]["records"][0]["kind"] == "terminal"  # type: ignore[index]
        assert messages(h, h.alice, thread)[0] == first  # deterministic
    raw = SqliteStore.in_dir(tmp_path)
    raw.open()
    try:
        row = raw.read_sync(lambda r: r.messages_of(user_id, thread))[0][0]
        assert (row.text, row.context) == (LEGACY, None)
    finally:
        raw.close()


def test_interrupt_of_an_unknown_turn_is_404(h: Harness) -> None:
    thread = tid()
    h.ok(h.alice, create_thread(thread))
    response = h.command(h.alice, {"type": "thread.turn.interrupt", "commandId": cid(),
                                   "threadId": thread, "turnId": "turn_x"})
    assert response.status_code == 404


def test_receipt_sequence_is_the_last_event_of_the_command(h: Harness) -> None:
    thread = tid()
    created = h.ok(h.alice, create_thread(thread))
    started = h.ok(h.alice, turn_start(thread, "hi"))
    h.wait_turns()
    assert started["sequence"] == created["sequence"] + 2  # message-sent, turn-started
    assert json.dumps(started)  # plain JSON


def test_the_command_route_answers_failures_as_the_other_routes_do(h: Harness) -> None:
    """``POST /api/commands`` is served ahead of the middleware stack: its other methods still go
    through the stack, and a storage failure gets the answer every other route gives."""
    response = h.client.get("/api/commands", headers=h.alice)
    assert response.status_code == 405 and error_of(response)["code"] == "invalid_command"
    h.ok(h.alice, create_thread(tid()))  # the device is known to the process
    h.store.close()  # the database is gone
    command = h.command(h.alice, create_thread(tid()))
    other = h.client.get("/api/threads", headers=h.alice)
    assert command.status_code == other.status_code == 503
    assert command.json() == other.json() and error_of(command)["code"] == "unavailable"
    assert error_of(command)["retryable"] is True
    assert command.headers["retry-after"] == other.headers["retry-after"] == "1"
    assert command.headers["content-type"] == other.headers["content-type"]
