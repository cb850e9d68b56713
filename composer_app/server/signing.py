"""Signed capability tokens for upload and asset URLs.

``token = b64url(json_payload) + "." + b64url(HMAC-SHA256(secret, json_payload))``. Invariants: a
token verifies only with the server secret (constant-time compare) and only for its purpose; expiry
is checked after the signature, so a forged token never learns whether it would have expired.
The secret is read from the store each time a URL is signed or verified (``current_secret``), so
``composer-server rotate-secret`` applies at once to every running server process.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any

from composer_app.server.errors import ApiError
from composer_app.server.store.base import ThreadStore

SIGNING_SECRET_KEY = "signing_secret"


async def current_secret(store: ThreadStore) -> bytes:
    """The store's signing secret as the database holds it now."""
    value = await store.read(lambda r: r.server_value(SIGNING_SECRET_KEY))
    if value:
        store.secret = bytes.fromhex(value)
    return store.secret


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign_token(secret: bytes, purpose: str, claims: dict[str, Any], ttl: float,
               *, now: float | None = None) -> tuple[str, float]:
    """A token for ``purpose`` carrying ``claims``; returns it and its expiry (epoch seconds)."""
    expires = (time.time() if now is None else now) + ttl
    payload = json.dumps({"p": purpose, "e": round(expires, 3), **claims},
                         separators=(",", ":"), sort_keys=True).encode("utf-8")
    mac = hmac.new(secret, payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(mac)}", expires


def verify_token(secret: bytes, purpose: str, token: str, *, now: float | None = None
                 ) -> dict[str, Any]:
    """The claims of a valid token; ``404`` when forged or for another purpose, ``410`` expired."""
    try:
        head, _, tail = token.partition(".")
        payload = _unb64(head)
        mac = _unb64(tail)
    except (ValueError, UnicodeError):
        raise ApiError(404, "not_found", "No such URL.") from None
    expected = hmac.new(secret, payload, hashlib.sha256).digest()
    if not hmac.compare_digest(mac, expected):
        raise ApiError(404, "not_found", "No such URL.")
    claims = json.loads(payload)
    if not isinstance(claims, dict) or claims.get("p") != purpose:
        raise ApiError(404, "not_found", "No such URL.")
    if float(claims.get("e", 0)) < (time.time() if now is None else now):
        raise ApiError(410, "url_expired", "This URL has expired; request a new one.")
    return claims
