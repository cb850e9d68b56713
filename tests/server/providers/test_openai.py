"""The OpenAI-compatible provider against a loopback server speaking the streaming wire format."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from composer_app.server.providers.base import (
    SOURCES_INSTRUCTION,
    Done,
    ProviderAttachment,
    TurnRequest,
)
from composer_app.server.providers.openai import OpenAIProvider, OpenAISettings
from tests.server.providers.support import run_turn, run_turn_in_tasks

KEY = "sk-test-SECRET-4242"
ANSWER = ["## Paris\n\n", "Paris is the capital ", "of France.\n\n", "It is also large."]


def _chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    body = {"id": "c1", "object": "chat.completion.chunk", "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return f"data: {json.dumps(body)}\n\n"


def _citation(url: str, title: str, start: int, end: int) -> dict[str, Any]:
    return {"type": "url_citation",
            "url_citation": {"url": url, "title": title, "start_index": start, "end_index": end}}


@dataclass
class Endpoint:
    """The loopback server's state: what it received and how it answers."""

    requests: list[dict[str, Any]] = field(default_factory=list)
    release: asyncio.Event | None = None

    async def chat(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append({"path": request.url.path, "headers": dict(request.headers),
                              "body": body})
        scenario = request.path_params["scenario"]
        if scenario == "unauthorized":
            return JSONResponse({"error": {"message": f"Incorrect API key provided: {KEY}.",
                                           "type": "invalid_request_error"}}, status_code=401)
        if scenario == "overloaded":
            return Response("upstream overloaded", status_code=503)
        return StreamingResponse(getattr(self, f"_{scenario}")(), media_type="text/event-stream")

    async def _ok(self) -> AsyncIterator[str]:
        yield ": keep-alive comment\n\n"
        yield _chunk({"role": "assistant", "content": ""})
        for piece in ANSWER:
            yield _chunk({"content": piece})
        text = "".join(ANSWER)
        start = text.index("Paris is")
        yield _chunk({"annotations": [
            _citation("https://en.example.org/wiki/Paris?utm_source=x", "Paris - Encyclopedia",
                      start, start + 30),
            _citation("https://en.example.org/wiki/Paris", "Paris again", start, start + 5),
            _citation("javascript:alert(1)", "Evil", start, start + 5),
            {"type": "file_citation", "file_citation": {"file_id": "f1"}},
        ]})
        yield _chunk({}, "stop")
        yield "data: [DONE]\n\n"

    async def _finish_without_done(self) -> AsyncIterator[str]:
        yield _chunk({"content": "Short answer."})
        yield _chunk({}, "stop")

    async def _numbered(self) -> AsyncIterator[str]:
        yield _chunk({"content": "## Paris\n\nParis is the capital of France [1]. "})
        yield _chunk({"content": "It has about two million people[2][1].\n\n"})
        yield _chunk({"content": "```\nx = [1]\n```"})
        extra = {"citations": ["https://en.example.org/wiki/Paris", "https://stats.example.org/p"],
                 "search_results": [{"title": "Paris statistics",
                                     "url": "https://stats.example.org/p"}]}
        body = {"id": "c1", "object": "chat.completion.chunk", "model": "m", **extra,
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        yield f"data: {json.dumps(body)}\n\n"
        yield "data: [DONE]\n\n"

    async def _truncated(self) -> AsyncIterator[str]:
        yield _chunk({"content": "Half an ans"})

    async def _error_mid_stream(self) -> AsyncIterator[str]:
        yield _chunk({"content": "Starting"})
        yield f"data: {json.dumps({'error': {'message': 'The model is overloaded.'}})}\n\n"

    async def _disconnect(self) -> AsyncIterator[str]:
        yield _chunk({"content": "Partial"})
        raise ConnectionResetError("loopback test server drops the connection")

    async def _slow(self) -> AsyncIterator[str]:
        yield _chunk({"content": "Thinking"})
        assert self.release is not None
        await self.release.wait()
        yield "data: [DONE]\n\n"


@pytest.fixture(scope="module")
def endpoint() -> Iterator[tuple[Endpoint, str]]:
    state = Endpoint()
    app = Starlette(routes=[Route("/{scenario}/v1/chat/completions", state.chat,
                                  methods=["POST"])])
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="critical", lifespan="off"))
    loop = asyncio.new_event_loop()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        state.release = asyncio.Event()
        loop.run_until_complete(server.serve(sockets=[sock]))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{port}"
    server.should_exit = True
    if state.release is not None:
        loop.call_soon_threadsafe(state.release.set)
    thread.join(timeout=10)
    sock.close()
    loop.close()


def _provider(base: str, scenario: str, **timeouts: float) -> OpenAIProvider:
    settings = OpenAISettings(f"{base}/{scenario}/v1", "test-model", **timeouts)
    return OpenAIProvider(settings, lambda: KEY)


