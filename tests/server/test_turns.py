"""Turns: echo streaming, delta coalescing, interrupt, provider failure."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from composer_app.core.codecs.projection import project_for_provider
from composer_app.core.contracts.records import decode_record
from composer_app.server.providers.base import (
    Done,
    Failed,
    ProviderEvent,
    ScriptedProvider,
    TextDelta,
    TurnRequest,
)
from composer_app.server.providers.echo import EchoProvider, echo_text
from tests.server.harness import cid, harness, skill, tid, turn_start
from tests.server.test_ws import subscribe, until_synchronized


class GatedProvider:
    """Streams ``first``, then waits for ``gate`` before finishing; records every request."""

    def __init__(self) -> None:
        self.gate: asyncio.Event | None = None
        self.started: asyncio.Event | None = None
        self.requests: list[TurnRequest] = []

    async def wait_started(self) -> None:
        """Wait (on the server loop) until a turn has reached the provider."""
        self.started = self.started or asyncio.Event()
        await self.started.wait()

    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        self.requests.append(request)
        self.started = self.started or asyncio.Event()
        self.started.set()
        self.gate = self.gate or asyncio.Event()
        yield TextDelta("first ")
        await self.gate.wait()
        yield TextDelta("second")
        yield Done()


class RaisingProvider:
    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        yield TextDelta("partial")
        raise RuntimeError("model quota exceeded")


TERMINAL = ("thread.assistant.completed", "thread.turn-failed", "thread.turn-interrupted")


def turn_events(ws: Any) -> list[dict[str, Any]]:
    """Events of one turn, up to its terminal event."""
    events = []
    while True:
        event = ws.receive_json()["event"]
        events.append(event)
        if event["type"] in TERMINAL:
            return events


def test_echo_turn_streams_deltas_then_completes_with_sources(tmp_path: Path) -> None:
    provider = EchoProvider(chunk_chars=1)
    with harness(tmp_path, provider=provider, delta_chars=8, delta_interval=3600.0) as h:
        thread = tid()
        text = "Use [review](t3-context://v1/skill/s1) now"
        context = {"version": 1, "records": [skill("s1")]}
        h.ok(h.alice, turn_start(thread, text, context=context, bootstrap=True))
        with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
            subscribe(ws, "t", 0, thread)
            frames = until_synchronized(ws)
            events = [f["event"] for f in frames if f["type"] == "event"]
            if events[-1]["type"] not in TERMINAL:  # a turn that ended in the replay: no wait
                events += turn_events(ws)
        types = [e["type"] for e in events]
        assert types[:3] == ["thread.created", "thread.message-sent", "thread.turn-started"]
        assert types[-1] == "thread.assistant.completed", events[-1]
        deltas = [e["payload"]["textDelta"] for e in events
                  if e["type"] == "thread.assistant.delta"]
        expected = echo_text(project_for_provider(text, [decode_record(skill("s1"))]))
        assert "".join(deltas) == expected
        assert all(len(d) >= 8 for d in deltas[:-1]) and len(deltas) <= len(expected) // 8 + 1
        started = events[2]["payload"]
        done = events[-1]["payload"]
        assert (done["messageId"], done["turnId"]) == (started["messageId"], started["turnId"])
        assert done["text"] == expected and done["completedAt"].endswith("Z")
        assert done["sources"]["version"] == 1
        assert [e["id"] for e in done["sources"]["entries"]] == ["echo_1"]
        assert done["metadata"]["groundingMode"] == "general-knowledge"
        reply = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()["messages"][1]
        assert (reply["role"], reply["text"], reply["isStreaming"]) == ("assistant", expected,
                                                                         False)
        assert reply["sources"] == done["sources"]


def test_a_slow_delta_is_flushed_after_the_interval(tmp_path: Path) -> None:
    provider = GatedProvider()
    with harness(tmp_path, provider=provider, delta_interval=0.01) as h:
        thread = tid()
        with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
            subscribe(ws, "s", 0, None)
            until_synchronized(ws)
            h.ok(h.alice, turn_start(thread, "hi", bootstrap=True))
            assert ws.receive_json()["event"]["type"] == "thread.created"
            subscribe(ws, "t", 0, thread)
            seen = [f["event"]["type"] for f in until_synchronized(ws) if f["type"] == "event"]
            while "thread.assistant.delta" not in seen:  # arrives while the provider waits
                seen.append(ws.receive_json()["event"]["type"])
            assert provider.gate is not None and not provider.gate.is_set()
            h.client.portal.call(provider.gate.set)  # type: ignore[union-attr]
            rest = turn_events(ws)
        assert rest[-1]["payload"].get("text") == "first second", rest


def test_interrupt_stops_the_turn(tmp_path: Path) -> None:
    provider = GatedProvider()
    with harness(tmp_path, provider=provider, delta_interval=0.0) as h:
        thread = tid()
        h.ok(h.alice, turn_start(thread, "hi", bootstrap=True))
        with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
            subscribe(ws, "t", 0, thread)
            events = [f["event"] for f in until_synchronized(ws) if f["type"] == "event"]
            # the delta may be replayed or still to come, and other events of the thread may
            # follow it: wait for it anywhere, not as the last event
            while all(e["type"] != "thread.assistant.delta" for e in events):
                events.append(ws.receive_json()["event"])
            turn_id = next(e["payload"]["turnId"] for e in events
                           if e["type"] == "thread.turn-started")
            h.ok(h.alice, {"type": "thread.turn.interrupt", "commandId": cid(),
                           "threadId": thread, "turnId": turn_id})
            last = turn_events(ws)[-1]
            assert last["type"] == "thread.turn-interrupted"
            assert last["payload"] == {"turnId": turn_id}
            h.wait_turns()
        reply = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()["messages"][1]
        assert (reply["text"], reply["isStreaming"]) == ("first ", False)
        again = h.ok(h.alice, {"type": "thread.turn.interrupt", "commandId": cid(),
                               "threadId": thread, "turnId": turn_id})
        assert again["sequence"] == last["sequence"]  # a finished turn: nothing new


def test_provider_exception_becomes_turn_failed_with_a_reason(tmp_path: Path) -> None:
    with harness(tmp_path, provider=RaisingProvider(), delta_interval=0.0) as h:
        thread = tid()
        h.ok(h.alice, turn_start(thread, "hi", bootstrap=True))
        h.wait_turns()
        with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
            subscribe(ws, "t", 0, thread)
            events = [f["event"] for f in until_synchronized(ws) if f["type"] == "event"]
        failed = events[-1]
        assert failed["type"] == "thread.turn-failed"
        assert failed["payload"]["error"]["code"] == "provider_failed"
        # A raw exception may quote a provider request (keys, headers): never shown verbatim.
        message = failed["payload"]["error"]["message"]
        assert "model quota exceeded" not in message
        assert message.startswith("The assistant failed unexpectedly.")
        reply = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()["messages"][1]
        assert reply["isStreaming"] is False


def test_provider_failed_event_and_silent_end_fail_the_turn(tmp_path: Path) -> None:
    for provider, code in ((ScriptedProvider([Failed("rate_limited", "Try later.")]),
                            "rate_limited"),
                           (ScriptedProvider([TextDelta("x")]), "provider_failed")):
        with harness(tmp_path / code, provider=provider) as h:
            thread = tid()
            h.ok(h.alice, turn_start(thread, "hi", bootstrap=True))
            h.wait_turns()
            user_id = h.user_id(h.alice)
            events = h.store.read_sync(lambda r, t=thread, u=user_id: r.events_after(
                0, u, thread_id=t))
            assert events[-1].event_type == "thread.turn-failed"
            assert events[-1].payload["error"]["code"] == code
            assert events[-1].payload["error"]["message"]


def test_provider_gets_projection_instructions_and_attachment_bytes(tmp_path: Path) -> None:
    provider = GatedProvider()
    with harness(tmp_path, provider=provider) as h:
        pending = h.upload(h.alice, b"data", name="notes.txt", mime="text/plain")
        h.ok(h.alice, turn_start(tid(), "  ", bootstrap=True, attachments=[{
            "attachmentId": pending, "name": "notes.txt", "mimeType": "text/plain",
            "sizeBytes": 4}]))
        h.client.portal.call(provider.wait_started)  # type: ignore[union-attr]
        request = provider.requests[0]
        assert request.prompt.startswith("[User attached one or more files")
        assert "Do not write a Sources or References" in request.instructions
        assert request.attachments[0].path.read_bytes() == b"data"
        assert request.attachments[0].name == "notes.txt"
        assert request.attachments[0].path.name != "notes.txt"  # a server-chosen name
        h.client.portal.call(lambda: _set(provider))
        h.wait_turns()


async def _set(provider: GatedProvider) -> None:
    assert provider.gate is not None
    provider.gate.set()


class RecordingProvider:
    """Answers at once and records every request."""

    def __init__(self) -> None:
        self.requests: list[TurnRequest] = []

    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        self.requests.append(request)
        yield Done("ok")


def test_files_attached_earlier_in_the_thread_reach_later_turns(tmp_path: Path) -> None:
    provider = RecordingProvider()
    with harness(tmp_path, provider=provider) as h:
        thread = tid()
        pending = h.upload(h.alice, b"garage code 4711", name="notes.txt", mime="text/plain")
        context = {"version": 1, "records": [skill("ctx_1", "deploy")]}
        h.ok(h.alice, turn_start(thread, "read [deploy](t3-context://v1/skill/ctx_1)",
                                 bootstrap=True, context=context, attachments=[{
                                     "attachmentId": pending, "name": "notes.txt",
                                     "mimeType": "text/plain", "sizeBytes": 16}]))
        h.wait_turns()
        h.ok(h.alice, turn_start(thread, "what is the garage code?"))
        h.wait_turns()
        first, second = provider.requests
        assert first.earlier_attachments == () and first.earlier_prompts == ()
        assert [a.name for a in second.earlier_attachments] == ["notes.txt"]
        assert second.earlier_attachments[0].path.read_bytes() == b"garage code 4711"
        assert len(second.earlier_prompts) == 1 and "deploy" in second.earlier_prompts[0]
        assert second.attachments == ()
