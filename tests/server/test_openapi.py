"""Schemathesis over the server's OpenAPI: no generated input, valid or not, gets a 5xx."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from composer_app.server.app import build_app
from composer_app.server.http_protocol import server_config
from composer_app.server.settings import ServerSettings
from composer_app.server.store.sqlite import SqliteStore

EXAMPLES = 12  # per operation and mode: the whole run stays well under a minute


@pytest.fixture(scope="module")
def live_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    data = tmp_path_factory.mktemp("openapi")
    store = SqliteStore.in_dir(Path(data))
    store.open()
    token = store.create_token("alice", "laptop")[0]
    app = build_app(ServerSettings(Path(data), rate_limit_per_second=0), store)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(server_config(app, log_level="critical", lifespan="on"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                              daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive()
        time.sleep(0.01)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", token
    server.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def api_schema(live_api: tuple[str, str]) -> Any:
    return schemathesis.openapi.from_url(live_api[0] + "/api/openapi.json")


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_input_gets_a_server_error(api_schema: Any, live_api: tuple[str, str],
                                      mode: GenerationMode) -> None:
    headers = {"Authorization": f"Bearer {live_api[1]}"}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) == 9
    seen: list[tuple[str, str, int]] = []

    for operation in operations:
        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck),
                  phases=[Phase.explicit, Phase.generate])
        def check(case: Any) -> None:
            response = case.call(headers={**headers, **(case.headers or {})}, timeout=30)
            seen.append((case.method, case.path, response.status_code))
            assert response.status_code < 500, (case.method, case.formatted_path,
                                                response.text[:500])
            if response.status_code >= 400 and response.status_code != 405:
                error = response.json()["error"]
                assert set(error) == {"code", "message", "retryable"}

        try:
            check()
        except Unsatisfiable:  # nothing to get wrong: no parameters and no body
            assert mode is GenerationMode.NEGATIVE
    if mode is GenerationMode.POSITIVE:
        assert {path for _, path, _ in seen} == {op.path for op in operations}
    assert any(status < 300 for _, _, status in seen) or mode is GenerationMode.NEGATIVE
