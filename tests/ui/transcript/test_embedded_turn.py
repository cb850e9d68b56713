"""End to end: a turn on the embedded server whose provider returns the contract's example sourced
message renders with tokens, section labels and a populated Sources panel."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot
from websockets.sync.client import connect

from composer_app.server.embedded import EmbeddedServer, start_embedded
from composer_app.server.providers.base import Done, ScriptedProvider, Sources, TextDelta
from composer_app.server.settings import ServerSettings
from composer_app.ui.transcript.sources_dock import SourcesDock
from composer_app.ui.transcript.view import TranscriptView

EXAMPLE = json.loads((Path(__file__).parents[2] / "fixtures" / "sources_example.json").read_text())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[EmbeddedServer]:
    text = EXAMPLE["text"]
    half = len(text) // 2
    provider = ScriptedProvider(
        [
            TextDelta(text[:half]),
            TextDelta(text[half:]),
            Sources(EXAMPLE["sources"], EXAMPLE["metadata"]),
            Done(),
        ]
    )
    settings = ServerSettings(tmp_path, provider=provider)
    with start_embedded(tmp_path, settings=settings) as running:
        yield running


def _events(server: EmbeddedServer, thread_id: str) -> Iterator[dict[str, Any]]:
    """Thread events over the real WebSocket until the assistant completes."""
    url = server.url.replace("http://", "ws://") + "/api/ws"
    headers = {"Authorization": f"Bearer {server.token}"}
    with connect(url, additional_headers=headers, open_timeout=10) as ws:
        ws.send(
            json.dumps(
                {
                    "type": "subscribe",
                    "subscriptionId": "s1",
                    "stream": {"kind": "thread", "threadId": thread_id},
                    "afterSequence": 0,
                }
            )
        )
        while True:
            frame = json.loads(ws.recv(timeout=20))
            if frame["type"] == "event":
                yield frame["event"]
                if frame["event"]["type"] == "thread.assistant.completed":
                    return
            assert frame["type"] != "error", frame


def test_sourced_turn_renders_tokens_labels_and_panel(server: EmbeddedServer, qtbot: QtBot) -> None:
    thread_id = "thr_e2e_sources"
    command = {
        "type": "thread.turn.start",
        "commandId": "cmd_e2e_1",
        "threadId": thread_id,
        "message": {
            "messageId": "msg_e2e_user",
            "role": "user",
            "text": "What is the Q3 travel budget?",
        },
        "bootstrap": {"createThread": {"title": "Budget"}},
    }
    response = httpx.post(
        f"{server.url}/api/commands",
        json=command,
        timeout=10,
        headers={"Authorization": f"Bearer {server.token}"},
    )
    assert response.status_code in (200, 202), response.text

    window = QMainWindow()
    view = TranscriptView()
    window.setCentralWidget(view)
    dock = SourcesDock(view, window)
    qtbot.addWidget(window)
    window.resize(1000, 700)
    window.show()
    kinds = []
    for event in _events(server, thread_id):
        kinds.append(event["type"])
        view.transcript_model().apply_event(event)
    assert "thread.assistant.delta" in kinds and "thread.message-sent" in kinds

    model = view.transcript_model()
    assert [m.role for m in model.transcript.messages] == ["user", "assistant"]
    answer_message = model.transcript.messages[1]
    assert answer_message.text == EXAMPLE["text"] and not answer_message.streaming
    answer = answer_message.answer()
    assert answer.tokens == {1: [(1, "src_1")], 2: [(2, "src_2")]}
    assert answer.labels == {0: "Source-backed", 3: "General knowledge"}
    html = view.layout_for(answer_message).doc.toHtml()
    assert "Source-backed" in html and "General knowledge" in html
    assert html.count("cite:") == 2
    assert answer_message.sources_action() == "Sources · 2 used · 1 checked · 1 listed"

    view.activate(1, "cite", "src_1")
    assert dock.isVisible() and dock.panel.selected_entry() == "src_1"
    assert [b.text() for b in dock.panel.group_buttons.values()] == [
        "Used in answer (2)",
        "Checked (1)",
        "Listed (1)",
    ]
    assert sorted(dock.panel.rows["src_1"].buttons) == ["copy-title", "details", "download", "open"]
