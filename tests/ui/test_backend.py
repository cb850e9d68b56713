"""The backend: the embedded server starts early, in its own process, with the local provider,
and stops for good."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from composer_app.ui.backend import EarlyServer, stop_embedded_server
from composer_app.ui.server_process import ServerProcess
from composer_app.ui.settings.settings_logic import AppSettings, app_paths


def test_embedded_server_starts_early_with_the_local_provider(tmp_path: Path) -> None:
    paths = app_paths(tmp_path)
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    server = EarlyServer(paths, AppSettings(knowledge_dir=str(knowledge))).wait()
    try:
        assert isinstance(server, ServerProcess)  # not this process: never holds the GUI's lock
        assert server.url.startswith("http://127.0.0.1:")
        assert server.provider == "local"
        assert Path(server.knowledge_dir) == knowledge
        reply = httpx.get(f"{server.url}/api/environment", timeout=10,
                          headers={"Authorization": f"Bearer {server.token}"})
        assert reply.status_code == 200
        assert (paths.server_dir).is_dir()  # its data stays in the app's data folder
    finally:
        stop_embedded_server(server)
    assert server.exit_code() == 0
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{server.url}/api/environment", timeout=2)


def test_a_server_that_cannot_start_says_why(tmp_path: Path) -> None:
    (tmp_path / "server").write_text("a file where the server's folder should be")
    early = EarlyServer(app_paths(tmp_path), AppSettings())
    with pytest.raises(Exception) as raised:
        early.wait()
    assert str(raised.value)
