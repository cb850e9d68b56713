"""The app's backend: the embedded thread server (when no remote server is chosen) and the sync
engine connected to it, started and stopped in order.

Invariants: the embedded server listens on loopback with a random port and a generated token and
answers with the assistant the settings choose; ``EarlyServer`` starts it in its own process
(``server_process``) from a thread, so it starts on another core while the window builds itself,
and re-raises its error on the caller's thread; ``start_embedded_server`` runs it in this process
(the server process itself, tests and the self-test); ``Started.stop``
stops the sync engine, then the embedded server (and its providers), once, and only after the
window's ``shutdown``. Importing this module loads neither the server nor Qt (they load in
the functions that need them, so the server's start overlaps loading the window's code).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from composer_app.ui.settings.settings_logic import AppPaths, AppSettings, Connection

if TYPE_CHECKING:  # imported late: the server and Qt load while the app starts, not before
    from composer_app.server.embedded import EmbeddedServer
    from composer_app.server.providers.registry import ProviderRouter
    from composer_app.ui.account_engines import AccountEngines
    from composer_app.ui.sync_bridge import SyncBridge

__all__ = ["EarlyServer", "LocalServer", "RunningServer", "Started", "connect_backend",
           "start_embedded_server", "stop_embedded_server"]

_log = logging.getLogger(__name__)


class RunningServer(Protocol):
    """A started embedded server, in this process (``LocalServer``) or its own
    (``ServerProcess``)."""

    @property
    def url(self) -> str: ...

    @property
    def token(self) -> str: ...

    def stop(self) -> None: ...


@dataclass
class LocalServer:
    """The embedded server and the assistant providers it answers with."""

    server: EmbeddedServer
    router: ProviderRouter

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def token(self) -> str:
        return self.server.token

    def stop(self) -> None:
        """Stop the server, then close its providers (the local index); best effort at exit."""
        self.server.stop()
        try:
            self.router.close()
        except Exception:  # closing is best effort at exit
            _log.exception("closing the assistant providers failed")


def start_embedded_server(paths: AppPaths, settings: AppSettings,
                          server_dir: Path | None = None,
                          workspace_roots: tuple[Path, ...] | None = None,
                          port: int = 0, settle_heap: bool = False) -> LocalServer:
    """Start the embedded server with the chosen assistant provider on ``port`` (0: any free
    one); thread workspaces may lie under ``workspace_roots`` (the home folder by default) and
    run commands. ``settle_heap`` only where the server has the process to itself."""
    from composer_app.server.embedded import start_embedded
    from composer_app.server.providers.registry import ProviderOptions, ProviderRouter
    from composer_app.server.settings import ServerSettings

    directory = server_dir or paths.server_dir
    directory.mkdir(parents=True, exist_ok=True)
    knowledge = Path(settings.knowledge_dir).expanduser() if settings.knowledge_dir else None
    router = ProviderRouter(ProviderOptions(
        data_dir=directory,
        provider=settings.provider,
        knowledge_dir=knowledge if knowledge is not None and knowledge.is_dir() else None,
        openai_base_url=settings.openai_base_url,
        openai_model=settings.openai_model or None,
    ))
    server = start_embedded(directory, settings=ServerSettings(
        directory, provider=router, workspace_roots=workspace_roots or (Path.home(),),
        allow_commands=True, settle_heap=settle_heap), port=port)
    return LocalServer(server, router)


def stop_embedded_server(server: RunningServer) -> None:
    """Stop the server, then close its providers (the local index)."""
    server.stop()


class EarlyServer:
    """Starts the embedded server's process right away, from a thread, so it starts on another
    core while the window builds itself."""

    def __init__(self, paths: AppPaths, settings: AppSettings) -> None:
        self._result: RunningServer | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(paths, settings),
                                        name="composer-server-start", daemon=True)
        self._thread.start()

    def _run(self, paths: AppPaths, settings: AppSettings) -> None:
        from composer_app.ui.server_process import ServerConfig, ServerProcess

        try:
            paths.server_dir.mkdir(parents=True, exist_ok=True)
            self._result = ServerProcess.start(ServerConfig.of(paths, settings))
        except BaseException as exc:  # re-raised on the GUI thread by ``wait``
            self._error = exc

    def done(self) -> bool:
        """Whether the start has ended (``wait`` then returns at once)."""
        return not self._thread.is_alive()

    def wait(self) -> RunningServer:
        """The started server; its start's error is raised here."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


@dataclass
class Started:
    """A running backend: the bridge and, for the embedded server, the server."""

    bridge: SyncBridge
    server: RunningServer | None
    url: str
    embedded: bool
    stopped: bool = False
    token: str = ""
    engines: AccountEngines | None = None  # the other accounts' engines (several servers)

    def stop(self) -> None:
        """Stop the other accounts' engines, this sync engine, then the embedded server
        (idempotent)."""
        if self.stopped:
            return
        self.stopped = True
        try:
            if self.engines is not None:
                self.engines.stop_all()
        finally:
            try:
                self.bridge.stop()
            finally:
                if self.server is not None:
                    stop_embedded_server(self.server)


def connect_backend(paths: AppPaths, connection: Connection, token: str,
                    server: RunningServer | None = None) -> Started:
    """Start the sync engine against the server; the caller stops it with ``Started.stop``
    after the window's ``shutdown`` (window, then engine, then server)."""
    from composer_app.sync.engine import SyncEngine
    from composer_app.ui.sync_bridge import SyncBridge

    url = connection.url or (server.url if server is not None else "")
    if not url:
        raise ValueError("no server to connect to")
    engine = SyncEngine(url, token, paths.client_dir(None if connection.embedded else url))
    bridge = SyncBridge(engine)
    bridge.start()
    return Started(bridge, server, url, connection.embedded, token=token)