def _request(**extra: Any) -> TurnRequest:
    return TurnRequest(thread_id="thr_1", turn_id="turn_1", message_id="msg_1",
                       prompt="What is the capital of France?", instructions="Be brief.", **extra)


def test_streams_deltas_then_sources_then_done(endpoint: tuple[Endpoint, str]):
    state, base = endpoint
    outcome = run_turn(_provider(base, "ok"), _request(history=(("user", "Hi"),
                                                                ("assistant", "Hello!"))))
    assert outcome.text == "".join(ANSWER)
    sent = state.requests[-1]
    assert sent["path"] == "/ok/v1/chat/completions"
    assert sent["headers"]["authorization"] == f"Bearer {KEY}"
    body = sent["body"]
    assert body["model"] == "test-model" and body["stream"] is True
    assert body["messages"][0]["role"] == "system"
    assert SOURCES_INSTRUCTION in body["messages"][0]["content"]
    assert body["messages"][0]["content"].startswith("Be brief.")
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "user"]
    assert body["messages"][-1]["content"] == "What is the capital of France?"


def test_url_citations_become_external_link_sources_on_their_block(
    endpoint: tuple[Endpoint, str],
):
    _, base = endpoint
    outcome = run_turn(_provider(base, "ok"), _request())
    entries = outcome.entries()
    assert [(e.type, e.source_usage, e.title) for e in entries] == [
        ("external-link", "used", "Paris - Encyclopedia")
    ]
    entry = entries[0]
    assert entry.available_actions == ["open"]
    assert entry.citation_target is not None
    assert (entry.citation_target.block_index, entry.citation_target.block_type) == (
        1, "paragraph")
    grounding = outcome.grounding()
    assert grounding.grounding_mode == "mixed"
    assert [(s.block_start, s.block_end, s.grounding_mode) for s in
            grounding.grounding_segments] == [(0, 0, "general-knowledge"),
                                              (1, 1, "source-backed"),
                                              (2, 2, "general-knowledge")]


def test_finish_reason_without_done_marker_completes(endpoint: tuple[Endpoint, str]):
    _, base = endpoint
    outcome = run_turn(_provider(base, "finish_without_done"), _request())
    assert outcome.text == "Short answer."
    assert outcome.sources.sources is None
    assert outcome.grounding().grounding_mode == "general-knowledge"


@pytest.mark.parametrize(
    ("scenario", "code", "phrase"),
    [
        ("unauthorized", "provider_failed", "HTTP 401: Incorrect API key provided: [redacted]."),
        ("overloaded", "provider_failed", "HTTP 503: upstream overloaded"),
        ("truncated", "provider_unavailable", "closed the connection before the answer"),
        ("error_mid_stream", "provider_failed", "reported an error: The model is overloaded."),
        ("disconnect", "provider_unavailable", "failed before the answer was complete"),
    ],
)
def test_failures_end_the_turn_with_a_readable_reason(
    endpoint: tuple[Endpoint, str], scenario: str, code: str, phrase: str
):
    _, base = endpoint
    failure = run_turn(_provider(base, scenario), _request()).failure
    assert failure.code == code
    assert phrase in failure.message
    assert KEY not in failure.message


def test_a_stream_that_goes_silent_fails_after_the_idle_timeout(endpoint: tuple[Endpoint, str]):
    _, base = endpoint
    outcome = run_turn(_provider(base, "slow", idle_timeout=0.3), _request())
    assert outcome.failure.code == "provider_timeout"
    assert "no data for 0.3 seconds" in outcome.failure.message
    assert [getattr(e, "text", None) for e in outcome.events[:1]] == ["Thinking"]


def test_a_turn_longer_than_the_total_timeout_fails(endpoint: tuple[Endpoint, str]):
    _, base = endpoint
    outcome = run_turn(_provider(base, "slow", idle_timeout=5, total_timeout=0.3), _request())
    assert outcome.failure.code == "provider_timeout"
    assert "longer than 0.3 seconds" in outcome.failure.message


def test_unreachable_endpoint_fails_readably():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    failure = run_turn(_provider(f"http://127.0.0.1:{port}", "ok"), _request()).failure
    assert failure.code == "provider_unavailable"
    assert "ConnectError" in failure.message


def test_attachments_travel_as_content_parts(endpoint: tuple[Endpoint, str], tmp_path: Path):
    state, base = endpoint
    notes = tmp_path / "notes"
    notes.write_text("Budget: 48,000")
    image = tmp_path / "image"
    image.write_bytes(b"\x89PNG\r\n")
    attachments = (ProviderAttachment("att_1", "notes.txt", "text/plain", 14, notes),
                   ProviderAttachment("att_2", "chart.png", "image/png", 6, image))
    run_turn(_provider(base, "finish_without_done"), _request(attachments=attachments))
    content = state.requests[-1]["body"]["messages"][-1]["content"]
    assert content[0] == {"type": "text", "text": "What is the capital of France?"}
    assert content[1] == {"type": "text", "text": "Attached file notes.txt:\nBudget: 48,000"}
    assert content[2]["image_url"]["url"] == "data:image/png;base64,iVBORw0K"


