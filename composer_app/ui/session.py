"""``Session``: what one run of the main window is connected to.

Invariant: ``bridge`` is started before a window is built on the session and stopped only after
the window's ``shutdown``; ``settings`` is what the settings file holds (the settings dialog
replaces it when the user saves).
"""

from __future__ import annotations

from dataclasses import dataclass

from composer_app.sync.secrets import TokenStore
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
