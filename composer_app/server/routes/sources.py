"""``GET /api/threads/{threadId}/messages/{messageId}/sources/{sourceId}/download``: the
authenticated citation download route of the sources contract (§8).

Invariants: the file is served only to the thread's owner (anyone else, a deleted thread, an
unknown message or source, and a source without a visible ``download`` action are all ``404``, so
nothing about another user's threads can be probed); the entry must be a ``connector-file`` with a
``fileId`` in that very message; a ``fileId`` naming an attachment is served only when the
attachment belongs to the same user, a ``knowledge:`` file id only through the provider's
``resolve_file`` (which keeps it inside the knowledge folder), and a ``workspace:`` file id only
inside the thread's own workspace (still inside the server's allowed roots; the path normalized and,
with symlinks followed, re-checked); no share token is accepted.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse

from composer_app.core.codecs.sources import visible_actions
from composer_app.core.contracts.sources import SourceEntry, decode_sources
from composer_app.server.errors import ApiError, not_found
from composer_app.server.routes.assets import READABLE, content_disposition
from composer_app.server.services import device_of, services_of
from composer_app.server.store.base import Reader
from composer_app.server.workspace.roots import WorkspaceRoots, resolve_inside

router = APIRouter()
KNOWLEDGE_PREFIX = "knowledge:"
WORKSPACE_PREFIX = "workspace:"


def _entry(reader: Reader, user_id: str, thread_id: str, message_id: str,
           source_id: str) -> SourceEntry | None:
    thread = reader.thread(user_id, thread_id)
    if thread is None or thread.user_id != user_id or thread.deleted_at is not None:
        return None
    messages, _ = reader.messages_of(user_id, thread_id)
    message = next((m for m in messages if m.message_id == message_id), None)
    if message is None or message.sources is None:
        return None
    entry = next((e for e in decode_sources(message.sources) if e.id == source_id), None)
    if entry is None or entry.file_id is None or "download" not in visible_actions(entry):
        return None
    return entry


def workspace_file(workspace: object, roots: tuple[Path, ...], relative: str) -> Path | None:
    """The file ``relative`` names inside the thread's ``workspace`` record, or None."""
    path = workspace.get("path") if isinstance(workspace, dict) else None
    if not isinstance(path, str):
        return None
    try:
        folder = WorkspaceRoots(roots).check(path)
        _, resolved = resolve_inside(folder, relative)
    except ApiError:
        return None
    return resolved if resolved.is_file() else None


def _attachment_path(reader: Reader, user_id: str, attachment_id: str,
                     root: Path) -> tuple[Path, str, str] | None:
    row = reader.attachment(attachment_id)
    if row is None or row.user_id != user_id or row.state not in READABLE:
        return None
    return root / row.storage_path, row.name, row.mime_type


@router.get("/api/threads/{thread_id}/messages/{message_id}/sources/{source_id}/download")
async def download_source(request: Request, thread_id: str, message_id: str,
                          source_id: str) -> Response:
    device = await device_of(request)
    svc = services_of(request)
    entry = await svc.store.read(
        lambda r: _entry(r, device.user_id, thread_id, message_id, source_id))
    if entry is None or entry.file_id is None:
        raise not_found("No such source.", "not_found")
    found: tuple[Path, str, str] | None
    if entry.file_id.startswith(KNOWLEDGE_PREFIX):
        resolve: Any = getattr(svc.settings.provider, "resolve_file", None)
        path = resolve(entry.file_id) if callable(resolve) else None
        found = (path, path.name, "application/octet-stream") if isinstance(path, Path) else None
    elif entry.file_id.startswith(WORKSPACE_PREFIX):
        relative = entry.file_id.removeprefix(WORKSPACE_PREFIX)
        thread = await svc.store.read(lambda r: r.thread(device.user_id, thread_id))
        roots = tuple(svc.settings.workspace_roots)
        file = await asyncio.to_thread(
            workspace_file, thread.workspace if thread is not None else None, roots, relative)
        found = (file, file.name, "application/octet-stream") if file is not None else None
    else:
        file_id = entry.file_id
        found = await svc.store.read(
            lambda r: _attachment_path(r, device.user_id, file_id, svc.settings.attachments_dir))
    if found is None or not found[0].is_file():
        raise not_found("No such source.", "not_found")
    path, name, mime_type = found
    return FileResponse(path, media_type=mime_type, headers={
        "Content-Disposition": content_disposition("attachment", name),
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
    })
