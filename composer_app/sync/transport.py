"""The one HTTP adapter of the sync client (httpx behind a small surface).

Invariants: no httpx type or exception leaves this module; a network failure or timeout raises
``TransportError`` (retryable by the caller); every answer, success or error, comes back as a
``Reply`` with the status, the decoded JSON body (or None) and the ``Retry-After`` header. Swapping
httpx for a drop-in (``httpx2``) is the import line below.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from composer_app.core.errors import TransportError

DEFAULT_TIMEOUT_SECONDS = 30.0
DOWNLOAD_TIMEOUT_SECONDS = 60.0


@dataclass(frozen=True)
class Reply:
    """One HTTP answer."""

    status: int
    body: Any
    retry_after: str | None = None
    content: bytes = b""

    @property
    def ok(self) -> bool:
        """True for 2xx."""
        return 200 <= self.status < 300

    @property
    def error_code(self) -> str | None:
        """``error.code`` of a spec error body, if any."""
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            code = self.body["error"].get("code")
            return str(code) if code is not None else None
        return None


class ReplyError(Exception):
    """A streamed request answered with a non-2xx status (``reply`` holds it)."""

    def __init__(self, reply: Reply) -> None:
        super().__init__(f"HTTP {reply.status} {reply.error_code or ''}".strip())
        self.reply = reply


class HttpTransport:
    """An HTTP session against one server base URL, with an optional bearer token."""

    def __init__(self, base_url: str, token: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT_SECONDS) -> None:
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._client = httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout)

    def set_token(self, token: str) -> None:
        """Send ``token`` as the bearer token from the next request on."""
        self._client.headers["Authorization"] = f"Bearer {token}"

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._client.aclose()

    async def request(self, method: str, path: str, *, json_body: Any = None,
                      content: bytes | None = None, headers: dict[str, str] | None = None,
                      timeout: float | None = None) -> Reply:
        """Send one request; raise ``TransportError`` when no HTTP answer arrived."""
        try:
            kwargs: dict[str, Any] = {"headers": dict(headers or {})}
            if json_body is not None:
                kwargs["content"] = json.dumps(json_body, ensure_ascii=False).encode()
                kwargs["headers"]["Content-Type"] = "application/json"
            elif content is not None:
                kwargs["content"] = content
            if timeout is not None:
                kwargs["timeout"] = timeout
            response = await self._client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise TransportError(f"{method} {path}: {type(exc).__name__}: {exc}") from exc
        body: Any = None
        if response.headers.get("content-type", "").startswith("application/json"):
            try:
                body = response.json()
            except ValueError:
                body = None
        return Reply(response.status_code, body, response.headers.get("retry-after"),
                     response.content)

    async def get(self, path: str, **kw: Any) -> Reply:
        """GET ``path``."""
        return await self.request("GET", path, **kw)

    async def post(self, path: str, body: Any, **kw: Any) -> Reply:
        """POST a JSON body."""
        return await self.request("POST", path, json_body=body, **kw)

    async def put_bytes(self, path: str, data: bytes, **kw: Any) -> Reply:
        """PUT raw bytes (signed upload URL; the URL is the capability)."""
        return await self.request("PUT", path, content=data,
                                  headers={"Content-Type": "application/octet-stream"}, **kw)

    async def post_lines(self, path: str, body: Any, *,
                         timeout: float | None = None) -> AsyncGenerator[str, None]:
        """POST a JSON body and yield the answer's lines as they arrive (NDJSON streams).

        A non-2xx answer raises ``ReplyError`` with its ``Reply``; closing the iterator closes the
        connection (the server sees the client go away)."""
        kwargs: dict[str, Any] = {"headers": {"Content-Type": "application/json"},
                                  "content": json.dumps(body, ensure_ascii=False).encode()}
        if timeout is not None:
            kwargs["timeout"] = timeout
        try:
            async with self._client.stream("POST", path, **kwargs) as response:
                if not 200 <= response.status_code < 300:
                    data = await response.aread()
                    try:
                        parsed = json.loads(data) if data else None
                    except ValueError:
                        parsed = None
                    raise ReplyError(Reply(response.status_code, parsed,
                                           response.headers.get("retry-after"), data))
                async for line in response.aiter_lines():
                    if line:
                        yield line
        except httpx.HTTPError as exc:
            raise TransportError(f"POST {path}: {type(exc).__name__}: {exc}") from exc

    async def delete(self, path: str, **kw: Any) -> Reply:
        """DELETE ``path``."""
        return await self.request("DELETE", path, **kw)

    async def download(self, path: str, write: Callable[[bytes], object],
                       progress: Callable[[int, int], object] | None = None,
                       timeout: float | None = None) -> tuple[int, dict[str, str]]:
        """GET ``path`` streaming its body into ``write``; ``progress(received, total)`` after each
        chunk (total 0 when unknown). Returns the status and the response headers; a non-2xx
        body is not written. ``TransportError`` when the transfer broke."""
        try:
            async with self._client.stream("GET", path, timeout=timeout or httpx.USE_CLIENT_DEFAULT
                                           ) as response:
                headers = dict(response.headers)
                if not 200 <= response.status_code < 300:
                    return response.status_code, headers
                total = int(headers.get("content-length", "0") or 0)
                received = 0
                async for chunk in response.aiter_bytes():
                    write(chunk)
                    received += len(chunk)
                    if progress is not None:
                        progress(received, total)
                return response.status_code, headers
        except httpx.HTTPError as exc:
            raise TransportError(f"GET {path}: {type(exc).__name__}: {exc}") from exc


def ws_url(base_url: str, path: str = "/api/ws") -> str:
    """The WebSocket URL for ``path`` on ``base_url`` (http -> ws, https -> wss)."""
    base = base_url.rstrip("/")
    if base.startswith("https://"):
        return "wss://" + base[len("https://"):] + path
    if base.startswith("http://"):
        return "ws://" + base[len("http://"):] + path
    return base + path