def test_the_key_never_appears_in_logs(endpoint: tuple[Endpoint, str],
                                       caplog: pytest.LogCaptureFixture):
    _, base = endpoint
    provider = _provider(base, "unauthorized")
    with caplog.at_level(logging.DEBUG):
        run_turn(provider, _request())
        run_turn(_provider(base, "disconnect"), _request())
        run_turn(_provider(base, "ok"), _request())
    assert caplog.records, "the HTTP client logs at debug level"
    assert all(KEY not in record.getMessage() for record in caplog.records)
    assert KEY not in caplog.text
    assert KEY not in repr(provider)


def test_no_authorization_header_without_a_key(endpoint: tuple[Endpoint, str]):
    state, base = endpoint
    settings = OpenAISettings(f"{base}/finish_without_done/v1", "test-model")
    run_turn(OpenAIProvider(settings, lambda: None), _request())
    assert "authorization" not in state.requests[-1]["headers"]


@pytest.mark.parametrize("scenario", ["ok", "disconnect", "slow"])
def test_the_stream_can_be_driven_from_a_new_task_per_event(
    endpoint: tuple[Endpoint, str], scenario: str
):
    _, base = endpoint
    outcome = run_turn_in_tasks(_provider(base, scenario, idle_timeout=0.3), _request())
    if scenario == "ok":
        assert outcome.text == "".join(ANSWER)
    else:
        assert outcome.failure.code in ("provider_unavailable", "provider_timeout")


def test_a_citations_list_becomes_sources_and_its_markers_leave_the_text(
    endpoint: tuple[Endpoint, str],
):
    _, base = endpoint
    outcome = run_turn(_provider(base, "numbered"), _request())
    done = next(e for e in outcome.events if isinstance(e, Done))
    assert done.text == ("## Paris\n\nParis is the capital of France. It has about two million "
                         "people.\n\n```\nx = [1]\n```")  # code keeps its brackets
    entries = outcome.sources.sources["entries"]
    assert [(e["title"], e["sourceUsage"], e["citationTarget"]) for e in entries] == [
        ("en.example.org", "used", {"blockIndex": 1, "blockType": "paragraph"}),
        ("Paris statistics", "used", {"blockIndex": 1, "blockType": "paragraph"}),
    ]
    assert all(e["readinessHint"] and e["recencyHint"] for e in entries)


def test_web_sources_get_a_coverage_hint(endpoint: tuple[Endpoint, str]):
    _, base = endpoint
    entries = run_turn(_provider(base, "ok"), _request()).entries()
    assert entries[0].readiness_hint is not None and "web search" in entries[0].readiness_hint


def test_web_search_is_asked_for_only_when_enabled(endpoint: tuple[Endpoint, str]):
    state, base = endpoint
    run_turn(_provider(base, "finish_without_done"), _request())
    assert "web_search_options" not in state.requests[-1]["body"]
    settings = OpenAISettings(f"{base}/finish_without_done/v1", "test-model", web_search=True)
    run_turn(OpenAIProvider(settings, lambda: KEY), _request())
    assert state.requests[-1]["body"]["web_search_options"] == {}


def test_files_that_were_cut_or_not_sent_get_a_coverage_hint(endpoint: tuple[Endpoint, str],
                                                             tmp_path: Path):
    state, base = endpoint
    big = tmp_path / "big"
    big.write_text("line of the log\n" * 20_000)
    broken = tmp_path / "broken"
    broken.write_bytes(b"%PDF-1.4 not really")
    attachments = (ProviderAttachment("att_big", "server.log", "text/plain",
                                      big.stat().st_size, big),
                   ProviderAttachment("att_pdf", "report.pdf", "application/pdf",
                                      broken.stat().st_size, broken))
    outcome = run_turn(_provider(base, "finish_without_done"), _request(attachments=attachments))
    content = state.requests[-1]["body"]["messages"][-1]["content"]
    sent = content[1]["text"]
    assert sent.startswith("Attached file server.log:\nline of the log\n")
    assert len(sent) < 101_000 and sent.endswith("[… the rest of the file was cut]")
    assert len(content) == 2  # the unreadable PDF is not sent
    hints = {e.title: e.readiness_hint for e in outcome.entries()}
    assert hints["server.log"] is not None and "Only the first" in hints["server.log"]
    assert hints["report.pdf"] is not None and "PDF" in hints["report.pdf"]
    assert all(e.source_usage == "checked" for e in outcome.entries())
