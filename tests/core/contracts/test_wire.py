"""Wire models: tagged unions, camelCase round trips, context decoding, rejections."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.contracts.environment import Environment
from composer_app.core.contracts.wire import (
    COMMAND_TYPES,
    EVENT_TYPES,
    AttachmentRef,
    ShellSnapshot,
    SnapshotFrame,
    SubscribeFrame,
    ThreadStream,
    ThreadTurnStartCommand,
    UserMessageInput,
    decode_client_frame,
    decode_command,
    decode_event,
    decode_server_frame,
    encode_command,
    encode_event,
    error_body,
    format_timestamp,
    parse_timestamp,
)
from composer_app.core.errors import ContractError

ids = st.text(alphabet="abcdef0123456789_", min_size=1, max_size=40)
texts = st.text(max_size=200)


def skill(context_id: str) -> dict[str, Any]:
    return {"version": 1, "kind": "skill", "contextId": context_id, "label": "l", "name": "n"}


@given(command_id=ids, thread_id=ids, message_id=ids, text=texts,
       title=st.none() | texts, size=st.integers(0, 2**53 - 1))
def test_turn_start_round_trips(command_id: str, thread_id: str, message_id: str, text: str,
                                title: str | None, size: int) -> None:
    command = ThreadTurnStartCommand(
        command_id=command_id, thread_id=thread_id,
        message=UserMessageInput(message_id=message_id, text=text, attachments=[
            AttachmentRef(attachment_id="att_1", name="a.png", mime_type="image/png",
                          size_bytes=size)]))
    wire = encode_command(command)
    assert wire["type"] == "thread.turn.start" and wire["commandId"] == command_id
    assert wire["message"]["attachments"][0]["sizeBytes"] == size
    assert decode_command(wire) == command


def test_message_context_drops_bad_records_and_rejects_duplicates() -> None:
    body = {"type": "thread.turn.start", "commandId": "c", "threadId": "t", "message": {
        "messageId": "m", "text": "x", "context": {"version": 1, "records": [
            skill(" s1 "), {"version": 1, "kind": "image"}]}}}
    command = decode_command(body)
    assert isinstance(command, ThreadTurnStartCommand) and command.message.context is not None
    assert [r.context_id for r in command.message.context.records] == ["s1"]
    assert encode_command(command)["message"]["context"]["records"] == [skill("s1")]
    body["message"]["context"]["records"] = [skill("s1"), skill("s1 ")]  # type: ignore[index]
    with pytest.raises(ContractError):
        decode_command(body)


@pytest.mark.parametrize("obj", [
    None, [], "x", {"type": "thread.rename", "commandId": "c", "threadId": "t"},
    {"commandId": "c", "threadId": "t"},
    {"type": "thread.create", "commandId": 1, "threadId": "t"},
    {"type": "thread.create", "commandId": "", "threadId": "t"},
    {"type": "thread.meta.update", "commandId": "c", "threadId": "t"},
    {"type": "thread.turn.interrupt", "commandId": "c", "threadId": "t"},
    {"type": "thread.turn.start", "commandId": "c", "threadId": "t",
     "message": {"messageId": "m", "role": "assistant", "text": "x"}},
    {"type": "thread.turn.start", "commandId": "c", "threadId": "t",
     "message": {"messageId": "m", "text": "x", "attachments": [{"attachmentId": "a"}]}},
])
def test_bad_commands_raise_contract_error(obj: object) -> None:
    with pytest.raises(ContractError):
        decode_command(obj)


def test_every_command_type_decodes() -> None:
    extra: dict[str, dict[str, Any]] = {
        "thread.meta.update": {"title": "t"},
        "thread.turn.start": {"message": {"messageId": "m", "text": "x"}},
        "thread.turn.interrupt": {"turnId": "turn_1"},
    }
    for kind in COMMAND_TYPES:
        body = {"type": kind, "commandId": "c", "threadId": "t", **extra.get(kind, {})}
        assert decode_command(body).type == kind
        assert encode_command(decode_command(body))["type"] == kind


PAYLOADS: dict[str, dict[str, Any]] = {
    "thread.created": {"thread": {"threadId": "t", "createdAt": "a", "updatedAt": "b"}},
    "thread.meta-updated": {"title": "x"},
    "thread.deleted": {},
    "thread.message-sent": {"message": {"messageId": "m", "threadId": "t", "role": "user",
                                        "text": "x", "createdAt": "a",
                                        "context": {"version": 1, "records": [skill("s")]}}},
    "thread.turn-started": {"turnId": "u", "messageId": "m"},
    "thread.assistant.delta": {"messageId": "m", "turnId": "u", "textDelta": "d"},
    "thread.assistant.completed": {"messageId": "m", "turnId": "u", "text": "x",
                                   "sources": {"version": 1, "entries": []},
                                   "metadata": {"groundingMode": "mixed"}, "completedAt": "c"},
    "thread.turn-failed": {"turnId": "u", "error": {"code": "x", "message": "y"}},
    "thread.turn-interrupted": {"turnId": "u"},
}


@pytest.mark.parametrize("kind", EVENT_TYPES)
def test_events_round_trip(kind: str) -> None:
    envelope = {"sequence": 7, "eventId": "evt_1", "type": kind, "threadId": "t",
                "occurredAt": "2026-11-30T14:02:11Z", "commandId": "cmd_1",
                "payload": PAYLOADS[kind]}
    event = decode_event(envelope)
    again = encode_event(event)
    assert again["type"] == kind and again["sequence"] == 7
    assert decode_event(again) == event


def test_event_sequence_must_be_a_positive_integer() -> None:
    for sequence in (0, -1, "3", 1.5, True):
        with pytest.raises(ContractError):
            decode_event({"sequence": sequence, "eventId": "e", "type": "thread.deleted",
                          "threadId": "t", "occurredAt": "x", "payload": {}})


def test_frames() -> None:
    frame = SubscribeFrame(subscription_id="s", stream=ThreadStream(thread_id="t"))
    assert frame.to_wire() == {"type": "subscribe", "subscriptionId": "s",
                               "stream": {"kind": "thread", "threadId": "t"},
                               "afterSequence": None}
    assert decode_client_frame(frame.to_wire()) == frame
    with pytest.raises(ContractError):
        decode_client_frame({"type": "subscribe", "subscriptionId": "s",
                             "stream": {"kind": "moon"}})
    snap = SnapshotFrame(subscription_id="s", sequence=3,
                         snapshot=ShellSnapshot(sequence=3, threads=[]))
    assert decode_server_frame(snap.to_wire()) == snap
    assert decode_server_frame({"type": "error", "code": "x", "message": "y"}).type == "error"
    with pytest.raises(ContractError):
        decode_server_frame({"type": "nope"})


def test_environment_defaults_are_conservative() -> None:
    env = Environment.model_validate({"environmentId": "env_1", "serverVersion": "0",
                                      "capabilities": {}})
    assert env.capabilities.inline_message_context is False
    assert env.protocol_version == 1


def test_error_body_shape() -> None:
    assert error_body("too_large", "Too big.") == {
        "error": {"code": "too_large", "message": "Too big.", "retryable": False}}


def test_timestamps() -> None:
    text = format_timestamp()
    assert text.endswith("Z") and parse_timestamp(text).utcoffset() is not None
    with pytest.raises(ContractError):
        parse_timestamp("yesterday")
    with pytest.raises(ContractError):
        parse_timestamp("2026-11-30T14:02:11")


def test_the_current_timestamp_is_the_current_millisecond() -> None:
    from datetime import UTC, datetime

    assert format_timestamp(datetime(2026, 1, 2, 3, 4, 5, 999_999, tzinfo=UTC)) == \
        "2026-01-02T03:04:05.999Z"
    seen = set()
    for _ in range(2_000):  # across many millisecond boundaries
        before = format_timestamp(datetime.now(UTC))
        now = format_timestamp()
        after = format_timestamp(datetime.now(UTC))
        assert before <= now <= after and len(now) == len("2026-01-02T03:04:05.999Z")
        seen.add(now)
    assert len(seen) > 1


@given(st.datetimes(min_value=datetime(1000, 1, 2), max_value=datetime(9999, 12, 30),
                    timezones=st.sampled_from([UTC, timezone(timedelta(hours=5, minutes=30)),
                                               timezone(timedelta(hours=-8))])))
def test_a_timestamp_is_utc_with_milliseconds_and_reads_back(moment: datetime) -> None:
    text = format_timestamp(moment)
    utc = moment.astimezone(UTC)
    assert text == utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"
    assert parse_timestamp(text) == utc.replace(microsecond=utc.microsecond // 1000 * 1000)


def test_a_message_context_object_is_taken_as_is() -> None:
    from composer_app.core.contracts.messages import decode_message_context
    from composer_app.core.contracts.wire import UserMessageInput

    context = decode_message_context({"version": 1, "records": [
        {"version": 1, "contextId": "skill_s", "kind": "skill", "label": "s", "name": "s"}]})
    message = UserMessageInput(message_id="msg_1", text="x", attachments=[], context=context)
    assert message.context is context


def test_a_malformed_provider_name_is_refused_in_plain_words() -> None:
    from composer_app.core.contracts.wire import check_provider_name

    assert check_provider_name("local") == "local"
    with pytest.raises(ContractError, match="not an assistant provider name"):
        check_provider_name("Local AI")


def test_removing_a_workspace_keeps_its_explicit_null_both_ways() -> None:
    command = decode_command({"type": "thread.meta.update", "commandId": "c", "threadId": "t",
                              "workspace": None})
    assert encode_command(command)["workspace"] is None
    envelope = {"sequence": 2, "eventId": "evt_2", "type": "thread.meta-updated", "threadId": "t",
                "occurredAt": "2026-11-30T14:02:11Z", "payload": {"workspace": None}}
    event = decode_event(envelope)
    assert event.payload.updates_workspace  # type: ignore[union-attr]
    assert encode_event(event)["payload"]["workspace"] is None
    kept = decode_event(envelope | {"payload": {"title": "x"}})
    assert not kept.payload.updates_workspace  # type: ignore[union-attr]
