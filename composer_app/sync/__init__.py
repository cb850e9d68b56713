"""The sync client: a Qt-free engine on its own asyncio loop, with a local cache and an outbox.

``SyncEngine`` is the entry point (thread-safe API, callbacks through ``EngineListener``);
``TokenStore`` keeps sign-in tokens; ``composer_app.ui.sync_bridge`` turns the callbacks into Qt
signals.
"""

from __future__ import annotations

from composer_app.sync.assets import AssetFetchError
from composer_app.sync.engine import EngineListener, EngineStartTimeout, SyncEngine
from composer_app.sync.outbox import EditedMessage
from composer_app.sync.secrets import TokenStore
from composer_app.sync.store import ClientStore, MessageRow, OutboxRow, ThreadRow, UploadRow

__all__ = [
    "AssetFetchError",
    "ClientStore",
    "EditedMessage",
    "EngineListener",
    "EngineStartTimeout",
    "MessageRow",
    "OutboxRow",
    "SyncEngine",
    "ThreadRow",
    "TokenStore",
    "UploadRow",
]
