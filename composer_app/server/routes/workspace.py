"""Workspace routes of a thread: file search, file reading, changes, command runs; and skills.

Invariants: every route is for the token's user only (another user's or a deleted thread is
``404``); a thread without a workspace is ``409 no_workspace``; the stored workspace is checked
against the allowed roots again on every request (a root removed from the server's options or a
symlink changed since counts); blocking work (git, file reads, the index) runs in worker threads;
``POST .../workspace/run`` is ``403 commands_disabled`` unless the server allows commands, and its
NDJSON stream ends the whole process group when the client goes away.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import StreamingResponse

from composer_app.server.auth import refused
from composer_app.server.errors import ApiError, invalid, not_found
from composer_app.server.json_body import parse_json
from composer_app.server.services import device_of, read_limited, services_of
from composer_app.server.store.base import ThreadRow, new_id
from composer_app.server.workspace.changes import workspace_changes
from composer_app.server.workspace.command_run import run_command
from composer_app.server.workspace.file_index import WorkspaceIndexes
from composer_app.server.workspace.file_reader import read_text_file
from composer_app.server.workspace.roots import WorkspaceRoots
from composer_app.server.workspace.skills import list_skills, workspace_skills_dir

router = APIRouter()

SEARCH_LIMIT_DEFAULT = 50
SEARCH_LIMIT_MAX = 200
RUN_TIMEOUT_DEFAULT = 60
RUN_TIMEOUT_MAX = 600
RUN_BODY_MAX_BYTES = 100_000


def indexes_of(request: Request) -> WorkspaceIndexes:
    """The app's workspace indexes (made on first use, one set per app)."""
    state = request.app.state
    indexes = getattr(state, "workspace_indexes", None)
    if indexes is None:
        indexes = state.workspace_indexes = WorkspaceIndexes()
    assert isinstance(indexes, WorkspaceIndexes)
    return indexes


async def owned_thread(request: Request, thread_id: str) -> ThreadRow:
    """The token's user's live thread, else ``404`` (``401`` for a revoked device). The device
    check and the thread read are one store read (a search per keystroke pays one hop)."""
    device = await device_of(request, cached=True)
    active, row = await services_of(request).store.read(
        lambda r: (r.device_active(device.device_id), r.thread(device.user_id, thread_id)))
    if not active:  # revoked since it was cached
        raise refused()
    if row is None or row.user_id != device.user_id or row.deleted_at is not None:
        raise not_found()
    return row


def workspace_folder(request: Request, row: ThreadRow) -> Path:
    """The resolved workspace of ``row``; ``409 no_workspace`` when it has none."""
    workspace = row.workspace or {}
    path = workspace.get("path")
    if not isinstance(path, str):
        raise ApiError(409, "no_workspace", "This thread has no workspace folder.")
    return WorkspaceRoots(services_of(request).settings.workspace_roots).check(path)


async def thread_workspace(request: Request, thread_id: str) -> Path:
    return workspace_folder(request, await owned_thread(request, thread_id))


def _int_query(request: Request, name: str, low: int, high: int | None = None,
               default: int | None = None) -> int | None:
    value = request.query_params.get(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise invalid(f"{name} must be an integer.") from None
    if number < low or (high is not None and number > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise invalid(f"{name} must be {bound}.")
    return number


@router.get("/api/threads/{thread_id}/workspace/files")
async def search_files(request: Request, thread_id: str) -> dict[str, Any]:
    folder = await thread_workspace(request, thread_id)
    limit = _int_query(request, "limit", 1, SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT)
    query = request.query_params.get("q", "")
    if len(query) > 1000:
        raise invalid("The query is too long.")
    index = indexes_of(request).of(folder)
    entries = await asyncio.to_thread(index.search, query, limit or SEARCH_LIMIT_DEFAULT)
    return {"files": [{"path": e.path, "kind": e.kind} for e in entries]}


@router.get("/api/threads/{thread_id}/workspace/file")
async def read_file(request: Request, thread_id: str) -> dict[str, Any]:
    folder = await thread_workspace(request, thread_id)
    path = request.query_params.get("path")
    if path is None or path == "":
        raise invalid("path is required.")
    start = _int_query(request, "start", 1)
    end = _int_query(request, "end", 1)
    return await asyncio.to_thread(read_text_file, folder, path, start, end)


@router.get("/api/threads/{thread_id}/workspace/changes")
async def get_changes(request: Request, thread_id: str) -> dict[str, Any]:
    folder = await thread_workspace(request, thread_id)
    return await asyncio.to_thread(workspace_changes, folder)


def _run_body(body: bytes) -> tuple[str, float]:
    obj = parse_json(body)
    if not isinstance(obj, dict):
        raise invalid("The body must be a JSON object.")
    command = obj.get("command")
    if not isinstance(command, str) or not command.strip() or "\x00" in command:
        raise invalid("command must be a non-empty string.")
    timeout = obj.get("timeoutSeconds", RUN_TIMEOUT_DEFAULT)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not (
        1 <= timeout <= RUN_TIMEOUT_MAX
    ):
        raise invalid(f"timeoutSeconds must be a number from 1 to {RUN_TIMEOUT_MAX}.")
    return command, float(timeout)


@router.post("/api/threads/{thread_id}/workspace/run")
async def run(request: Request, thread_id: str) -> StreamingResponse:
    row = await owned_thread(request, thread_id)
    if not services_of(request).settings.allow_commands:
        raise ApiError(403, "commands_disabled",
                       "This server does not run commands (start it with --allow-commands).")
    folder = workspace_folder(request, row)
    command, timeout = _run_body(await read_limited(request, RUN_BODY_MAX_BYTES))
    run_id = new_id("run")

    async def lines() -> AsyncIterator[bytes]:
        async for line in run_command(folder, command, timeout, run_id):
            yield (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")

    return StreamingResponse(lines(), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store", "X-Run-Id": run_id})


@router.get("/api/skills")
async def get_skills(request: Request) -> dict[str, Any]:
    await device_of(request)
    thread_id = request.query_params.get("threadId")
    directories: list[Path | None] = []
    if thread_id:
        row = await owned_thread(request, thread_id)
        if row.workspace is not None:
            folder = workspace_folder(request, row)
            directories.append(await asyncio.to_thread(workspace_skills_dir, folder))
    directories.append(services_of(request).settings.server_skills_dir)
    skills = await asyncio.to_thread(list_skills, directories)
    return {"skills": [skill.to_wire() for skill in skills]}
