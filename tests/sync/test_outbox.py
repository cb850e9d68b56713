"""Outbox scheduling, upload binding and the legacy fold (pure parts)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.legacy import serialize_legacy_message, upgrade_legacy_message
from composer_app.core.contracts.environment import Capabilities
from composer_app.core.contracts.messages import decode_message_context
from composer_app.core.contracts.records import decode_record
from composer_app.sync.backoff import SEND_BUDGET_SECONDS
from composer_app.sync.engine import SyncEngine
from composer_app.sync.outbox import (
    SENDING,
    UNSENT,
    EditedMessage,
    accepted_sequence,
    bind_uploads,
    failure_reason,
    fold_for_destination,
    missing_file_reason,
    plan_failure,
    unknown_attachment_id,
)
from composer_app.sync.store import OutboxRow, UploadRow
from tests.sync.conftest import WAIT, Fault, LoopbackServer, ManualClock

Make = Any

T0 = 1_000_000.0

TERMINAL = {
    "version": 1, "kind": "terminal", "contextId": "ctx_term", "label": "build log",
    "terminalId": "t1", "terminalLabel": "Terminal 1", "lineStart": 3, "lineEnd": 4,
    "text": "make: ok\nmake: done",
}
IMAGE = {
    "version": 1, "kind": "image", "contextId": "ctx_img", "label": "shot.png",
    "attachmentId": "upl_local", "name": "shot.png", "mimeType": "image/png", "sizeBytes": 4,
}
TEXT = ("See [build log](t3-context://v1/terminal/ctx_term) and "
        "![shot.png](t3-context://v1/image/ctx_img)")


def _row(**kw: Any) -> OutboxRow:
    base: dict[str, Any] = {"command_id": "cmd_1", "thread_id": "thr_1",
                            "kind": "thread.turn.start", "payload": {}, "state": SENDING}
    base.update(kw)
    return OutboxRow(**base)


def test_first_failure_schedules_about_a_second_and_starts_the_budget() -> None:
    row = plan_failure(_row(), T0, None, None, "timeout", random.Random(1))
    assert row.state == SENDING and row.attempts == 1 and row.first_attempt_at == T0
    assert T0 + 0.5 <= row.next_attempt_at <= T0 + 1


def test_schedule_doubles_and_honours_retry_after() -> None:
    rng = random.Random(2)
    row = _row(first_attempt_at=T0)
    delays = []
    now = T0
    for _ in range(5):
        row = plan_failure(row, now, 503, None, "unavailable", rng)
        delays.append(row.next_attempt_at - now)
        now = row.next_attempt_at
    for n, d in enumerate(delays, start=1):
        assert 2 ** (n - 1) / 2 <= d <= 2 ** (n - 1)
    row = plan_failure(row, now, 429, 42.0, "rate_limited", rng)
    assert row.next_attempt_at - now >= 42.0


def test_budget_ends_in_unsent_with_a_last_try_at_the_limit() -> None:
    rng = random.Random(3)
    row = _row(first_attempt_at=T0)
    now = T0
    seen_unsent = False
    for _ in range(100):
        row = plan_failure(row, now, 503, None, "unavailable", rng)
        if row.state == UNSENT:
            seen_unsent = True
            break
        assert row.next_attempt_at <= T0 + SEND_BUDGET_SECONDS
        now = row.next_attempt_at
    assert seen_unsent
    assert now == pytest.approx(T0 + SEND_BUDGET_SECONDS)
    assert row.last_error == "unavailable"


def test_retry_after_beyond_the_budget_gives_up_at_once() -> None:
    row = plan_failure(_row(first_attempt_at=T0), T0 + 290, 429, 30.0, "rate_limited",
                       random.Random(4))
    assert row.state == UNSENT


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 413, 422])
def test_non_retryable_answers_end_in_unsent(status: int) -> None:
    row = plan_failure(_row(), T0, status, None, "nope", random.Random(5))
    assert row.state == UNSENT and row.last_error == "nope"
    assert row.for_good and row.reason is not None and row.reason.endswith(".")


def test_failure_reasons_are_plain_words() -> None:
    assert failure_reason(401, "unauthorized") == "The server did not accept the token."
    assert failure_reason(422, "invalid_context") == (
        "The server refused the message (invalid_context).")
    assert failure_reason(None, None) == "The server could not be reached for 5 minutes."
    assert missing_file_reason("a.pdf") == (
        "The file a.pdf is no longer on the server and its copy is gone.")
    assert unknown_attachment_id({"error": {"code": "unknown_attachment",
                                            "message": "Unknown attachment att_1."}}) == "att_1"
    assert unknown_attachment_id({"error": "x"}) is None


def _payload() -> dict[str, Any]:
    return {"type": "thread.turn.start", "commandId": "cmd_1", "threadId": "thr_1",
            "message": {"messageId": "msg_1", "role": "user", "text": TEXT, "attachments": [],
                        "context": {"version": 1, "records": [TERMINAL, IMAGE]}}}


@given(st.one_of(st.none(), st.booleans(), st.integers(), st.text(), st.lists(st.integers()),
                 st.dictionaries(st.text(), st.one_of(st.integers(), st.text(), st.none()))))
def test_accepted_sequence_is_a_positive_int_or_zero(body: Any) -> None:
    value = accepted_sequence(body)
    assert isinstance(value, int) and not isinstance(value, bool) and value >= 0
    wanted = body.get("sequence") if isinstance(body, dict) else None
    assert value == (wanted if isinstance(wanted, int) and wanted > 0 else 0)


def test_accepted_sequence_reads_the_command_answer() -> None:
    assert accepted_sequence({"accepted": True, "sequence": 41}) == 41
    assert accepted_sequence({"sequence": True}) == 0
    assert accepted_sequence({"sequence": "41"}) == 0


def test_bind_uploads_rewrites_local_ids_to_pending_ids() -> None:
    upload = UploadRow("upl_local", "/x", "shot.png", "image/png", "0" * 64, 4, "uploaded",
                       server_attachment_id="att_pending")
    body = bind_uploads(_payload(), [upload])
    assert body["message"]["attachments"] == [
        {"attachmentId": "att_pending", "name": "shot.png", "mimeType": "image/png",
         "sizeBytes": 4}]
    records = body["message"]["context"]["records"]
    assert records[1]["attachmentId"] == "att_pending"
    assert records[0] == TERMINAL
    assert _payload()["message"]["context"]["records"][1]["attachmentId"] == "upl_local"


def test_fold_keeps_context_for_inline_capable_destinations() -> None:
    body = _payload()
    assert fold_for_destination(body, Capabilities(inline_message_context=True)) == body


@pytest.mark.parametrize("caps", [Capabilities(), Capabilities(inline_message_context=False)])
def test_fold_serializes_legacy_text_without_context(caps: Capabilities) -> None:
    folded = fold_for_destination(_payload(), caps)
    message = folded["message"]
    assert "context" not in message
    records = decode_message_context(_payload()["message"]["context"]).records
    assert message["text"] == serialize_legacy_message(TEXT, records)
    assert "<terminal_context>" in message["text"]
    _, upgraded = upgrade_legacy_message(message["text"])
    assert [r.kind for r in upgraded] == ["terminal"]


# --- against the real server on loopback ---------------------------------------------------------

def _row_of(engine: SyncEngine, message_id: str) -> OutboxRow | None:
    rows = [r for r in engine.outbox_items().result(WAIT) if r.message_id == message_id]
    return rows[0] if rows else None


def _users(server: LoopbackServer, token: str, thread_id: str) -> list[str]:
    data = server.get(f"/api/threads/{thread_id}", token, missing={"messages": []})
    return [m["text"] for m in data["messages"] if m["role"] == "user"]


def _commands_for(server: LoopbackServer, message_id: str) -> list[dict[str, Any]]:
    return [b for b in server.faults.forwarded
            if b.get("message", {}).get("messageId") == message_id]


def test_backoff_retry_after_budget_then_retry_edit_delete(server: LoopbackServer,
                                                           make_engine: Make) -> None:
    clock = ManualClock(T0)
    token = server.token()
    engine, rec = make_engine(server.base_url, token, clock=clock, rng=random.Random(9))
    rec.wait(lambda: engine.connection_state[0] == "connected")
    thread_a = engine.create_thread("A").result(WAIT)
    thread_b = engine.create_thread("B").result(WAIT)
    rec.wait(lambda: not engine.outbox_items().result(WAIT))
    server.faults.rules.append(Fault(status=503, retry_after="7", thread_id=thread_a))
    m1 = engine.send_message(thread_a, "first").result(WAIT)
    m2 = engine.send_message(thread_a, "second").result(WAIT)
    m3 = engine.send_message(thread_b, "other thread").result(WAIT)
    rec.wait(lambda: rec.saw("outbox", thread_b, m3, "sent"))  # other threads keep flowing

    row = rec.wait(lambda: (r := _row_of(engine, m1)) and r.attempts == 1 and r)
    assert row.first_attempt_at == T0 and row.next_attempt_at == T0 + 7  # Retry-After floor
    assert _commands_for(server, m2) == []  # nothing overtakes the head

    clock.t = T0 + 7
    engine.wake()
    row = rec.wait(lambda: (r := _row_of(engine, m1)) and r.attempts == 2 and r)
    assert T0 + 14 <= row.next_attempt_at <= T0 + 14 + 2
    server.faults.clear()
    server.faults.rules.append(Fault(status=429, thread_id=thread_a, retry_after=format_datetime(
        datetime.fromtimestamp(row.next_attempt_at + 40, UTC), usegmt=True)))
    clock.t = row.next_attempt_at
    engine.wake()
    row = rec.wait(lambda: (r := _row_of(engine, m1)) and r.attempts == 3 and r)
    assert row.next_attempt_at >= clock.t + 39  # HTTP-date Retry-After (second precision)
    assert row.last_error == "rate_limited"

    clock.t = T0 + SEND_BUDGET_SECONDS
    engine.wake()
    rec.wait(lambda: rec.saw("outbox", thread_a, m1, "unsent"))
    rec.wait(lambda: rec.saw("outbox", thread_a, m2, "blocked"))
    states = {m.message_id: m.local_state for m in engine.messages(thread_a).result(WAIT)}
    assert states[m1] == "unsent" and states[m2] == "blocked"
    reasons = {m.message_id: m.reason for m in engine.messages(thread_a).result(WAIT)}
    assert reasons[m1] == "The server was unavailable for 5 minutes (rate_limited)."
    assert reasons[m2] == "Waiting for an earlier message that was not sent."
    assert not _row_of(engine, m1).for_good  # type: ignore[union-attr]
    assert len({b["commandId"] for b in _commands_for(server, m1)}) == 1  # one command id

    m4 = engine.send_message(thread_a, "third").result(WAIT)
    rec.wait(lambda: (r := _row_of(engine, m4)) and r.state == "blocked")
    edited = engine.edit(m2).result(WAIT)
    assert edited is not None and edited.text == "second" and edited.thread_id == thread_a
    assert rec.saw("message_removed", thread_a, m2)
    assert m2 not in {m.message_id for m in engine.messages(thread_a).result(WAIT)}

    server.faults.clear()
    assert engine.retry(m1).result(WAIT)
    rec.wait(lambda: rec.saw("outbox", thread_a, m4, "sent"))
    rec.wait(lambda: _users(server, token, thread_a) == ["first", "third"])

    server.faults.rules.append(Fault(status=400, thread_id=thread_a))
    m5 = engine.send_message(thread_a, "refused").result(WAIT)
    rec.wait(lambda: rec.saw("outbox", thread_a, m5, "unsent"))
    assert engine.delete(m5).result(WAIT)
    assert _row_of(engine, m5) is None
    assert m5 not in {m.message_id for m in engine.messages(thread_a).result(WAIT)}
    assert not engine.retry(m5).result(WAIT)


def test_edit_and_delete_wait_for_an_attempt_in_flight(server: LoopbackServer,
                                                       make_engine: Make) -> None:
    # Clicked while a (re)try is on the wire: the item is taken back once that attempt failed,
    # and never once it was delivered (the message would be both sent and in the composer).
    import threading

    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    rec.wait(lambda: engine.connection_state[0] == "connected")
    thread_id = engine.create_thread("T").result(WAIT)
    rec.wait(lambda: not engine.outbox_items().result(WAIT))
    for fails, take_back in ((True, engine.edit), (False, engine.edit), (True, engine.delete),
                             (False, engine.delete)):
        release = threading.Event()
        rule = Fault(status=503, thread_id=thread_id, hold=release, fail_after_hold=fails,
                     remaining=1)
        server.faults.rules.append(rule)
        text = f"{take_back.__name__} {'fails' if fails else 'delivered'}"
        message_id = engine.send_message(thread_id, text).result(WAIT)
        assert rule.reached.wait(WAIT)
        answer = take_back(message_id)
        engine.outbox_items().result(WAIT)  # the loop has run the take-back's first step
        assert not answer.done()  # it waits for the attempt on the wire
        release.set()
        result = answer.result(WAIT)
        if fails:
            assert (result.text == text if isinstance(result, EditedMessage)
                    else result is True)
            assert _row_of(engine, message_id) is None
            assert message_id not in {m.message_id
                                      for m in engine.messages(thread_id).result(WAIT)}
        else:
            assert result in (None, False)
            rec.wait(lambda: not engine.outbox_items().result(WAIT))
        server.faults.clear()
    rec.wait(lambda: _users(server, token, thread_id) == ["edit delivered", "delete delivered"])


def test_legacy_fold_for_a_destination_without_inline_context(tmp_path: Path,
                                                              make_engine: Make) -> None:
    server = LoopbackServer(tmp_path / "old", inline_message_context=False).start()
    try:
        token = server.token()
        engine, rec = make_engine(server.base_url, token)
        thread_id = engine.create_thread().result(WAIT)
        text = "See [build log](t3-context://v1/terminal/ctx_term)"
        message_id = engine.send_message(thread_id, text, [decode_record(TERMINAL)]).result(WAIT)
        rec.wait(lambda: rec.saw("outbox", thread_id, message_id, "sent"))
        (body,) = _commands_for(server, message_id)
        assert "context" not in body["message"]
        expected = serialize_legacy_message(text, [decode_record(TERMINAL)])
        assert body["message"]["text"] == expected
        assert expected.startswith("See @terminal-1:3-4") and "<terminal_context>" in expected
        stored = server.get(f"/api/threads/{thread_id}", token)["messages"][0]
        assert stored["messageId"] == message_id
    finally:
        server.stop()


def test_a_failing_local_disk_backs_off_instead_of_resending_in_a_loop(
        server: LoopbackServer, make_engine: Make) -> None:
    import threading

    clock = ManualClock()
    engine, rec = make_engine(server.base_url, server.token(), clock=clock)
    thread_id = engine.create_thread("Disk").result(WAIT)
    rec.wait(lambda: not engine.outbox_items().result(WAIT)
             and engine.connection_state == ("connected", 0))
    release = threading.Event()
    rule = Fault(hold=release, remaining=1)
    server.faults.rules.append(rule)
    engine.send_message(thread_id, "kept once").result(WAIT)
    assert rule.reached.wait(WAIT)
    db = engine._store._db

    async def set_query_only(on: bool) -> None:
        db.execute(f"PRAGMA query_only = {'ON' if on else 'OFF'}")
    engine._submit(set_query_only(True)).result(WAIT)
    release.set()  # the server accepts; recording that locally fails
    rec.wait(lambda: [c for c in rec.calls if c[0] == "toast" and "resumes" in c[3]])
    posts = len([r for r in server.faults.requests if r[1] == "/api/commands"])
    for _ in range(5):  # wake-ups before the backoff is over send nothing
        engine.wake()
        engine.threads().result(WAIT)
    assert len([r for r in server.faults.requests if r[1] == "/api/commands"]) == posts
    assert len([c for c in rec.calls if c[0] == "toast" and "resumes" in c[3]]) == 1
    engine._submit(set_query_only(False)).result(WAIT)
    clock.t += 120
    engine.retry_now()
    rec.wait(lambda: not engine.outbox_items().result(WAIT))
    texts = [m.text for m in engine.messages(thread_id).result(WAIT) if m.role == "user"]
    rec.wait(lambda: [m.text for m in engine.messages(thread_id).result(WAIT)
                      if m.role == "user"] == ["kept once"])
    assert texts in (["kept once"], [])
def test_failed_send_does_not_block_later_messages(tmp_path: Path, server: LoopbackServer,
                                                   make_engine: Make) -> None:
    token = server.token()
    engine, rec = make_engine(server.base_url, token)
    thread_id = engine.create_thread().result(WAIT)
    source = tmp_path / "report.pdf"
    source.write_bytes(b"%PDF-1.4 q")
    upload = engine.attach_file(source).result(WAIT)
    rec.wait(lambda: rec.saw("upload", upload.local_id, "uploaded", upload.size))
    server_id = next(u for u in engine.uploads().result(WAIT)
                     if u.local_id == upload.local_id).server_attachment_id
    with httpx.Client(base_url=server.base_url, timeout=WAIT) as client:
        assert client.delete(f"/api/attachments/{server_id}",
                             headers={"Authorization": f"Bearer {token}"}).status_code == 204
    Path(upload.path).unlink()  # the kept copy is gone too
    record = decode_record({"version": 1, "kind": "file", "contextId": "ctx_report",
                            "label": "report.pdf", "attachmentId": upload.local_id,
                            "name": "report.pdf", "mimeType": "application/pdf",
                            "sizeBytes": upload.size})
    m1 = engine.send_message(thread_id, "see [report.pdf](t3-context://v1/file/ctx_report)",
                             [record], [upload.local_id]).result(WAIT)
    m2 = engine.send_message(thread_id, "and this goes anyway").result(WAIT)
    rec.wait(lambda: rec.saw("outbox", thread_id, m2, "sent"))
    assert _users(server, token, thread_id) == ["and this goes anyway"]
    reason = "The file report.pdf is no longer on the server and its copy is gone."
    failed = _row_of(engine, m1)
    assert failed is not None and failed.state == UNSENT and failed.for_good
    assert failed.reason == reason and failed.last_error == "unknown_attachment"
    [echo] = [m for m in engine.messages(thread_id).result(WAIT) if m.message_id == m1]
    assert echo.local_state == "unsent" and echo.reason == reason
    assert engine.retry(m1).result(WAIT)  # Retry tries again and says why once more
    rec.wait(lambda: (r := _row_of(engine, m1)) is not None and r.state == UNSENT
             and r.reason == reason)


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                     lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                     max_leaves=12)


@given(body=_json | st.fixed_dictionaries({"error": st.fixed_dictionaries(
    {"message": st.text()})}))
def test_any_error_body_gives_an_id_or_none(body: Any) -> None:
    found = unknown_attachment_id(body)
    if found is not None:  # a word of the error's message
        assert found in body["error"]["message"].split() or f"{found}." in (
            body["error"]["message"].split())


def test_a_defect_while_sending_backs_off_and_says_so_instead_of_spinning(
        server: LoopbackServer, make_engine: Make, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    clock = ManualClock(T0)
    engine, rec = make_engine(server.base_url, server.token(), clock=clock, rng=random.Random(3))
    rec.wait(lambda: engine.connection_state[0] == "connected")
    thread = engine.create_thread("A").result(WAIT)
    rec.wait(lambda: not engine.outbox_items().result(WAIT))
    calls: list[int] = []

    def broken(*_args: Any) -> dict[str, Any]:
        calls.append(1)
        raise TypeError("a bug")

    monkeypatch.setattr("composer_app.sync.outbox.fold_for_destination", broken)
    message = engine.send_message(thread, "hello").result(WAIT)
    row = rec.wait(lambda: (r := _row_of(engine, message)) and r.attempts == 1 and r)
    assert row.state == "sending" and row.next_attempt_at > T0  # waits, like after a failure
    assert row.last_error == "internal error: TypeError"
    assert len(calls) == 1 and "failed unexpectedly" in caplog.text
    clock.t = T0 + SEND_BUDGET_SECONDS
    engine.wake()
    rec.wait(lambda: rec.saw("outbox", thread, message, "unsent"))
    reasons = {m.message_id: m.reason for m in engine.messages(thread).result(WAIT)}
    assert reasons[message] == "The app could not send it (internal error: TypeError); see the log."
