"""``ActiveBridge``: one window over several servers, each with its own sync engine and bridge.

The window's parts talk to one ``SyncBridge``; this one stands for the bridge of the *active*
account (the server of the open thread) and relays the signals of every account's bridge.

Invariants: requests (``submit``, ``request``) go to the active account's engine, or to a named
one with ``submit_to``; each answer comes back once with the id this bridge gave, whichever
account answered and even after the active account changed; notifications about threads,
messages, the outbox, uploads and toasts are relayed from every account (ids are unique across
servers, so a part that shows one thread ignores the others'); ``connection_state_changed`` and
``environment_changed`` are relayed from the active account only, and re-announced when the active
account changes; ``account_state_changed`` reports every account's connection state; a removed
account's bridge is disconnected at once (nothing it says afterwards reaches the window). The
accounts' engines are started and stopped by their owner (``AccountEngines``), never here.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from composer_app.core.contracts.environment import Environment
from composer_app.sync.engine import SyncEngine
from composer_app.sync.subscription import CONNECTING
from composer_app.ui.sync_bridge import SyncBridge

__all__ = ["NOT_SIGNED_IN", "ActiveBridge"]

NOT_SIGNED_IN = "This server is not signed in."


class _Relay(QObject):
    """Carries one account's bridge signals to the ``ActiveBridge`` (deleted on removal, which
    disconnects them all)."""

    def __init__(self, owner: ActiveBridge, account_id: str, bridge: SyncBridge) -> None:
        super().__init__(owner)
        self._owner = owner
        self.account_id = account_id
        self.bridge = bridge
        bridge.thread_list_changed.connect(self._thread_list_changed)
        bridge.thread_changed.connect(self._thread_changed)
        bridge.message_upserted.connect(self._message_upserted)
        bridge.message_removed.connect(self._message_removed)
        bridge.outbox_item_changed.connect(self._outbox_item_changed)
        bridge.upload_changed.connect(self._upload_changed)
        bridge.toast_requested.connect(self._toast_requested)
        bridge.connection_state_changed.connect(self._connection_state_changed)
        bridge.environment_changed.connect(self._environment_changed)
        bridge.request_finished.connect(self._request_finished)

    def disconnect_all(self) -> None:
        b = self.bridge
        for signal, slot in ((b.thread_list_changed, self._thread_list_changed),
                             (b.thread_changed, self._thread_changed),
                             (b.message_upserted, self._message_upserted),
                             (b.message_removed, self._message_removed),
                             (b.outbox_item_changed, self._outbox_item_changed),
                             (b.upload_changed, self._upload_changed),
                             (b.toast_requested, self._toast_requested),
                             (b.connection_state_changed, self._connection_state_changed),
                             (b.environment_changed, self._environment_changed),
                             (b.request_finished, self._request_finished)):
            with contextlib.suppress(RuntimeError, TypeError):  # already gone
                signal.disconnect(slot)

    def _thread_list_changed(self) -> None:
        self._owner.thread_list_changed.emit()
        self._owner.account_threads_changed.emit(self.account_id)

    def _thread_changed(self, thread_id: str) -> None:
        self._owner.thread_changed.emit(thread_id)

    def _message_upserted(self, thread_id: str, message_id: str) -> None:
        self._owner.message_upserted.emit(thread_id, message_id)
        self._owner.account_message_upserted.emit(self.account_id, thread_id, message_id)

    def _message_removed(self, thread_id: str, message_id: str) -> None:
        self._owner.message_removed.emit(thread_id, message_id)

    def _outbox_item_changed(self, thread_id: str, message_id: str, state: str) -> None:
        self._owner.outbox_item_changed.emit(thread_id, message_id, state)

    def _upload_changed(self, local_id: str, state: str, sent: int) -> None:
        self._owner.upload_changed.emit(local_id, state, sent)

    def _toast_requested(self, level: str, title: str, body: str) -> None:
        self._owner.toast_requested.emit(level, title, body)

    def _connection_state_changed(self, state: str, next_try: int) -> None:
        self._owner.account_state_changed.emit(self.account_id, state, next_try)
        if self._owner.active_account == self.account_id:
            self._owner.connection_state_changed.emit(state, next_try)

    def _environment_changed(self, environment: object) -> None:
        self._owner.account_environment_changed.emit(self.account_id)
        if self._owner.active_account == self.account_id:
            self._owner.environment_changed.emit(environment)

    def _request_finished(self, request_id: int, result: object, error: str) -> None:
        self._owner.relay_finished(self.account_id, request_id, result, error)


class ActiveBridge(SyncBridge):
    """The bridge of the active account, relaying every account's notifications."""

    active_changed = Signal(str)  # account id
    account_state_changed = Signal(str, str, int)  # account id, state, seconds to the next try
    account_environment_changed = Signal(str)  # account id
    account_threads_changed = Signal(str)  # account id
    account_message_upserted = Signal(str, str, str)  # account id, thread id, message id
    engine_availability_changed = Signal()  # ``has_engine`` may have changed

    def __init__(self, parent: QObject | None = None) -> None:
        QObject.__init__(self, parent)  # no engine of its own: the accounts' bridges have them
        self._relays: dict[str, _Relay] = {}
        self._active = ""
        self._ids = itertools.count(1)
        self._routes: dict[tuple[str, int], int] = {}

    # -- accounts --------------------------------------------------------------------------------
    def add_account(self, account_id: str, bridge: SyncBridge) -> None:
        """Relay ``bridge`` as ``account_id``'s (replacing an earlier bridge of that account);
        the first account added becomes the active one."""
        self.remove_account(account_id)
        self._relays[account_id] = _Relay(self, account_id, bridge)
        if not self._active:
            self.set_active(account_id)
        elif account_id == self._active:
            self._announce()
            self.engine_availability_changed.emit()
        state, next_try = bridge.connection_state
        self.account_state_changed.emit(account_id, state, next_try)
        self.thread_list_changed.emit()
        self.account_threads_changed.emit(account_id)

    def remove_account(self, account_id: str) -> None:
        """Stop relaying ``account_id`` (signed out or removed); the other accounts go on."""
        relay = self._relays.pop(account_id, None)
        if relay is None:
            return
        relay.disconnect_all()
        relay.deleteLater()
        self._routes = {k: v for k, v in self._routes.items() if k[0] != account_id}
        self.account_state_changed.emit(account_id, "signed-out", 0)
        if account_id == self._active:  # the window now shows a server without an engine
            self.connection_state_changed.emit("signed-out", 0)
            self.engine_availability_changed.emit()
        self.thread_list_changed.emit()
        self.account_threads_changed.emit(account_id)

    def account_ids(self) -> list[str]:
        """Accounts with a running bridge, in the order they were added."""
        return list(self._relays)

    def bridge_of(self, account_id: str) -> SyncBridge | None:
        relay = self._relays.get(account_id)
        return relay.bridge if relay is not None else None

    @property
    def active_account(self) -> str:
        return self._active

    def set_active(self, account_id: str) -> None:
        """Make ``account_id`` the account requests go to; announces its connection state and
        environment when it changes."""
        if account_id == self._active:
            return
        self._active = account_id
        self._announce()
        self.active_changed.emit(account_id)
        self.engine_availability_changed.emit()

    def _announce(self) -> None:
        bridge = self.bridge_of(self._active)
        if bridge is None:
            self.connection_state_changed.emit("signed-out", 0)
            return
        if bridge.environment is not None:
            self.environment_changed.emit(bridge.environment)
        self.connection_state_changed.emit(*bridge.connection_state)

    # -- what the window reads (the active account's) --------------------------------------------
    def _active_bridge(self) -> SyncBridge:
        bridge = self.bridge_of(self._active)
        if bridge is None:
            raise RuntimeError(NOT_SIGNED_IN)
        return bridge

    @property
    def has_engine(self) -> bool:
        """Whether the active account's engine runs (``engine`` raises when it does not)."""
        return self._active in self._relays

    @property
    def engine(self) -> SyncEngine:
        """The active account's engine (``RuntimeError`` when it is signed out: check
        ``has_engine``, or go through ``submit``, whose callers report the error)."""
        return self._active_bridge().engine

    def download_source(self, route: str, folder: Path,
                        progress: Callable[[int, int], object] | None = None
                        ) -> concurrent.futures.Future[Path]:
        """``SyncEngine.download_source`` on the active account's engine *now* (a server
        signed in again has a new engine); ``RuntimeError`` when it is signed out."""
        return self.engine.download_source(route, folder, progress)

    @property
    def connection_state(self) -> tuple[str, int]:
        bridge = self.bridge_of(self._active)
        return bridge.connection_state if bridge is not None else (CONNECTING, 0)

    @property
    def environment(self) -> Environment | None:
        bridge = self.bridge_of(self._active)
        return bridge.environment if bridge is not None else None

    def environment_of(self, account_id: str) -> Environment | None:
        bridge = self.bridge_of(account_id)
        return bridge.environment if bridge is not None else None

    def state_of(self, account_id: str) -> tuple[str, int]:
        bridge = self.bridge_of(account_id)
        return bridge.connection_state if bridge is not None else ("signed-out", 0)

    # -- requests ------------------------------------------------------------------------------
    def start(self, app: object = None) -> None:
        """Nothing to start: each account's engine is started by its owner."""

    def stop(self) -> None:
        """Nothing to stop here: each account's engine is stopped by its owner."""

    def retry_now(self) -> None:
        for relay in list(self._relays.values()):
            with contextlib.suppress(RuntimeError):  # that engine is not running
                relay.bridge.retry_now()

    def submit(self, call: Callable[[SyncEngine], concurrent.futures.Future[Any]]) -> int:
        """``call`` on the active account's engine (``RuntimeError`` when it is not running)."""
        return self.submit_to(self._active, call)

    def submit_to(self, account_id: str,
                  call: Callable[[SyncEngine], concurrent.futures.Future[Any]]) -> int:
        """``call`` on ``account_id``'s engine; ``request_finished`` reports it with the id
        returned here."""
        relay = self._relays.get(account_id)
        if relay is None:
            raise RuntimeError(NOT_SIGNED_IN)
        inner = relay.bridge.submit(call)
        outer = next(self._ids)
        self._routes[(account_id, inner)] = outer
        return outer

    def relay_finished(self, account_id: str, inner: int, result: object, error: str) -> None:
        outer = self._routes.pop((account_id, inner), None)
        if outer is not None:
            self.request_finished.emit(outer, result, error)
