"""The embedded server: the real server on ``127.0.0.1`` in a background thread of this process.

Invariants: it listens on loopback only, on a free port chosen by the OS; it reuses one device token
per data directory and device name (kept in ``device-<name>.token``, mode 0600, beside the 0600
database; stored hashed like any other), minting a new one only when that file is missing or its
token no longer works (revoked), so app starts do not pile up tokens; it has its own data
directory; ``stop()`` shuts uvicorn down gracefully, closes the store and joins the thread; clients
talk to it over real HTTP and WebSocket.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from dataclasses import dataclass, replace
from pathlib import Path

import uvicorn

from composer_app.core.errors import ConfigError
from composer_app.server.app import build_app
from composer_app.server.http_protocol import server_config
from composer_app.server.private_files import private_dir, write_private
from composer_app.server.settings import ServerSettings
from composer_app.server.store import open_store
from composer_app.server.store.executor import ExecutorStore, token_hash

START_TIMEOUT = 30.0


@dataclass
class EmbeddedServer:
    """A running embedded server; ``url`` has no trailing slash."""

    url: str
    token: str
    data_dir: Path
    environment_id: str
    _server: uvicorn.Server
    _thread: threading.Thread

    def stop(self, timeout: float = 10.0) -> None:
        self._server.should_exit = True
        self._thread.join(timeout)

    def __enter__(self) -> EmbeddedServer:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def device_token(store: ExecutorStore, data_dir: Path, user: str, device: str) -> str:
    """The embedded server's token for ``user``'s ``device``: the saved one while it works."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in device) or "desktop"
    path = data_dir / f"device-{safe}.token"
    try:
        saved = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        saved = ""
    if saved:
        digest = token_hash(saved)
        known = store.read_sync(lambda r: r.device_by_token_hash(digest))
        if known is not None and known.name == device:
            return saved
    token, _ = store.create_token(user, device)
    write_private(path, token.encode("ascii"))
    return token


def start_embedded(data_dir: Path, *, settings: ServerSettings | None = None,
                   user: str = "local", device: str = "desktop", port: int = 0,
                   ws_ping_interval: float = 20.0) -> EmbeddedServer:
    """Start the server in a daemon thread and wait until it accepts connections."""
    data_dir = Path(data_dir)
    settings = replace(settings, data_dir=data_dir) if settings else ServerSettings(data_dir)
    private_dir(data_dir)
    store = open_store(data_dir, settings.database_url)
    store.open()
    token = device_token(store, data_dir, user, device)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    host, bound = sock.getsockname()[:2]
    app = build_app(settings, store)
    config = server_config(app, log_level="warning", ws_ping_interval=ws_ping_interval,
                           ws_ping_timeout=ws_ping_interval, lifespan="on")
    server = uvicorn.Server(config)
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(server.serve(sockets=[sock]))
        except BaseException as exc:  # reported to the caller below
            failure.append(exc)
        finally:
            sock.close()

    thread = threading.Thread(target=run, name="composer-embedded-server", daemon=True)
    thread.start()
    started = threading.Event()

    def wait_started() -> None:
        while thread.is_alive() and not server.started:
            started.wait(0.01)

    wait_started_thread = threading.Thread(target=wait_started, daemon=True)
    wait_started_thread.start()
    wait_started_thread.join(START_TIMEOUT)
    if not server.started:
        server.should_exit = True
        thread.join(5)
        raise ConfigError(f"the embedded server did not start: {failure[0] if failure else '?'}")
    return EmbeddedServer(f"http://{host}:{bound}", token, data_dir, store.environment_id,
                          server, thread)
