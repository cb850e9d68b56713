"""Read-only share links of a thread, on the server behind an ``HttpTransport``.

Invariants: every call is for the signed-in user's own thread (the server answers ``404``
otherwise, which raises ``ShareError`` with a user-facing reason); a created link is returned as an
absolute URL on the same server; its token is never stored on the client.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from composer_app.core.errors import TransportError
from composer_app.sync.transport import HttpTransport

NOT_CONNECTED = "The server could not be reached."
NOT_FOUND = "This thread is not on the server yet, or the link no longer exists."
FAILED = "The server could not change the share links."


class ShareError(TransportError):
    """A share-link call failed; ``reason`` is the user-facing line."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason} {detail}".strip())
        self.reason = reason


@dataclass(frozen=True)
class ShareLink:
    """One active share link (``url`` only right after creation: the server keeps no token)."""

    share_id: str
    created_at: str
    url: str | None = None


def _path(thread_id: str, *rest: str) -> str:
    return "/".join(["/api/threads", quote(thread_id, safe=""), "shares",
                     *(quote(part, safe="") for part in rest)])


def _check(status: int) -> None:
    if status == 404:
        raise ShareError(NOT_FOUND, f"HTTP {status}")
    if not 200 <= status < 300:
        raise ShareError(FAILED, f"HTTP {status}")


async def create_share(http: HttpTransport, thread_id: str) -> ShareLink:
    """Create a share link of ``thread_id``."""
    try:
        reply = await http.post(_path(thread_id), {})
    except TransportError as exc:
        raise ShareError(NOT_CONNECTED, str(exc)) from exc
    _check(reply.status)
    body = reply.body if isinstance(reply.body, dict) else {}
    url, share_id = body.get("url"), body.get("shareId")
    if not isinstance(url, str) or not isinstance(share_id, str):
        raise ShareError(FAILED, "bad answer")
    absolute = url if "://" in url else http.base_url + "/" + url.lstrip("/")
    return ShareLink(share_id, str(body.get("createdAt", "")), absolute)


async def list_shares(http: HttpTransport, thread_id: str) -> list[ShareLink]:
    """The active share links of ``thread_id``, oldest first."""
    try:
        reply = await http.get(_path(thread_id))
    except TransportError as exc:
        raise ShareError(NOT_CONNECTED, str(exc)) from exc
    _check(reply.status)
    body = reply.body if isinstance(reply.body, dict) else {}
    items = body.get("shares") if isinstance(body.get("shares"), list) else []
    return [ShareLink(str(i["shareId"]), str(i.get("createdAt", ""))) for i in items or []
            if isinstance(i, dict) and isinstance(i.get("shareId"), str)]


async def revoke_share(http: HttpTransport, thread_id: str, share_id: str) -> None:
    """Revoke one share link (its page answers ``404`` from then on)."""
    try:
        reply = await http.delete(_path(thread_id, share_id))
    except TransportError as exc:
        raise ShareError(NOT_CONNECTED, str(exc)) from exc
    _check(reply.status)
