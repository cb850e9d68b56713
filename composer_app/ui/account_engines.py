"""``AccountEngines``: one sync engine per account, each started and stopped on its own.

Invariants: every account's engine has its own client folder (``AppPaths.client_dir``: the data
folder itself for the embedded server, so existing data stays where it was, and
``remote/<hash of the URL>`` for a remote server) with its own cache and outbox; starting one never
raises (a failure is kept as that account's ``error`` and the others go on); stopping or signing
out one stops only its engine — its cache and outbox stay on disk for the next sign-in; the
embedded server (when it runs) is stopped after every engine (``stop_all``). The token each engine
uses is kept for paste imports from that server (its signed asset URLs) and never written here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from composer_app.sync.accounts import Account
from composer_app.ui.settings.settings_logic import AppPaths

if TYPE_CHECKING:
    from composer_app.ui.backend import EarlyServer, RunningServer
    from composer_app.ui.sync_bridge import SyncBridge

__all__ = ["AccountEngines", "AccountRun"]

_log = logging.getLogger(__name__)


@dataclass
class AccountRun:
    """One account's engine for this run (``bridge`` is None when it did not start)."""

    account: Account
    url: str
    token: str
    bridge: SyncBridge | None = None
    error: str = ""
    stopped: bool = field(default=False)


class AccountEngines:
    """The running engines by account id (see the module invariants)."""

    def __init__(self, paths: AppPaths) -> None:
        self.paths = paths
        self._runs: dict[str, AccountRun] = {}
        self.server: RunningServer | None = None
        self.early: EarlyServer | None = None  # the embedded server, still starting

    def adopt(self, account: Account, url: str, token: str, bridge: SyncBridge) -> AccountRun:
        """Take over an engine started elsewhere (the first account, started before the
        window)."""
        run = AccountRun(account, url, token, bridge)
        self._runs[account.account_id] = run
        return run

    def start(self, account: Account, url: str, token: str) -> AccountRun:
        """Start ``account``'s engine against ``url`` (the embedded server's own URL for the
        embedded account); a failure is kept in ``AccountRun.error``, never raised."""
        from composer_app.sync.engine import SyncEngine
        from composer_app.ui.sync_bridge import SyncBridge

        self.stop(account.account_id)
        run = AccountRun(account, url, token)
        try:
            engine = SyncEngine(url, token,
                                self.paths.client_dir(None if account.embedded else account.url))
            bridge = SyncBridge(engine)
            bridge.start()
            run.bridge = bridge
        except Exception as exc:  # one account's failure never stops the others
            _log.warning("the sync engine of %s did not start: %s", account.name, exc)
            run.error = str(exc) or type(exc).__name__
        self._runs[account.account_id] = run
        return run

    def run(self, account_id: str) -> AccountRun | None:
        return self._runs.get(account_id)

    def bridge(self, account_id: str) -> SyncBridge | None:
        run = self._runs.get(account_id)
        return run.bridge if run is not None and not run.stopped else None

    def runs(self) -> list[AccountRun]:
        return [r for r in self._runs.values() if r.bridge is not None and not r.stopped]

    def stop(self, account_id: str) -> None:
        """Stop one account's engine (its cache and outbox stay on disk)."""
        run = self._runs.pop(account_id, None)
        if run is None or run.bridge is None or run.stopped:
            return
        run.stopped = True
        try:
            run.bridge.stop()
        except Exception:  # stopping is best effort; the others go on
            _log.exception("stopping the sync engine of %s failed", run.account.name)

    def stop_all(self) -> None:
        """Every engine, then the embedded server (idempotent)."""
        for account_id in list(self._runs):
            self.stop(account_id)
        early, self.early = self.early, None
        if early is not None and self.server is None:
            try:
                self.server = early.wait()
            except Exception as exc:  # it never started: nothing to stop
                _log.warning("the embedded server did not start: %s", exc)
        server, self.server = self.server, None
        if server is not None:
            server.stop()
