"""The sync engine: its own asyncio loop in a worker thread, driven through a thread-safe API.

Invariants: the loop thread alone touches the client database, the HTTP client and the socket;
every public method may be called from any thread and returns a ``concurrent.futures.Future``;
listeners are called on the loop thread with plain values (ids, states) and read rows as frozen
dataclasses, never live objects. The engine never imports Qt; ``ui.sync_bridge`` turns its
callbacks into queued signals.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import random
import threading
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from platformdirs import PlatformDirs

from composer_app.core.contracts.environment import Environment
from composer_app.core.contracts.messages import MessageContext, encode_message_context
from composer_app.core.contracts.wire import (
    ThreadDeleteCommand,
    ThreadMetaUpdateCommand,
    Workspace,
    check_provider_name,
    format_timestamp,
)
from composer_app.core.errors import AuthError, ContractError, TransportError
from composer_app.core.storable_text import check_storable_text, check_storable_value
from composer_app.sync import assets, shares, source_downloads, workspace
from composer_app.sync.backoff import Clock
from composer_app.sync.message_search import MessageHit
from composer_app.sync.outbox import EditedMessage, Outbox, ThreadCommand, new_id
from composer_app.sync.replica import Changes, Replica
from composer_app.sync.store import ClientStore, MessageRow, OutboxRow, ThreadRow, UploadRow
from composer_app.sync.subscription import CONNECTING, Subscription
from composer_app.sync.transport import HttpTransport
from composer_app.sync.uploads import Uploader

T = TypeVar("T")
_log = logging.getLogger(__name__)
APP_DIR_NAME = "ComposerApp"
DATABASE_FILE = "client.sqlite3"
START_TIMEOUT_SECONDS = 30.0


class EngineStartTimeout(TimeoutError):
    """``SyncEngine.start`` waited longer than its timeout for the engine to accept calls."""


def default_data_dir() -> Path:
    """``user_data_dir`` of the app (honours ``XDG_DATA_HOME``)."""
    return Path(PlatformDirs(appname=APP_DIR_NAME, appauthor=False).user_data_dir)


class EngineListener:
    """Engine callbacks (called on the engine thread). Override what you need."""

    def thread_list_changed(self) -> None:
        """The thread list changed."""

    def thread_changed(self, thread_id: str) -> None:
        """Something in one thread changed."""

    def message_upserted(self, thread_id: str, message_id: str) -> None:
        """A message row was inserted or replaced in place."""

    def message_removed(self, thread_id: str, message_id: str) -> None:
        """A local message row was removed (Edit / Delete of a queued item)."""

    def outbox_item_changed(self, thread_id: str, message_id: str, state: str) -> None:
        """A queued item moved to ``sending``/``blocked``/``unsent``/``sent``/``removed``.

        ``message_id`` is empty for thread commands (``thread.create``).
        """

    def upload_changed(self, local_id: str, state: str, sent_bytes: int) -> None:
        """An upload moved to ``queued``/``uploading``/``uploaded``/``failed``/``cancelled``."""

    def connection_state_changed(self, state: str, next_try_seconds: int) -> None:
        """``connecting``/``connected``/``reconnecting`` (next try in N s)/``offline``/``error``."""

    def toast_requested(self, level: str, title: str, body: str) -> None:
        """Something the user should be told."""


def _context(records: Sequence[Any] | MessageContext | None) -> dict[str, Any] | None:
    if records is None:
        return None
    ctx = records if isinstance(records, MessageContext) else MessageContext(records=list(records))
    return dict(encode_message_context(ctx)) if ctx.records else None


class SyncEngine:
    """One connection to a thread server, with its local cache and outbox."""

    def __init__(self, base_url: str, token: str, data_dir: Path | None = None, *,
                 clock: Clock | None = None, rng: random.Random | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self._token = token
        self._dir = data_dir or default_data_dir()
        self._clock = clock or Clock()
        self._rng = rng or random.Random()
        self._listeners: list[EngineListener] = []
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._startup_error: BaseException | None = None
        self._abandoned = False  # ``start`` gave up waiting: stop as soon as the setup ends
        self._stopping = False
        self.connection_state: tuple[str, int] = (CONNECTING, 0)
        self.environment: Environment | None = None

    # lifecycle --------------------------------------------------------------------------------
    def add_listener(self, listener: EngineListener) -> None:
        """Receive callbacks (register before ``start`` to miss nothing)."""
        self._listeners.append(listener)

    def start(self, timeout: float = START_TIMEOUT_SECONDS) -> None:
        """Start the worker thread and wait until the engine accepts calls.

        ``EngineStartTimeout`` when it is not ready within ``timeout`` seconds (the late engine
        then stops by itself as soon as its setup ends); its setup's own error otherwise."""
        self._thread = threading.Thread(target=asyncio.run, args=(self.run(),),
                                        name="composer-sync", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            self._abandoned = True
            self.stop(0)  # in case the setup ended just now
            raise EngineStartTimeout(
                f"the sync engine did not start within {timeout:g} seconds (its local cache in "
                f"{self._dir} may be locked or on a stalled disk)")
        if self._startup_error is not None:
            raise self._startup_error

    def stop(self, timeout: float = 10.0) -> None:
        """Ask the loop to finish (state is already on disk) and join the thread."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(timeout)

    async def run(self) -> None:
        """The engine's main coroutine (``asyncio.run(engine.run())`` on the worker thread)."""
        try:
            self._setup()
        except BaseException as exc:
            self._startup_error = exc
            self._ready.set()
            return
        tasks = [asyncio.create_task(self._outbox.run()),
                 asyncio.create_task(self._subscription.run())]
        self._uploader.resume()
        self._ready.set()
        assert self._stop is not None
        if self._abandoned:
            self._stop.set()
        await self._stop.wait()
        self._stopping = True  # calls from now on fail at once instead of never running
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._uploader.close()  # upload and send tasks end before the store closes
        await self._outbox.close()
        await self._subscription.drop()
        await self._http.aclose()
        self._store.close()

    def _setup(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self._connected = asyncio.Event()
        self._store = ClientStore(self._dir / DATABASE_FILE)
        self._http = HttpTransport(self.base_url, self._token)
        self._outbox = Outbox(self._store, self._clock, self._rng, self._on_outbox_item,
                              self._on_message, self._on_toast)
        self._uploader = Uploader(self._store, self._dir / "outbox", self._clock, self._rng,
                                  self._on_upload, self._on_toast, self._connected)
        self._outbox.reupload = self._uploader.requeue
        self._replica = Replica(self._store, self._on_changes)
        self._subscription = Subscription(
            self.base_url, self._token, self._replica, self._clock, self._rng,
            thread_ids=lambda: [t.thread_id for t in self._store.threads()
                                if t.local_state is None],
            fetch_environment=self._fetch_environment, on_connected=self._on_connected,
            on_disconnected=self._connected.clear, on_state=self._on_state,
            on_problem=self._on_stream_problem)

    # thread-safe API ------------------------------------------------------------------------
    def _submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run ``coro`` on the loop; ``RuntimeError`` (and ``coro`` closed) once stopping."""
        if self._loop is None or self._stopping:
            coro.close()
            raise RuntimeError("the sync engine is not running")
        try:
            return asyncio.run_coroutine_threadsafe(coro, self._loop)
        except RuntimeError:  # the loop closed meanwhile
            coro.close()
            raise RuntimeError("the sync engine is not running") from None

    def create_thread(self, title: str | None = None, *,
                      provider: str | None = None) -> concurrent.futures.Future[str]:
        """Queue ``thread.create`` (with the thread's assistant ``provider`` when given);
        resolves to the new ``threadId``."""
        try:
            if provider is not None:
                check_provider_name(provider)
            if title is not None:
                check_storable_text(title, "thread title")
        except ContractError as exc:
            return _failed(exc)

        async def go() -> str:
            thread_id = new_id("thr")
            self._outbox.enqueue_thread_create(thread_id, title, provider)
            self._emit("thread_list_changed")
            return thread_id
        return self._submit(go())

    def set_thread_provider(self, thread_id: str,
                            provider: str) -> concurrent.futures.Future[str]:
        """Choose the assistant provider of a thread's next turns: queues ``thread.meta.update``
        with the thread's current title (a queued rename's included) and ``provider``, and shows
        the choice in the cache at once; resolves to the ``commandId``."""
        try:
            check_provider_name(provider)  # a plain-words error for the caller, not pydantic's
        except ContractError as exc:
            return _failed(exc)

        async def go() -> str:
            thread = self._store.thread(thread_id)
            title = self._outbox.queued_title(thread_id)
            if title is None:
                title = thread.title if thread is not None else None
            command = ThreadMetaUpdateCommand(
                command_id=new_id("cmd"), thread_id=thread_id, title=title or "",
                provider=provider, created_at=format_timestamp())
            with self._store.transaction():
                command_id = self._outbox.enqueue_thread_command(command)
                if thread is not None:
                    self._store.upsert_thread(replace(thread, provider=provider))
            self._emit("thread_list_changed")
            self._emit("thread_changed", thread_id)
            return command_id
        return self._submit(go())

    def rename_thread(self, thread_id: str, title: str) -> concurrent.futures.Future[str]:
        """Queue ``thread.meta.update``; resolves to its ``commandId``."""
        try:
            check_storable_text(title, "thread title")
        except ContractError as exc:
            return _failed(exc)
        return self._thread_command(ThreadMetaUpdateCommand(
            command_id=new_id("cmd"), thread_id=thread_id, title=title,
            created_at=format_timestamp()))

    def delete_thread(self, thread_id: str) -> concurrent.futures.Future[str]:
        """Queue ``thread.delete``; resolves to its ``commandId``."""
        return self._thread_command(ThreadDeleteCommand(
            command_id=new_id("cmd"), thread_id=thread_id, created_at=format_timestamp()))

    def _thread_command(self, command: ThreadCommand) -> concurrent.futures.Future[str]:
        async def go() -> str:
            return self._outbox.enqueue_thread_command(command)
        return self._submit(go())

    def send_message(self, thread_id: str, text: str,
                     records: Sequence[Any] | MessageContext | None = None,
                     upload_ids: Sequence[str] = (), *, create_thread: bool = False,
                     title: str | None = None) -> concurrent.futures.Future[str]:
        """Queue a user message (local echo at once); resolves to its ``messageId``.

        Text no server could store (a lone UTF-16 surrogate, a NUL character) fails at once with
        a ``ContractError`` that says so; nothing is queued.
        """
        try:
            check_storable_text(text, "message")
            if title is not None:
                check_storable_text(title, "thread title")
            context = _context(records)
            check_storable_value(context, "message context")
        except ContractError as exc:
            return _failed(exc)

        async def go() -> str:
            return self._outbox.enqueue_turn(thread_id, text, context, tuple(upload_ids),
                                             title, create_thread)
        return self._submit(go())

    def attach_file(self, path: Path, name: str | None = None, mime_type: str | None = None,
                    local_id: str | None = None) -> concurrent.futures.Future[UploadRow]:
        """Copy a file into app data and start uploading it now."""
        return self._submit(self._uploader.attach(Path(path), name, mime_type, local_id))

    def cancel_upload(self, local_id: str) -> concurrent.futures.Future[bool]:
        """Cancel an upload and release it on the server."""
        return self._submit(self._uploader.cancel(local_id))

    def retry(self, message_id: str) -> concurrent.futures.Future[bool]:
        """*Retry* an unsent item (restarts its 5-minute budget)."""
        async def go() -> bool:
            return self._outbox.retry(message_id)
        return self._submit(go())

    def edit(self, message_id: str) -> concurrent.futures.Future[EditedMessage | None]:
        """*Edit*: remove a queued item; resolves to its text and context for the composer, or
        None when there is nothing to take back (an attempt in flight delivered it)."""
        async def go() -> EditedMessage | None:
            return await self._outbox.remove(message_id)
        return self._submit(go())

    def delete(self, message_id: str) -> concurrent.futures.Future[bool]:
        """*Delete* a queued item; resolves to False when there is nothing to delete (an attempt
        in flight delivered it)."""
        async def go() -> bool:
            return await self._outbox.remove(message_id) is not None
        return self._submit(go())

    def retry_now(self) -> None:
        """*Retry now*: wake the socket backoff, the outbox and the uploads."""
        async def go() -> None:
            self._subscription.wake()
            self._outbox.resume_now()
            self._uploader.wake()
        self._submit(go())

    def wake(self) -> None:
        """Re-examine every schedule now, without moving it (after a clock change)."""
        async def go() -> None:
            self._subscription.wake()
            self._outbox.wake()
            self._uploader.wake()
        self._submit(go())

    def set_token(self, token: str) -> concurrent.futures.Future[None]:
        """Use ``token`` from now on, without a restart: requests carry it at once and the socket
        reconnects with it (a socket waiting after a refused token tries again right away)."""
        async def go() -> None:
            self._token = token
            self._http.set_token(token)
            self._subscription.set_token(token)
            await self._subscription.drop()
            self._subscription.wake()
            self._outbox.wake()
            self._uploader.wake()
        return self._submit(go())

    def disconnect(self) -> concurrent.futures.Future[None]:
        """Drop the socket now (it reconnects with backoff); for diagnostics and tests."""
        return self._submit(self._subscription.drop())

    def threads(self) -> concurrent.futures.Future[list[ThreadRow]]:
        """The cached thread list."""
        async def go() -> list[ThreadRow]:
            return self._store.threads()
        return self._submit(go())

    def messages(self, thread_id: str) -> concurrent.futures.Future[list[MessageRow]]:
        """A thread's cached messages (server copies, then local echoes)."""
        async def go() -> list[MessageRow]:
            return self._store.messages(thread_id)
        return self._submit(go())

    def outbox_items(self) -> concurrent.futures.Future[list[OutboxRow]]:
        """The queued items with their schedule."""
        async def go() -> list[OutboxRow]:
            return self._store.outbox()
        return self._submit(go())

    def last_messages(self) -> concurrent.futures.Future[dict[str, MessageRow]]:
        """Each cached thread's last message, by thread id (previews of the quick switcher)."""
        async def go() -> dict[str, MessageRow]:
            return self._store.last_messages()
        return self._submit(go())

    def search_messages(self, query: str, limit: int = 50,
                        thread_id: str | None = None) -> concurrent.futures.Future[
                            list[MessageHit]]:
        """Cached messages matching ``query`` (every word; chips by their labels), best first."""
        async def go() -> list[MessageHit]:
            return self._store.search_messages(query, limit, thread_id)
        return self._submit(go())

    def uploads(self) -> concurrent.futures.Future[list[UploadRow]]:
        """Every upload row."""
        async def go() -> list[UploadRow]:
            return self._store.uploads()
        return self._submit(go())

    def asset_url(self, attachment_id: str, disposition: str = "inline",
                  source_url: str | None = None,
                  source_token: str | None = None) -> concurrent.futures.Future[str]:
        """A signed asset URL on this server or on a source environment."""
        async def go() -> str:
            http = self._source(source_url, source_token)
            try:
                return await assets.asset_url(http, attachment_id, disposition)
            finally:
                if http is not self._http:
                    await http.aclose()
        return self._submit(go())

    def import_asset(self, attachment_id: str, name: str, mime_type: str, *,
                     source_url: str | None = None, source_token: str | None = None,
                     local_id: str | None = None) -> concurrent.futures.Future[UploadRow]:
        """Download an attachment from a source environment and attach it here as a new upload.

        Fails with ``assets.AssetFetchError`` (its ``reason`` is the toast's reason line).
        """
        async def go() -> UploadRow:
            http = self._source(source_url, source_token)
            try:
                data = await assets.download_asset(http, attachment_id)
            finally:
                if http is not self._http:
                    await http.aclose()
            return await self._uploader.attach_bytes(data, name, mime_type, local_id)
        return self._submit(go())

    # workspace -----------------------------------------------------------------------------
    def set_thread_workspace(self, thread_id: str,
                             path: str | None) -> concurrent.futures.Future[str]:
        """Queue ``thread.meta.update`` setting (``None``: removing) the thread's workspace
        folder; resolves to the ``commandId``."""
        async def go() -> str:
            title = self._outbox.queued_title(thread_id)
            if title is None:
                thread = self._store.thread(thread_id)
                title = thread.title if thread is not None else None
            command = ThreadMetaUpdateCommand(
                command_id=new_id("cmd"), thread_id=thread_id, title=title,
                workspace=Workspace(path=path) if path is not None else None,
                created_at=format_timestamp())
            return self._outbox.enqueue_thread_command(command)
        return self._submit(go())

    def search_files(self, thread_id: str, query: str,
                     limit: int = 50) -> concurrent.futures.Future[list[workspace.WorkspaceEntry]]:
        """Quick-open search in the thread's workspace (best first)."""
        return self._submit(workspace.search_files(self._http, thread_id, query, limit))

    def read_file(self, thread_id: str, path: str, start: int | None = None,
                  end: int | None = None) -> concurrent.futures.Future[workspace.WorkspaceFile]:
        """The text of a workspace file (optionally lines ``start..end``)."""
        return self._submit(workspace.read_file(self._http, thread_id, path, start, end))

    def changes(self, thread_id: str) -> concurrent.futures.Future[workspace.WorkspaceChanges]:
        """The workspace's changes against ``HEAD``."""
        return self._submit(workspace.changes(self._http, thread_id))

    def skills(self, thread_id: str | None = None
               ) -> concurrent.futures.Future[list[workspace.SkillInfo]]:
        """The server's skills (and the thread workspace's, with ``thread_id``)."""
        return self._submit(workspace.skills(self._http, thread_id))

    def run_command(self, thread_id: str, command: str, timeout_seconds: int = 60,
                    on_output: Callable[[str], None] | None = None
                    ) -> concurrent.futures.Future[dict[str, Any]]:
        """Run ``command`` in the thread's workspace; ``on_output`` gets each output text on the
        engine thread; resolves to the exit line. ``cancel()`` on the future ends the run (the
        server kills the command's process group)."""
        return self._submit(workspace.run_command(self._http, thread_id, command,
                                                  timeout_seconds, on_output))
    def download_source(self, route: str, folder: Path,
                        progress: Callable[[int, int], object] | None = None
                        ) -> concurrent.futures.Future[Path]:
        """Save a cited file through the authenticated citation route into ``folder``
        (``progress(received, total)`` runs on the engine thread; fails with
        ``source_downloads.DownloadError``)."""
        return self._submit(source_downloads.download_source(self._http, route, folder,
                                                             progress))

    # share links ------------------------------------------------------------------------------
    def create_share(self, thread_id: str) -> concurrent.futures.Future[shares.ShareLink]:
        """Create a read-only share link of ``thread_id`` (fails with ``shares.ShareError``)."""
        return self._submit(shares.create_share(self._http, thread_id))

    def list_shares(self, thread_id: str) -> concurrent.futures.Future[list[shares.ShareLink]]:
        """The thread's active share links."""
        return self._submit(shares.list_shares(self._http, thread_id))

    def revoke_share(self, thread_id: str, share_id: str) -> concurrent.futures.Future[None]:
        """Revoke one share link of ``thread_id``."""
        return self._submit(shares.revoke_share(self._http, thread_id, share_id))

    def _source(self, url: str | None, token: str | None) -> HttpTransport:
        if url is None or url.rstrip("/") == self.base_url:
            return self._http
        return HttpTransport(url, token)

    # engine-side plumbing -------------------------------------------------------------------
    async def _fetch_environment(self) -> Environment:
        reply = await self._http.get("/api/environment")
        if reply.status in (401, 403):
            raise AuthError("the server refused the token")
        if not reply.ok:
            raise TransportError(f"GET /api/environment: HTTP {reply.status}")
        try:
            environment = Environment.model_validate(reply.body)
        except ValueError as exc:
            raise TransportError(f"bad environment: {exc}") from exc
        self.environment = environment
        self._store.save_environment(environment.environment_id, self.base_url,
                                     environment.capabilities.to_wire(), self._clock.now())
        self._outbox.http = self._http
        self._outbox.capabilities = environment.capabilities
        self._uploader.http = self._http
        self._connected.set()
        return environment

    def _on_connected(self, environment: Environment) -> None:
        self._outbox.resume_now()
        self._uploader.wake()

    def _emit(self, name: str, *args: Any) -> None:
        for listener in list(self._listeners):
            try:
                getattr(listener, name)(*args)
            except Exception:
                _log.exception("sync listener %s failed", name)

    def _on_state(self, state: str, next_try: int) -> None:
        self.connection_state = (state, next_try)
        self._emit("connection_state_changed", state, next_try)

    def _on_stream_problem(self, kind: str, message: str) -> None:
        """A connection ended on a failure other than the network (reported once per kind)."""
        title = "Cannot save messages" if kind == "storage" else "Connection problem"
        self._emit("toast_requested", "error", title, message)

    def _on_toast(self, level: str, title: str, body: str) -> None:
        self._emit("toast_requested", level, title, body)

    def _on_outbox_item(self, thread_id: str, message_id: str, state: str) -> None:
        self._emit("outbox_item_changed", thread_id, message_id, state)
        if not message_id:  # a thread command: the thread list shows its state
            self._emit("thread_list_changed")

    def _on_message(self, thread_id: str, message_id: str, removed: bool) -> None:
        self._emit("message_removed" if removed else "message_upserted", thread_id, message_id)
        self._emit("thread_changed", thread_id)

    def _on_upload(self, row: UploadRow) -> None:
        self._emit("upload_changed", row.local_id, row.state, row.sent_bytes)
        self._outbox.wake()

    def _on_changes(self, changes: Changes) -> None:
        if changes.thread_list:
            self._emit("thread_list_changed")
        for thread_id, message_id in changes.messages:
            self._emit("message_upserted", thread_id, message_id)
        for thread_id in sorted(changes.threads):
            self._emit("thread_changed", thread_id)


def _failed(exc: BaseException) -> concurrent.futures.Future[str]:
    """A future that has already failed with ``exc`` (argument errors found before queuing)."""
    future: concurrent.futures.Future[str] = concurrent.futures.Future()
    future.set_exception(exc)
    return future
