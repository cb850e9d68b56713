"""Command runs: NDJSON output, exit line, timeouts, huge output, the process group, the flag."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from composer_app.server.workspace.command_run import TEXT_MAX_CHARS, strip_ansi
from tests.server.workspace.support import STORES, Workspaces, workspaces, ws

__all__ = ["ws"]


def run(ws: Workspaces, command: str, timeout: int | None = None) -> list[dict[str, Any]]:
    body: dict[str, Any] = {"command": command}
    if timeout is not None:
        body["timeoutSeconds"] = timeout
    response = ws.h.client.post(ws.url("run"), headers=ws.alice, json=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines() if line]


def gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_output_then_one_exit_line(ws: Workspaces) -> None:
    lines = run(ws, "echo one; echo two >&2; printf '\\033[31mred\\033[0m'; pwd; exit 3")
    assert [line["type"] for line in lines][-1] == "exit"
    assert all(line["type"] == "output" for line in lines[:-1])
    output = "".join(line["text"] for line in lines[:-1])
    assert output.startswith("one\ntwo\n\x1b[31mred\x1b[0m")
    exit_line = lines[-1]
    assert exit_line["exitCode"] == 3 and exit_line["timedOut"] is False
    assert exit_line["text"] == f"one\ntwo\nred{ws.folder}\n"
    assert exit_line["lineCount"] == 3 and exit_line["truncated"] is False
    assert exit_line["runId"].startswith("run_")


def test_a_last_line_without_newline_counts(ws: Workspaces) -> None:
    assert run(ws, "printf 'a\\nb'")[-1]["lineCount"] == 2
    assert run(ws, "true")[-1]["lineCount"] == 0


def test_a_timeout_ends_the_whole_process_group(ws: Workspaces) -> None:
    lines = run(ws, "sleep 300 & echo $! > child.pid; echo started; wait", timeout=1)
    exit_line = lines[-1]
    assert exit_line["timedOut"] is True and exit_line["exitCode"] is None
    assert exit_line["text"] == "started\n"
    assert gone(int((ws.folder / "child.pid").read_text()))


def test_a_background_child_is_ended_when_the_shell_exits(ws: Workspaces) -> None:
    lines = run(ws, "sleep 300 > /dev/null 2>&1 & echo $! > bg.pid; echo done", timeout=30)
    assert lines[-1]["exitCode"] == 0 and lines[-1]["timedOut"] is False
    assert gone(int((ws.folder / "bg.pid").read_text()))


def test_ten_megabytes_of_output_stream_and_keep_the_tail(ws: Workspaces) -> None:
    lines = run(ws, "head -c 10000000 /dev/zero | tr '\\0' 'x'; echo; echo END", timeout=120)
    output = sum(len(line["text"]) for line in lines[:-1])
    assert output == 10_000_000 + len("\nEND\n")
    exit_line = lines[-1]
    assert exit_line["truncated"] is True and len(exit_line["text"]) == TEXT_MAX_CHARS
    assert exit_line["text"].endswith("x\nEND\n") and exit_line["lineCount"] == 2


def test_bad_bodies_are_400(ws: Workspaces) -> None:
    for body in ({}, {"command": ""}, {"command": 3}, {"command": "true", "timeoutSeconds": 0},
                 {"command": "true", "timeoutSeconds": 601}, {"command": "true",
                                                               "timeoutSeconds": "5"},
                 {"command": "true", "timeoutSeconds": 0.5}, {"command": "true",
                                                              "timeoutSeconds": True}, []):
        response = ws.h.client.post(ws.url("run"), headers=ws.alice, json=body)
        assert response.status_code == 400, body


@pytest.fixture(params=STORES)
def locked(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Workspaces]:
    yield from workspaces(request, tmp_path, allow_commands=False)


def test_without_allow_commands_runs_are_403(locked: Workspaces) -> None:
    response = locked.h.client.post(locked.url("run"), headers=locked.alice,
                                    json={"command": "touch ran"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "commands_disabled"
    assert not (locked.folder / "ran").exists()


def test_strip_ansi_removes_csi_osc_and_short_escapes() -> None:
    assert strip_ansi("\x1b[1;31mred\x1b[0m \x1b]0;title\x07ok \x1bMx") == "red ok x"
