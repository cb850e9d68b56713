"""``build_app(settings, store)``: the ASGI application (a factory; no module state).

Invariants: the store is opened and bound to the app's event loop in the lifespan and closed after
every turn task has stopped; committed events reach the hub on that loop, in sequence order.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from fastapi import FastAPI
from starlette.types import Receive, Scope, Send

from composer_app.core.contracts.wire import format_timestamp
from composer_app.core.errors import ComposerError
from composer_app.server import heap, openapi
from composer_app.server.auth import Authenticator
from composer_app.server.errors import install_error_handlers
from composer_app.server.hub import Hub
from composer_app.server.ledger import fail_orphaned_turns
from composer_app.server.private_files import private_dir
from composer_app.server.rate_limit import RateLimiter
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
from composer_app.server.snapshots import choice_key
from composer_app.server.store.base import Reader, Transaction
from composer_app.server.store.executor import ExecutorStore
from composer_app.server.turns import TurnRunner
from composer_app.server.ws import websocket_endpoint

_log = logging.getLogger(__name__)
SWEEP_INTERVAL = 3600.0


ORPHAN_IDLE_SECONDS = 600.0  # shared database: a reply unchanged this long lost its process


async def _end_orphaned_turns(store: ExecutorStore, settings: ServerSettings,
                              runner: TurnRunner) -> None:
    """End replies left streaming by a process that is gone (``thread.turn-failed``).

    One process (SQLite) owns every turn, so at start-up all of them are orphans; processes
    sharing PostgreSQL end only replies idle for ``ORPHAN_IDLE_SECONDS`` that none of this
    process's turns owns. Failures are logged, never raised: start-up never waits on them.
    """
    running = runner.running_turns()
    idle_before = None
    if settings.database_url is not None:
        idle_before = format_timestamp(
            datetime.now(UTC) - timedelta(seconds=ORPHAN_IDLE_SECONDS))
    try:
        await store.write(lambda tx: fail_orphaned_turns(tx, idle_before=idle_before,
                                                         running=running))
    except (ComposerError, OSError) as exc:
        _log.warning("ending orphaned replies failed (retried later): %s", exc)


async def _load_provider_choices(store: ExecutorStore, settings: ServerSettings) -> None:
    """Hand the database's provider choices to a per-thread router (importing its old file)."""
    use_database = getattr(settings.provider, "use_database", None)
    if use_database is None:
        return
    def stored(reader: Reader) -> dict[str, str]:
        return {choice_key(user_id, thread_id): name
                for (user_id, thread_id), name in reader.provider_choices().items()}

    legacy: dict[str, str] = use_database(await store.read(stored))
    if legacy:  # the old file named threads by id alone (ids were not yet per user)
        def save(tx: Transaction) -> None:
            for thread_id, name in legacy.items():
                for user_id in tx.thread_owners(thread_id):
                    tx.set_provider_choice(user_id, thread_id, name)
        await store.write(save)
        settings.provider.retire_file()  # type: ignore[attr-defined]
        use_database(await store.read(stored))


async def sweep_once(store: ExecutorStore, settings: ServerSettings, runner: TurnRunner) -> None:
    """Delete uploads never attached within ``pending_upload_ttl`` and files nothing names; on a
    shared database, also reload the provider choices and end replies whose process is gone.

    On SQLite this process owns every reply: those left by a process that is gone were ended at
    start-up, before any request, and a reply streaming now is this process's own, even in the
    moment between the request that committed it and the runner taking it (``running_turns``
    does not hold it yet), so the sweep never ends one.
    """
    try:
        await sweep_uploads(store, settings.attachments_dir,
                            part_ttl=settings.upload_url_ttl + 600.0)
    except (ComposerError, OSError) as exc:
        _log.warning("upload sweep failed: %s", exc)
    if settings.database_url is not None:
        await _load_provider_choices(store, settings)
        await _end_orphaned_turns(store, settings, runner)


async def _sweep_forever(store: ExecutorStore, settings: ServerSettings,
                         runner: TurnRunner) -> None:
    """``sweep_once`` now, then hourly (on a shared database every ``ORPHAN_IDLE_SECONDS / 2``)."""
    while True:
        await sweep_once(store, settings, runner)
        await asyncio.sleep(SWEEP_INTERVAL if settings.database_url is None
                            else ORPHAN_IDLE_SECONDS / 2)


class ServerApp(FastAPI):
    """The FastAPI app, with ``POST /api/commands`` (the hot path: every message is one) served
    ahead of its middleware stack (error middleware, body limit, exception handlers, exit stack,
    router), none of which it needs: its handler answers errors itself, with the same bodies as
    the installed handlers (``commands.serve_command``). The framework's optional OpenTelemetry
    instrumentation does not see that route."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope["method"] == "POST"
                and scope["path"] == commands.PATH and not scope.get("root_path")
                and not self.root_path):
            scope["app"] = self
            await commands.serve_command(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def build_app(settings: ServerSettings, store: ExecutorStore, *, owns_store: bool = True
              ) -> FastAPI:
    """The server app over ``store`` (opened in the lifespan unless already open)."""
    hub = Hub()
    runner = TurnRunner(store, settings.provider, settings.attachments_dir,
                        delta_interval=settings.delta_interval, delta_chars=settings.delta_chars,
                        references=ReferenceResolver(store, settings).resolve)
    services = Services(settings, store, hub, Authenticator(store), runner,
                        RateLimiter(settings.rate_limit_per_second, settings.rate_limit_burst))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if not store.is_open:
            await asyncio.to_thread(store.open)
        private_dir(settings.attachments_dir)
        store.set_commit_listener(hub.publish)
        store.bind_loop(asyncio.get_running_loop())
        await _load_provider_choices(store, settings)
        await _end_orphaned_turns(store, settings, runner)
        sweeper = asyncio.get_running_loop().create_task(_sweep_forever(store, settings, runner))
        if settings.settle_heap:
            heap.settle()
        try:
            yield
        finally:
            sweeper.cancel()
            await runner.close()
            store.set_commit_listener(None)
            if owns_store:
                await asyncio.to_thread(store.close)

    app = ServerApp(title="Composer thread server", version=settings.server_version,
                  lifespan=lifespan, openapi_url=None, docs_url=None, redoc_url=None)
    app.state.services = services
    install_error_handlers(app)
    # The hot path is a plain Starlette route (no FastAPI dependency or body machinery), served
    # ahead of the middleware stack by ``ServerApp``; the route answers its other methods (405).
    app.router.routes.append(commands.route)
    for module in (environment, threads, attachments, assets, workspace, sources, shares,
                   openapi):
        app.include_router(module.router)
    app.add_api_websocket_route("/api/ws", websocket_endpoint)
    return app

