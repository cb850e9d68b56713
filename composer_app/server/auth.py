"""Bearer-token authentication: every token is one device of one user.

Invariants: only the SHA-256 of a token is stored or compared; a missing, unknown or revoked token
is ``401 unauthorized``; successful lookups are cached per process (a revocation takes effect on
restart).
"""

from __future__ import annotations

from composer_app.server.errors import ApiError
from composer_app.server.store.base import Device, ThreadStore
from composer_app.server.store.executor import token_hash


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


class Authenticator:
    def __init__(self, store: ThreadStore) -> None:
        self.store = store
        self._cache: dict[str, Device] = {}

    async def device(self, header: str | None) -> Device:
        token = bearer_token(header)
        if token is None:
            raise ApiError(401, "unauthorized", "Sign in: a bearer token is required.")
        digest = token_hash(token)
        device = self._cache.get(digest)
        if device is None:
            device = await self.store.read(lambda r: r.device_by_token_hash(digest))
            if device is None:
                raise ApiError(401, "unauthorized", "This token is not valid; sign in again.")
            self._cache[digest] = device
        return device
