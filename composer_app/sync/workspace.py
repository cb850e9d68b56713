"""The workspace calls of the sync client: file search, file reading, changes, skills, runs.

Invariants: every call runs on the engine's loop and answers immutable values; a non-2xx answer
raises ``WorkspaceError`` with the server's error code (``no_workspace``,
``path_outside_workspace``, ``commands_disabled``, ...); a command run reports each output line to
``on_output`` as it arrives and resolves to its exit line; cancelling a run closes its request,
which makes the server end the command's process group.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from composer_app.core.codecs.diff import FileChange, file_change_from_wire
from composer_app.sync.transport import HttpTransport, Reply, ReplyError


class WorkspaceError(Exception):
    """The server refused a workspace call (``status``, ``code``, readable ``message``)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message or code)
        self.status = status
        self.code = code
        self.message = message


@dataclass(frozen=True)
class WorkspaceEntry:
    path: str
    kind: str  # file | directory


@dataclass(frozen=True)
class WorkspaceFile:
    path: str
    text: str
    start_line: int
    end_line: int
    line_count: int
    modified_at: str


@dataclass(frozen=True)
class WorkspaceChanges:
    revision: str | None
    files: tuple[FileChange, ...]


@dataclass(frozen=True)
class SkillInfo:
    name: str
    description: str


def _error(reply: Reply) -> WorkspaceError:
    message = ""
    if isinstance(reply.body, dict) and isinstance(reply.body.get("error"), dict):
        message = str(reply.body["error"].get("message", ""))
    return WorkspaceError(reply.status, reply.error_code or "unavailable", message)


def _checked(reply: Reply) -> dict[str, Any]:
    if not reply.ok or not isinstance(reply.body, dict):
        raise _error(reply)
    return reply.body


def _base(thread_id: str) -> str:
    return f"/api/threads/{quote(thread_id, safe='')}/workspace"


def _query(**params: object) -> str:
    parts = [f"{k}={quote(str(v), safe='')}" for k, v in params.items() if v is not None]
    return "?" + "&".join(parts) if parts else ""


async def search_files(http: HttpTransport, thread_id: str, query: str,
                       limit: int = 50) -> list[WorkspaceEntry]:
    body = _checked(await http.get(f"{_base(thread_id)}/files{_query(q=query, limit=limit)}"))
    return [WorkspaceEntry(str(f["path"]), str(f.get("kind", "file")))
            for f in body.get("files", []) if isinstance(f, dict) and "path" in f]


async def read_file(http: HttpTransport, thread_id: str, path: str, start: int | None = None,
                    end: int | None = None) -> WorkspaceFile:
    body = _checked(await http.get(
        f"{_base(thread_id)}/file{_query(path=path, start=start, end=end)}"))
    return WorkspaceFile(str(body["path"]), str(body["text"]), int(body["startLine"]),
                         int(body["endLine"]), int(body["lineCount"]), str(body["modifiedAt"]))


async def changes(http: HttpTransport, thread_id: str) -> WorkspaceChanges:
    body = _checked(await http.get(f"{_base(thread_id)}/changes"))
    files = [c for c in map(file_change_from_wire, body.get("files", [])) if c is not None]
    revision = body.get("revision")
    return WorkspaceChanges(revision if isinstance(revision, str) else None, tuple(files))


async def skills(http: HttpTransport, thread_id: str | None = None) -> list[SkillInfo]:
    body = _checked(await http.get(f"/api/skills{_query(threadId=thread_id)}"))
    return [SkillInfo(str(s["name"]), str(s.get("description", "")))
            for s in body.get("skills", []) if isinstance(s, dict) and "name" in s]


async def run_command(http: HttpTransport, thread_id: str, command: str, timeout_seconds: int,
                      on_output: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run ``command``; each output text goes to ``on_output``; answers the exit line."""
    lines = http.post_lines(f"{_base(thread_id)}/run",
                            {"command": command, "timeoutSeconds": timeout_seconds},
                            timeout=timeout_seconds + 30.0)
    try:
        async for line in lines:
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if not isinstance(item, dict):
                continue
            if item.get("type") == "output" and on_output is not None:
                on_output(str(item.get("text", "")))
            elif item.get("type") == "exit":
                return item
    except ReplyError as exc:
        raise _error(exc.reply) from None
    finally:
        await lines.aclose()
    raise WorkspaceError(502, "unavailable", "The command's output ended without an exit line.")
