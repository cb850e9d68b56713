"""The backend: the embedded server starts early with the local provider and stops for good."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from composer_app.ui.backend import EarlyServer, stop_embedded_server
from composer_app.ui.settings.settings_logic import AppSettings, app_paths


def test_embedded_server_starts_early_with_the_local_provider(tmp_path: Path) -> None:
    paths = app_paths(tmp_path)
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    server = EarlyServer(paths, AppSettings(knowledge_dir=str(knowledge))).wait()
    try:
        assert server.url.startswith("http://127.0.0.1:")
        assert server.router.options.provider == "local"
        assert server.router.options.knowledge_dir == knowledge
        reply = httpx.get(f"{server.url}/api/environment", timeout=10,
                          headers={"Authorization": f"Bearer {server.token}"})
        assert reply.status_code == 200
    finally:
        stop_embedded_server(server)
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{server.url}/api/environment", timeout=2)
