"""Asset URLs: ``POST /api/assets/url`` → signed ``GET /api/assets/{token}`` (no header needed).

Invariants: a URL is issued only for an attachment of the caller's user (else ``404``); it expires
after ``asset_url_ttl`` seconds (``410``); the token bakes in the user, disposition, file name and
MIME type, and the file is served from its server-chosen storage name. Every asset is served under
``Content-Security-Policy: sandbox`` with ``nosniff``, so active content (HTML, SVG, XHTML) never
runs with the API's origin; a stored type that is not a valid media type is served as
``application/octet-stream``.
"""

from __future__ import annotations

import time
from urllib.parse import quote

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from pydantic import ValidationError

from composer_app.core.contracts.environment import AssetUrlRequest
from composer_app.server.errors import invalid, not_found
from composer_app.server.json_body import read_json
from composer_app.server.routes.attachments import _iso, valid_media_type
from composer_app.server.services import device_of, services_of
from composer_app.server.signing import current_secret, sign_token, verify_token

router = APIRouter()
READABLE = ("uploaded", "attached")


def content_disposition(disposition: str, name: str) -> str:
    """RFC 6266 header with an ASCII fallback and the UTF-8 ``filename*``."""
    fallback = "".join(c if 32 <= ord(c) < 127 and c not in '"\\;' else "_" for c in name)
    return f"{disposition}; filename=\"{fallback or 'file'}\"; filename*=UTF-8''{quote(name)}"


@router.post("/api/assets/url")
async def create_asset_url(request: Request) -> JSONResponse:
    svc = services_of(request)
    device = await device_of(request)
    obj = await read_json(request, svc.settings.max_json_bytes)
    try:
        spec = AssetUrlRequest.model_validate(obj)
    except ValidationError:
        raise invalid("An asset URL needs attachmentId and disposition.") from None
    row = await svc.store.read(lambda r: r.attachment(spec.attachment_id))
    if row is None or row.user_id != device.user_id or row.state not in READABLE:
        raise not_found("No such attachment.", "not_found")
    token, expires = sign_token(await current_secret(svc.store), "asset",
                                {"a": row.attachment_id, "u": device.user_id,
                                 "d": spec.disposition}, svc.settings.asset_url_ttl,
                                now=time.time())
    return JSONResponse({"url": f"/api/assets/{token}", "expiresAt": _iso(expires)})


@router.get("/api/assets/{token}")
async def get_asset(request: Request, token: str) -> Response:
    svc = services_of(request)
    claims = verify_token(await current_secret(svc.store), "asset", token)
    attachment_id = str(claims["a"])
    row = await svc.store.read(lambda r: r.attachment(attachment_id))
    if row is None or row.user_id != claims.get("u") or row.state not in READABLE:
        raise not_found("No such attachment.", "not_found")
    path = svc.settings.attachments_dir / row.storage_path
    if not path.is_file():
        raise not_found("No such attachment.", "not_found")
    disposition = "attachment" if claims.get("d") == "attachment" else "inline"
    media_type = row.mime_type if valid_media_type(row.mime_type) else "application/octet-stream"
    return FileResponse(path, media_type=media_type, headers={
        "Content-Disposition": content_disposition(disposition, row.name),
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox",
        "Cache-Control": "private, max-age=300",
    })
