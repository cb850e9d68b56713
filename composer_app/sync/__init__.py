"""The sync client: a Qt-free engine on its own asyncio loop, with a local cache and an outbox.

``composer_app.sync.engine.SyncEngine`` is the entry point (thread-safe API, callbacks through
``EngineListener``); ``composer_app.sync.secrets.TokenStore`` keeps sign-in tokens;
``composer_app.ui.sync_bridge`` turns the callbacks into Qt signals.

The package itself imports nothing: the app reads its account list (``accounts``) and starts the
embedded server before the engine's heavier modules (HTTP client, asyncio, the contracts) load.
"""
