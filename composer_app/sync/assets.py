"""Bringing an attachment's bytes over from a source environment (paste import).

Invariants: the source server is asked for a signed, expiring asset URL and the bytes are read from
that URL within ``DOWNLOAD_TIMEOUT_SECONDS``; every failure raises ``AssetFetchError`` whose
``reason`` is one of the user-facing reason lines of the paste-import contract. No server-side copy
is ever requested.
"""

from __future__ import annotations

from composer_app.core.contracts.environment import AssetUrlRequest, AssetUrlResponse
from composer_app.core.errors import TransportError
from composer_app.sync.transport import DOWNLOAD_TIMEOUT_SECONDS, HttpTransport

NOT_CONNECTED = "The environment it came from is not connected."
NO_LONGER_AVAILABLE = "The original attachment is no longer available."
DOWNLOAD_FAILED = "Downloading it from the source failed."
DRAFT_REJECTED = "The draft rejected this attachment (duplicate or attachment limit reached)."


class AssetFetchError(TransportError):
    """An asset could not be brought over; ``reason`` is the user-facing line."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason} {detail}".strip())
        self.reason = reason


async def asset_url(http: HttpTransport, attachment_id: str, disposition: str = "inline") -> str:
    """A signed URL (absolute) for ``attachment_id`` on the server behind ``http``."""
    request = AssetUrlRequest.model_validate(
        {"attachmentId": attachment_id, "disposition": disposition})
    try:
        reply = await http.post("/api/assets/url", request.to_wire())
    except TransportError as exc:
        raise AssetFetchError(NOT_CONNECTED, str(exc)) from exc
    if not reply.ok:
        raise AssetFetchError(NO_LONGER_AVAILABLE, f"HTTP {reply.status}")
    try:
        url = AssetUrlResponse.model_validate(reply.body).url
    except ValueError as exc:
        raise AssetFetchError(NO_LONGER_AVAILABLE, "bad answer") from exc
    return url if "://" in url else http.base_url + "/" + url.lstrip("/")


async def download_asset(http: HttpTransport, attachment_id: str) -> bytes:
    """The bytes of ``attachment_id``, via a fresh signed URL."""
    url = await asset_url(http, attachment_id, "attachment")
    try:
        reply = await http.get(url, timeout=DOWNLOAD_TIMEOUT_SECONDS)
    except TransportError as exc:
        raise AssetFetchError(DOWNLOAD_FAILED, str(exc)) from exc
    if reply.status in (404, 410):
        raise AssetFetchError(NO_LONGER_AVAILABLE, f"HTTP {reply.status}")
    if not reply.ok:
        raise AssetFetchError(DOWNLOAD_FAILED, f"HTTP {reply.status}")
    return reply.content
