"""The per-app service bundle routes reach through ``request.app.state.services`` (no globals)."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection

from composer_app.server.auth import Authenticator
from composer_app.server.errors import ApiError, too_large
from composer_app.server.hub import Hub
from composer_app.server.rate_limit import RateLimiter
from composer_app.server.settings import ServerSettings
from composer_app.server.store.base import Device, ThreadStore
from composer_app.server.turns import TurnRunner


@dataclass
class Services:
    settings: ServerSettings
    store: ThreadStore
    hub: Hub
    auth: Authenticator
    runner: TurnRunner
    limiter: RateLimiter


def services_of(conn: HTTPConnection) -> Services:
    services: Services = conn.app.state.services
    return services


async def device_of(conn: HTTPConnection, *, cached: bool = False) -> Device:
    """The caller's device (``401`` otherwise), within its user's rate limit (``429``)."""
    svc = services_of(conn)
    device = await svc.auth.device(conn.headers.get("authorization"), cached=cached)
    svc.limiter.check(device.user_id)
    return device


async def read_limited(request: object, limit: int) -> bytes:
    """The request body, or ``413 too_large`` past ``limit`` bytes (checked while streaming)."""
    from starlette.requests import Request

    assert isinstance(request, Request)
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise too_large(f"The request body is over {limit} bytes.")
        except ValueError:
            raise ApiError(400, "invalid_command", "Bad Content-Length.") from None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large(f"The request body is over {limit} bytes.")
        chunks.append(chunk)
    return b"".join(chunks)
