"""Read-only share links of a thread: create, list and revoke them, and the public page.

* ``POST /api/threads/{threadId}/shares`` → ``201 {"shareId", "url": "/s/<token>", "createdAt"}``
* ``GET /api/threads/{threadId}/shares`` → ``{"shares": [{"shareId", "createdAt"}, ...]}``
* ``DELETE /api/threads/{threadId}/shares/{shareId}`` → ``204``
* ``GET /s/{token}`` (no authentication) → the thread as a standalone HTML page.

Invariants: only the thread's owner creates, lists or revokes its links (``404`` for anyone else);
a token is 256 random bits, shown once at creation, and only its SHA-256 is stored; the page of a
revoked or unknown token, or of a deleted thread, is ``404``; the page is rendered by
``export_html``, which applies the sources contract's public-mode stripping to every message (no
snippet, metadata, private id, link or action of a source), escapes raw HTML and loads nothing
(a ``Content-Security-Policy`` forbids scripts and remote content); a share token opens nothing else
(no API route or download accepts it).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse

from composer_app.core.codecs.sources_share import export_html
from composer_app.core.contracts.wire import format_timestamp
from composer_app.server.errors import not_found
from composer_app.server.services import device_of, services_of
from composer_app.server.snapshots import message_wire
from composer_app.server.store.base import Reader, ShareRow, Transaction, new_id
from composer_app.server.store.executor import token_hash

router = APIRouter()
TOKEN_BYTES = 32
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; "
                               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
    "Cache-Control": "no-store",
}


def _owned(reader: Reader | Transaction, thread_id: str, user_id: str) -> bool:
    thread = reader.thread(user_id, thread_id)
    return thread is not None and thread.user_id == user_id and thread.deleted_at is None


def _share_wire(row: ShareRow) -> dict[str, Any]:
    return {"shareId": row.share_id, "createdAt": row.created_at}


@router.post("/api/threads/{thread_id}/shares", status_code=201)
async def create_share(request: Request, thread_id: str) -> JSONResponse:
    device = await device_of(request)
    svc = services_of(request)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    row = ShareRow(new_id("shr"), thread_id, device.user_id, format_timestamp(), None)

    def insert(tx: Transaction) -> bool:
        if not _owned(tx, thread_id, device.user_id):
            return False
        tx.insert_share(row, token_hash(token))
        return True

    if not await svc.store.write(insert):
        raise not_found()
    return JSONResponse(_share_wire(row) | {"url": f"/s/{token}"}, status_code=201)


@router.get("/api/threads/{thread_id}/shares")
async def list_shares(request: Request, thread_id: str) -> dict[str, Any]:
    device = await device_of(request)
    svc = services_of(request)

    def read(reader: Reader) -> list[ShareRow] | None:
        return reader.shares_of(thread_id) if _owned(reader, thread_id, device.user_id) else None

    rows = await svc.store.read(read)
    if rows is None:
        raise not_found()
    return {"shares": [_share_wire(row) for row in rows]}


@router.delete("/api/threads/{thread_id}/shares/{share_id}", status_code=204)
async def revoke_share(request: Request, thread_id: str, share_id: str) -> Response:
    device = await device_of(request)
    svc = services_of(request)

    def revoke(tx: Transaction) -> bool:
        row = tx.share(share_id)
        if row is None or row.thread_id != thread_id or row.user_id != device.user_id or \
                row.revoked_at is not None:
            return False
        tx.revoke_share(share_id, format_timestamp())
        return True

    if not await svc.store.write(revoke):
        raise not_found("No such share link.", "not_found")
    return Response(status_code=204)


def _page(reader: Reader, token: str) -> str | None:
    share = reader.share_by_token_hash(token_hash(token))
    if share is None or share.revoked_at is not None:
        return None
    thread = reader.thread(share.user_id, share.thread_id)
    if thread is None or thread.deleted_at is not None or thread.user_id != share.user_id:
        return None
    messages, _ = reader.messages_of(share.user_id, share.thread_id)
    wires = [message_wire(m) for m in messages if not m.is_streaming]
    return export_html(wires, title=thread.title or "Shared thread")


@router.get("/s/{token}")
async def shared_page(request: Request, token: str) -> HTMLResponse:
    svc = services_of(request)
    page = await svc.store.read(lambda r: _page(r, token)) if len(token) <= 100 else None
    if page is None:
        raise not_found("No such share link.", "not_found")
    return HTMLResponse(page, headers=PAGE_HEADERS)
