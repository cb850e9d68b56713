"""Bearer-token authentication: every token is one device of one user.

Invariants: only the SHA-256 of a token is stored or compared; a missing, unknown or revoked token
is ``401 unauthorized``. A revocation is seen at once by every server process sharing the
database: every request looks its token up in the store, except ``POST /api/commands``, which uses
a per-process cache and checks the device again inside its command transaction (one indexed read
in a transaction it runs anyway), so a revoked device can neither read nor write.
"""

from __future__ import annotations

from composer_app.server.errors import ApiError
from composer_app.server.store.base import Device, ThreadStore
from composer_app.server.store.executor import token_hash

CACHE_LIMIT = 10_000


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def refused() -> ApiError:
    return ApiError(401, "unauthorized", "This token is not valid; sign in again.")


class Authenticator:
    def __init__(self, store: ThreadStore) -> None:
        self.store = store
        self._cache: dict[str, Device] = {}

    async def device(self, header: str | None, *, cached: bool = False) -> Device:
        """The device of a bearer header, looked up in the store (``cached``: in this process's
        cache first; the caller must then check ``Transaction.device_active`` itself)."""
        token = bearer_token(header)
        if token is None:
            raise ApiError(401, "unauthorized", "Sign in: a bearer token is required.")
        digest = token_hash(token)
        device = self._cache.get(digest) if cached else None
        if device is None:
            device = await self.store.read(lambda r: r.device_by_token_hash(digest))
            if device is None:
                self._cache.pop(digest, None)
                raise refused()
            if len(self._cache) >= CACHE_LIMIT:
                self._cache.clear()
            self._cache[digest] = device
        return device

    async def still_valid(self, device: Device) -> None:
        """``401`` when ``device`` was revoked since it signed in."""
        if not await self.store.read(lambda r: r.device_active(device.device_id)):
            raise refused()
