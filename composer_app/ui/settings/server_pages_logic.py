"""What the Settings dialog's page of each server says and offers. Qt-free.

Invariants: there is one page per listed server, in the list's order; a page's status line is
derived from the server's live connection state only (so Settings always shows what is connected);
the embedded server is never signed out or removed; a remote server offers *Sign out* exactly
while its engine runs and *Sign in…* exactly while it does not; the embedded server offers
*Start* only while it is not running and the app can start it; exactly the account book's start
server is marked as the one the app opens on.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from composer_app.sync.accounts import Account
from composer_app.ui.threads.server_groups_logic import state_color

__all__ = ["ServerPage", "server_pages", "status_line"]

_STATUS = {
    "connected": "Connected now.",
    "connecting": "Connecting…",
    "reconnecting": "Connection lost: reconnecting in the background.",
    "offline": "Offline: reconnecting in the background.",
    "error": "Connection problem: retrying in the background.",
    "unauthorized": "The server refused the token: sign in again.",
}


@dataclass(frozen=True)
class ServerPage:
    """One server's page."""

    account_id: str
    name: str
    address: str
    status: str
    color: str
    can_sign_in: bool
    can_sign_out: bool
    can_remove: bool
    can_start: bool
    opens_at_start: bool = False
    """The app opens on this server (the account book's start server)."""


def status_line(account: Account, state: str, running: bool) -> str:
    """The page's status line for a server in ``state``."""
    if not running:
        if account.embedded:
            return "Not running: start it to see this computer's threads."
        return "Signed out: sign in to see its threads (messages not sent yet are kept)."
    return _STATUS.get(state, "Connecting…")


def server_pages(accounts: Sequence[Account], states: Mapping[str, str],
                 running: Collection[str], *, embedded_startable: bool = False,
                 start_account: str = "") -> list[ServerPage]:
    """The pages, in the accounts' order."""
    pages = []
    for account in accounts:
        on = account.account_id in running
        state = states.get(account.account_id, "") if on else "signed-out"
        pages.append(ServerPage(
            account.account_id, account.name,
            "The embedded server on this computer" if account.embedded else account.url,
            status_line(account, state, on), state_color(state),
            can_sign_in=not account.embedded and not on,
            can_sign_out=not account.embedded and on,
            can_remove=not account.embedded,
            can_start=account.embedded and not on and embedded_startable,
            opens_at_start=account.account_id == start_account))
    return pages
