"""How uvicorn serves the app: the HTTP protocol with a header deadline, timeouts and limits.

Invariants: a connection that has not started a request (sent its complete headers) within
``HEADER_TIMEOUT``..2×``HEADER_TIMEOUT`` seconds of connecting or of its previous response is
closed, so half-sent requests (slowloris) cannot hold connections; idle keep-alive connections
close after ``KEEP_ALIVE_TIMEOUT``; WebSocket frames over ``WS_MAX_BYTES`` close their socket; the
process may hold as many file descriptors as its hard limit allows, so many stalled connections
cannot exhaust the default 1,024 before the deadline frees them. A connection upgraded to a
WebSocket leaves the HTTP deadline behind. What one step of the event loop writes to a connection
(a response's status line, headers and body; a socket's WebSocket frames) leaves the process in one
socket write at the end of that step (``ResponseWriter``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import uvicorn

from composer_app.server.access_log import install_access_log_redaction

HEADER_TIMEOUT = 10.0
KEEP_ALIVE_TIMEOUT = 5
WS_MAX_BYTES = 1 << 20
FLUSH_BYTES = 64 * 1024  # held writes of one loop step are sent at once from this size on
GRACEFUL_SHUTDOWN_SECONDS = 10
_log = logging.getLogger(__name__)


def _base_protocol() -> type[asyncio.Protocol]:
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # the pure-Python parser
        from uvicorn.protocols.http.h11_impl import H11Protocol
        return H11Protocol
    return HttpToolsProtocol


_Base: Any = _base_protocol()


class ResponseWriter:
    """A socket transport that sends what one step of the event loop writes as one socket write.

    uvicorn writes a response's status line and headers, then its body, as two writes, and sends
    each WebSocket frame as a write of its own; one loop step often writes several (a response, or
    the events of one commit to one socket). Writes are held and sent together, in order, at the
    end of the current loop step (one ``send``, one TCP segment for the client to wake up for);
    held bytes reaching ``FLUSH_BYTES`` are sent at once, and closing sends what is held first.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] | None = None
        self._size = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        chunk = data if isinstance(data, bytes) else bytes(data)  # the caller may reuse a buffer
        held = self._held
        if held is None:
            if len(chunk) >= FLUSH_BYTES:
                self._transport.write(chunk)
                return
            self._held, self._size = [chunk], len(chunk)
            self._loop.call_soon(self.flush)
            return
        held.append(chunk)
        self._size += len(chunk)
        if self._size >= FLUSH_BYTES:
            self.flush()

    def flush(self) -> None:
        """Send what is held now."""
        held, self._held = self._held, None
        if held is not None and not self._transport.is_closing():
            self._transport.write(held[0] if len(held) == 1 else b"".join(held))

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class HeaderDeadlineProtocol(_Base):  # type: ignore[misc]
    """uvicorn's HTTP protocol, closing connections that take too long to send a request, and
    sending what a loop step writes in one write (``ResponseWriter``, kept by a WebSocket the
    connection is upgraded to)."""

    header_timeout = HEADER_TIMEOUT

    def connection_made(self, transport: Any) -> None:
        super().connection_made(ResponseWriter(transport, self.loop))
        self._checked_cycle: object = self.cycle
        self._deadline: asyncio.TimerHandle | None = self.loop.call_later(
            self.header_timeout, self._check_progress)

    def _check_progress(self) -> None:
        self._deadline = None
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return  # closed, or upgraded to a WebSocket
        cycle = self.cycle
        waiting = cycle is None or cycle.response_complete
        if waiting and cycle is self._checked_cycle:
            _log.debug("closing a connection that sent no complete request in time")
            transport.close()
            return
        self._checked_cycle = cycle
        self._deadline = self.loop.call_later(self.header_timeout, self._check_progress)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)


def raise_file_limit() -> None:
    """Let the process use as many file descriptors as its hard limit allows."""
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = hard if hard != resource.RLIM_INFINITY else 65_536
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def server_config(app: Any, **options: Any) -> uvicorn.Config:
    """A uvicorn configuration for ``app`` with the server's protocol, timeouts and limits."""
    settings: dict[str, Any] = {
        "http": HeaderDeadlineProtocol,
        "timeout_keep_alive": KEEP_ALIVE_TIMEOUT,
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
        "ws_max_size": WS_MAX_BYTES,
        "server_header": False,
    }
    settings.update(options)
    level = logging.getLevelName(str(settings.get("log_level", "info")).upper())
    if isinstance(level, int) and level > logging.INFO and "access_log" not in options:
        # the access log writes at INFO: above it no line is written, so uvicorn need not build
        # one per request (client address, quoted path) only for the logger to drop it
        settings["access_log"] = False
    config = uvicorn.Config(app, **settings)
    install_access_log_redaction()
    return config
