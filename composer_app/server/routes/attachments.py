"""Uploads: ``POST /api/attachments`` → signed ``PUT /api/uploads/{token}`` → ``DELETE``.

Invariants: the server assigns the pending id and the storage name (``<attachment_id>``), so a file
name never reaches the filesystem; bytes are streamed to a ``.part`` file and renamed into place
only when the byte count and SHA-256 match the signed claim; sizes over the advertised limit are
``413 too_large``; another device's upload answers ``404``. Attachment files are 0600 in a 0700
folder. An upload released while its bytes arrive leaves no bytes behind; the sweep also deletes
files no live attachment names (crash leftovers, stale ``.part`` files) and the files of deleted
threads' attachments. A full disk is ``503 unavailable`` with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from composer_app.core.contracts.environment import CreateUploadRequest
from composer_app.core.contracts.wire import format_timestamp
from composer_app.server.errors import invalid, not_found, too_large
from composer_app.server.json_body import read_json
from composer_app.server.private_files import open_private, private_dir
from composer_app.server.services import device_of, services_of
from composer_app.server.signing import current_secret, sign_token, verify_token
from composer_app.server.store.base import AttachmentRow, ThreadStore, Transaction, new_id

router = APIRouter()
CHUNK = 1 << 16
STORAGE_NAME = re.compile(r"att_[0-9a-f]{32}(?P<part>\.[0-9]+\.p_[0-9a-f]{32}\.part)?")
_TOKEN = r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
_MEDIA_TYPE = re.compile(
    rf"{_TOKEN}/{_TOKEN}(?:[ \t]*;[ \t]*{_TOKEN}=(?:{_TOKEN}|\"[^\"\\\x00-\x1f\x7f]*\"))*")


def valid_media_type(value: str) -> bool:
    """True for an RFC 6838 ``type/subtype`` with optional parameters (no CR, LF or NUL)."""
    return _MEDIA_TYPE.fullmatch(value) is not None


def _iso(epoch: float) -> str:
    return format_timestamp(datetime.fromtimestamp(epoch, UTC))


@router.post("/api/attachments", status_code=201)
async def create_upload(request: Request) -> JSONResponse:
    svc = services_of(request)
    device = await device_of(request)
    obj = await read_json(request, svc.settings.max_json_bytes)
    try:
        spec = CreateUploadRequest.model_validate(obj)
    except ValidationError:
        raise invalid("An upload needs name, mimeType, sizeBytes and sha256.") from None
    if not valid_media_type(spec.mime_type):
        raise invalid("mimeType must be a media type such as image/png or text/plain.")
    limit = svc.settings.max_upload_bytes(spec.mime_type)
    if spec.size_bytes > limit:
        raise too_large(f"This file is over the {limit}-byte limit.")
    attachment_id = new_id("att")
    now = time.time()
    row = AttachmentRow(
        attachment_id, device.device_id, device.user_id, "pending", spec.name, spec.mime_type,
        spec.size_bytes, spec.sha256.lower(), attachment_id, None, format_timestamp(),
        _iso(now + svc.settings.pending_upload_ttl),
    )
    await svc.store.write(lambda tx: tx.insert_attachment(row))
    token, expires = sign_token(await current_secret(svc.store), "upload",
                                {"a": attachment_id, "s": spec.size_bytes, "h": row.sha256},
                                svc.settings.upload_url_ttl, now=now)
    return JSONResponse({"attachmentId": attachment_id, "uploadUrl": f"/api/uploads/{token}",
                         "expiresAt": _iso(expires)}, status_code=201)


@router.put("/api/uploads/{token}", status_code=204)
async def put_upload(request: Request, token: str) -> Response:
    svc = services_of(request)
    claims = verify_token(await current_secret(svc.store), "upload", token)
    attachment_id, size, sha = str(claims["a"]), int(claims["s"]), str(claims["h"])
    row = await svc.store.read(lambda r: r.attachment(attachment_id))
    if row is None or row.state not in ("pending", "uploaded"):
        raise not_found("No such upload.", "not_found")
    if row.state == "uploaded":
        return Response(status_code=204)
    folder = private_dir(svc.settings.attachments_dir)
    final = folder / row.storage_path
    part = folder / f"{row.storage_path}.{os.getpid()}.{new_id('p')}.part"
    digest, count = hashlib.sha256(), 0
    try:
        with os.fdopen(open_private(part), "wb") as out:
            async for chunk in request.stream():
                count += len(chunk)
                if count > size:
                    raise too_large("The upload is larger than announced.")
                digest.update(chunk)
                out.write(chunk)
        if count != size or digest.hexdigest() != sha:
            raise invalid("The upload does not match its announced size and sha256.")
        os.replace(part, final)
    finally:
        part.unlink(missing_ok=True)

    def mark(tx: Transaction) -> bool:
        """Mark the upload done; False when it was released while its bytes were arriving."""
        current = tx.attachment(attachment_id)
        if current is not None and current.state == "pending":
            tx.set_attachment(attachment_id, state="uploaded")
        return current is None or current.state != "deleted"

    if not await svc.store.write(mark):
        final.unlink(missing_ok=True)  # cancelled meanwhile: its bytes go too
        raise not_found("No such upload.", "not_found")
    return Response(status_code=204)


@router.delete("/api/attachments/{attachment_id}", status_code=204)
async def delete_upload(request: Request, attachment_id: str) -> Response:
    svc = services_of(request)
    device = await device_of(request)

    def release(tx: Transaction) -> AttachmentRow:
        row = tx.attachment(attachment_id)
        if row is None or row.device_id != device.device_id or row.state not in (
            "pending", "uploaded"
        ):
            raise not_found("No such upload.", "not_found")
        tx.set_attachment(attachment_id, state="deleted")
        return row

    row = await svc.store.write(release)
    (svc.settings.attachments_dir / row.storage_path).unlink(missing_ok=True)
    return Response(status_code=204)




def remove_files(folder: Path, names: Iterable[str]) -> None:
    """Delete attachment files by storage name (already gone is fine)."""
    for name in names:
        if STORAGE_NAME.fullmatch(name):
            (folder / name).unlink(missing_ok=True)


def sweep_files(folder: Path, live: set[str], now: float, part_ttl: float) -> int:
    """Delete files no live attachment names, and ``.part`` files older than ``part_ttl``.

    Only names the server itself gives attachment files are ever touched.
    """
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return 0
    for entry in entries:
        match = STORAGE_NAME.fullmatch(entry.name)
        if match is None or not entry.is_file(follow_symlinks=False):
            continue
        if match.group("part"):
            try:
                if now - entry.stat(follow_symlinks=False).st_mtime < part_ttl:
                    continue
            except FileNotFoundError:
                continue
        elif entry.name in live:
            continue
        Path(entry.path).unlink(missing_ok=True)
        removed += 1
    return removed


def expire_uploads(tx: Transaction, now: str) -> list[str]:
    """Mark uploads never attached before their deadline deleted; their storage names."""
    stale = tx.stale_uploads(now)
    for row in stale:
        tx.set_attachment(row.attachment_id, state="deleted")
    return [row.storage_path for row in stale]


async def sweep_uploads(store: ThreadStore, folder: Path, now: float | None = None,
                        part_ttl: float = 3600.0) -> int:
    """Delete pending uploads not attached within their lifetime (bytes and row state), then
    every file no live attachment names (released, cancelled, or left by a crash)."""
    moment = time.time() if now is None else now
    stamp = _iso(moment)
    names = await store.write(lambda tx: expire_uploads(tx, stamp))
    await asyncio.to_thread(remove_files, folder, names)
    live = await store.read(lambda r: r.live_storage_names())
    swept = await asyncio.to_thread(sweep_files, folder, live, moment, part_ttl)
    return len(names) + swept
