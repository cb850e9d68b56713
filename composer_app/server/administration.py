"""Command-line administration of a store: device tokens and the URL-signing secret.

Invariants: a token is never shown again after ``create-token`` (``list-tokens`` shows device
names, ids and dates only); ``revoke-token`` marks the device revoked in the shared database, which
every server process checks on every request, so the token is refused at once everywhere;
``rotate-secret`` replaces the signing secret, which servers read from the database whenever they
sign or verify a URL, so every upload and asset URL signed before stops working at once.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from composer_app.core.contracts.wire import format_timestamp
from composer_app.server.signing import SIGNING_SECRET_KEY
from composer_app.server.store.base import Transaction
from composer_app.server.store.executor import ExecutorStore
from composer_app.server.store.sql import DeviceAdmin, DeviceInfo, SqlQueries


def _write[T](store: ExecutorStore, fn: Callable[[DeviceAdmin], T]) -> T:
    def run(tx: Transaction) -> T:
        assert isinstance(tx, SqlQueries)
        return fn(DeviceAdmin(tx))

    async def go() -> T:
        return await store.write(run)

    return asyncio.run(go())


def list_tokens(store: ExecutorStore, user_name: str) -> list[DeviceInfo] | None:
    """The user's devices (None: no such user)."""
    return _write(store, lambda admin: admin.devices_of(user_name))


def revoke_token(store: ExecutorStore, user_name: str, device_name: str) -> int:
    """Revoke the user's device named ``device_name``; how many tokens were revoked."""
    at = format_timestamp()
    return _write(store, lambda admin: admin.revoke(user_name, device_name, at))


def rotate_secret(store: ExecutorStore) -> None:
    """A new random URL-signing secret (old upload and asset URLs stop verifying)."""
    value = secrets.token_hex(32)
    _write(store, lambda admin: admin.set_server_value(SIGNING_SECRET_KEY, value))
    store.secret = bytes.fromhex(value)
