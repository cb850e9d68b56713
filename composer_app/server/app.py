"""``build_app(settings, store)``: the ASGI application (a factory; no module state).

Invariants: the store is opened and bound to the app's event loop in the lifespan and closed after
every turn task has stopped; committed events reach the hub on that loop, in sequence order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from composer_app.core.errors import ComposerError
from composer_app.server.auth import Authenticator
from composer_app.server.errors import install_error_handlers
from composer_app.server.hub import Hub
from composer_app.server.ledger import fail_orphaned_turns
from composer_app.server.reference_resolver import ReferenceResolver
from composer_app.server.routes import (
    assets,
    attachments,
    commands,
    environment,
    shares,
    sources,
    threads,
    workspace,
)
from composer_app.server.routes.attachments import sweep_uploads
from composer_app.server.services import Services
from composer_app.server.settings import ServerSettings
from composer_app.server.store.executor import ExecutorStore
from composer_app.server.turns import TurnRunner
from composer_app.server.ws import websocket_endpoint

_log = logging.getLogger(__name__)
SWEEP_INTERVAL = 3600.0


async def _sweep_forever(store: ExecutorStore, settings: ServerSettings) -> None:
    """Hourly: delete uploads that were never attached within ``pending_upload_ttl``."""
    while True:
        try:
            await sweep_uploads(store, settings.attachments_dir)
        except ComposerError as exc:
            _log.warning("upload sweep failed: %s", exc)
        await asyncio.sleep(SWEEP_INTERVAL)


def build_app(settings: ServerSettings, store: ExecutorStore, *, owns_store: bool = True
              ) -> FastAPI:
    """The server app over ``store`` (opened in the lifespan unless already open)."""
    hub = Hub()
    runner = TurnRunner(store, settings.provider, settings.attachments_dir,
                        delta_interval=settings.delta_interval, delta_chars=settings.delta_chars,
                        references=ReferenceResolver(store, settings).resolve)
    services = Services(settings, store, hub, Authenticator(store), runner)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if not store.is_open:
            await asyncio.to_thread(store.open)
        settings.attachments_dir.mkdir(parents=True, exist_ok=True)
        store.set_commit_listener(hub.publish)
        store.bind_loop(asyncio.get_running_loop())
        if settings.database_url is None:  # one process owns every turn: none survives a restart
            await store.write(fail_orphaned_turns)
        sweeper = asyncio.get_running_loop().create_task(_sweep_forever(store, settings))
        try:
            yield
        finally:
            sweeper.cancel()
            await runner.close()
            store.set_commit_listener(None)
            if owns_store:
                await asyncio.to_thread(store.close)

    app = FastAPI(title="Composer thread server", version=settings.server_version,
                  lifespan=lifespan, openapi_url=None, docs_url=None, redoc_url=None)
    app.state.services = services
    install_error_handlers(app)
    # The hot path is a plain Starlette route: no FastAPI dependency or body machinery.
    app.router.routes.append(commands.route)
    for module in (environment, threads, attachments, assets, workspace, sources, shares):
        app.include_router(module.router)
    app.add_api_websocket_route("/api/ws", websocket_endpoint)
    return app

