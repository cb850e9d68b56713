"""``Session``: what one run of the main window is connected to.

Invariant: ``bridge`` (the selected server's engine) is started before a window is built on the
session and stopped only after the window's ``shutdown``; ``settings`` is what the settings file
holds (the settings dialog replaces it when the user saves).
"""

from __future__ import annotations

from dataclasses import dataclass

from composer_app.sync.accounts import AccountBook
from composer_app.sync.secrets import TokenStore
from composer_app.ui.account_engines import AccountEngines
from composer_app.ui.settings.settings_logic import AppPaths, AppSettings
from composer_app.ui.sync_bridge import SyncBridge

__all__ = ["Session"]


@dataclass
class Session:
    """The bridge, the app's folders and settings, the token store and the server's address."""

    bridge: SyncBridge
    paths: AppPaths
    settings: AppSettings
    tokens: TokenStore
    embedded: bool
    server_url: str
    token: str = ""
    """The token ``bridge`` signed in with (paste imports from this server use it)."""
    book: AccountBook | None = None
    """Every server of this run (None: just the one ``bridge`` talks to)."""
    engines: AccountEngines | None = None
    """The other accounts' engines (None: made by the window when a server is added)."""
