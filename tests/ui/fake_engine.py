"""An in-memory stand-in for the sync engine behind a real ``SyncBridge``: the boundary the window's
parts are tested against without a server. It keeps threads, messages and outbox rows in lists,
answers every call with a finished future, records each call, and tells its listeners what
changed the way the engine does (the bridge turns that into queued Qt signals)."""

from __future__ import annotations

import concurrent.futures
import itertools
from dataclasses import replace
from typing import Any, TypeVar

from composer_app.core.contracts.environment import Environment
from composer_app.sync.engine import EngineListener
from composer_app.sync.message_search import MessageHit
from composer_app.sync.outbox import EditedMessage
from composer_app.sync.store import MessageRow, OutboxRow, ThreadRow, UploadRow
from composer_app.ui.sync_bridge import SyncBridge

T = TypeVar("T")
NOT_RUNNING = "the sync engine is not running"
ENVIRONMENT = Environment.model_validate({
    "environmentId": "env_fake", "serverVersion": "0", "capabilities": {}})


class FakeEngine:
    """The part of ``SyncEngine`` the window uses."""

    def __init__(self) -> None:
        self.listeners: list[EngineListener] = []
        self.running = True
        self.environment: Environment | None = None
        self.connection_state = ("connecting", 0)
        self.threads_: list[ThreadRow] = []
        self.messages_: dict[str, list[MessageRow]] = {}
        self.outbox: list[OutboxRow] = []
        self.calls: list[tuple[Any, ...]] = []
        self.failures: dict[str, str] = {}  # method name -> error to fail with
        self._ids = itertools.count(1)

    # -- what a test does to it ----------------------------------------------------------------
    def add_thread(self, title: str, provider: str | None = None) -> str:
        thread_id = f"thr_{next(self._ids)}"
        self.threads_.append(ThreadRow(thread_id, title, provider=provider))
        return thread_id

    def add_message(self, thread_id: str, role: str, text: str, **fields: Any) -> MessageRow:
        row = MessageRow(f"msg_{next(self._ids)}", thread_id, role, text, **fields)
        self.messages_.setdefault(thread_id, []).append(row)
        self.emit("message_upserted", thread_id, row.message_id)
        return row

    def connect(self) -> None:
        """The socket connected (the environment is known from now on)."""
        self.environment = ENVIRONMENT
        self.emit("connection_state_changed", "connected", 0)

    def emit(self, name: str, *args: Any) -> None:
        for listener in self.listeners:
            getattr(listener, name)(*args)

    # -- the engine's API ------------------------------------------------------------------------
    def add_listener(self, listener: EngineListener) -> None:
        self.listeners.append(listener)

    def start(self) -> None:
        self.running = True

    def stop(self, _timeout: float = 0) -> None:
        self.running = False

    def _answer(self, name: str, result: T, *args: Any) -> concurrent.futures.Future[T]:
        if not self.running:
            raise RuntimeError(NOT_RUNNING)
        self.calls.append((name, *args))
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        if name in self.failures:
            future.set_exception(ValueError(self.failures[name]))
        else:
            future.set_result(result)
        return future

    def threads(self) -> concurrent.futures.Future[list[ThreadRow]]:
        return self._answer("threads", list(self.threads_))

    def messages(self, thread_id: str) -> concurrent.futures.Future[list[MessageRow]]:
        return self._answer("messages", list(self.messages_.get(thread_id, [])), thread_id)

    def uploads(self) -> concurrent.futures.Future[list[UploadRow]]:
        """No uploads: the composer restores none at start."""
        return self._answer("uploads", [])
    def last_messages(self) -> concurrent.futures.Future[dict[str, MessageRow]]:
        return self._answer("last_messages",
                            {t: rows[-1] for t, rows in self.messages_.items() if rows})

    def search_messages(self, query: str, limit: int = 50,
                        thread_id: str | None = None) -> concurrent.futures.Future[
                            list[MessageHit]]:
        words = query.casefold().split()
        hits = [MessageHit(r.message_id, r.thread_id, r.role, r.text, r.created_at)
                for rows in self.messages_.values() for r in rows
                if words and all(w in r.text.casefold() for w in words)]
        return self._answer("search_messages", hits[:limit], query)

    def outbox_items(self) -> concurrent.futures.Future[list[OutboxRow]]:
        return self._answer("outbox_items", list(self.outbox))

    def asset_url(self, attachment_id: str,
                  disposition: str = "inline") -> concurrent.futures.Future[str]:
        return self._answer("asset_url", f"http://127.0.0.1:9/{attachment_id}", attachment_id,
                            disposition)

    def create_thread(self, title: str | None = None) -> concurrent.futures.Future[str]:
        thread_id = f"thr_{next(self._ids)}"
        future = self._answer("create_thread", thread_id, title)
        if "create_thread" not in self.failures:
            self.threads_.append(ThreadRow(thread_id, title))
        return future

    def rename_thread(self, thread_id: str, title: str) -> concurrent.futures.Future[str]:
        future = self._answer("rename_thread", thread_id, thread_id, title)
        self.threads_ = [replace(t, title=title) if t.thread_id == thread_id else t
                         for t in self.threads_]
        return future

    def set_thread_provider(self, thread_id: str,
                            provider: str) -> concurrent.futures.Future[str]:
        return self._answer("set_thread_provider", thread_id, thread_id, provider)

    def send_message(self, thread_id: str, text: str, records: Any = None,
                     upload_ids: Any = ()) -> concurrent.futures.Future[str]:
        return self._answer("send_message", f"msg_{next(self._ids)}", thread_id, text,
                            list(upload_ids))

    def retry(self, message_id: str) -> concurrent.futures.Future[bool]:
        return self._answer("retry", True, message_id)

    def delete(self, message_id: str) -> concurrent.futures.Future[bool]:
        return self._answer("delete", True, message_id)

    def edit(self, message_id: str) -> concurrent.futures.Future[EditedMessage | None]:
        row = next((r for r in self.outbox if r.message_id == message_id), None)
        edited = None if row is None else EditedMessage(
            row.thread_id, str(row.payload.get("message", {}).get("text", "")), None, ())
        return self._answer("edit", edited, message_id)

    def retry_now(self) -> None:
        if not self.running:
            raise RuntimeError(NOT_RUNNING)
        self.calls.append(("retry_now",))


def fake_bridge() -> tuple[SyncBridge, FakeEngine]:
    """A real bridge in front of a fake engine."""
    engine = FakeEngine()
    return SyncBridge(engine), engine  # type: ignore[arg-type]
