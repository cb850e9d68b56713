"""``list-tokens``, ``revoke-token`` and ``rotate-secret``: applied at once by running servers."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.server.harness import create_thread, tid
from tests.server.live import ServerProcess, cli, data_args


@pytest.fixture
def processes() -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for process in started:
        process.stop()


def _postgres_args(tmp_path: Path, dsn: str) -> list[str]:
    from tests.server.test_main import _query

    return ["--database-url", f"postgresql+psycopg://?{_query(dsn)}",
            "--data-dir", str(tmp_path / "data"), "--storage-dir", str(tmp_path / "blobs")]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def storage_args(request: pytest.FixtureRequest, tmp_path: Path) -> list[str]:
    if request.param == "sqlite":
        return data_args(tmp_path / "data")
    return _postgres_args(tmp_path, request.getfixturevalue("postgres_dsn"))


def _fails(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "composer_app.server", *args],
                          capture_output=True, text=True, timeout=60)


def test_revoke_token_is_refused_at_once_by_every_running_server(
        storage_args: list[str], processes: list[ServerProcess]) -> None:
    laptop = cli("create-token", "--user", "alice", "--name", "laptop", *storage_args)
    phone = cli("create-token", "--user", "alice", "--name", "phone", *storage_args)
    servers = [ServerProcess(storage_args).start()]
    if "--database-url" in storage_args:
        servers.append(ServerProcess(storage_args).start())  # a second process, same database
    processes.extend(servers)
    headers = {"Authorization": f"Bearer {laptop}"}
    for server in servers:  # both processes have seen (and cached) the token
        assert httpx.post(server.url + "/api/commands", headers=headers,
                          json=create_thread(tid())).status_code == 200
        assert httpx.get(server.url + "/api/threads", headers=headers).status_code == 200
    listed = cli("list-tokens", "--user", "alice", *storage_args)
    assert [line.split("\t")[0] for line in listed.splitlines()] == ["laptop", "phone"]
    assert laptop not in listed and "active" in listed
    cli("revoke-token", "--user", "alice", "--name", "laptop", *storage_args)
    for server in servers:
        for response in (
            httpx.post(server.url + "/api/commands", headers=headers, json=create_thread(tid())),
            httpx.get(server.url + "/api/threads", headers=headers),
        ):
            assert response.status_code == 401
            assert response.json()["error"]["code"] == "unauthorized"
        with pytest.raises(InvalidStatus):
            connect(server.url.replace("http", "ws", 1) + "/api/ws",
                    additional_headers=headers, open_timeout=10).close()
        assert httpx.get(server.url + "/api/threads",
                         headers={"Authorization": f"Bearer {phone}"}).status_code == 200
    listed = cli("list-tokens", "--user", "alice", *storage_args)
    assert "laptop" in listed and "revoked" in listed.splitlines()[0]
    again = _fails("revoke-token", "--user", "alice", "--name", "laptop", *storage_args)
    assert again.returncode == 1 and "no active token" in again.stderr
    assert _fails("list-tokens", "--user", "nobody", *storage_args).returncode == 1


def test_rotate_secret_invalidates_every_signed_url_at_once(
        tmp_path: Path, processes: list[ServerProcess]) -> None:
    args = data_args(tmp_path / "data")
    token = cli("create-token", "--user", "alice", "--name", "laptop", *args)
    server = ServerProcess(args).start()
    processes.append(server)
    headers = {"Authorization": f"Bearer {token}"}
    data = b"secret bytes"
    created = httpx.post(server.url + "/api/attachments", headers=headers, json={
        "name": "a.txt", "mimeType": "text/plain", "sizeBytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest()}).json()
    assert httpx.put(server.url + created["uploadUrl"], content=data).status_code == 204
    url = httpx.post(server.url + "/api/assets/url", headers=headers,
                     json={"attachmentId": created["attachmentId"]}).json()["url"]
    assert httpx.get(server.url + url).content == data
    cli("rotate-secret", *args)
    assert httpx.get(server.url + url).status_code == 404
    fresh = httpx.post(server.url + "/api/assets/url", headers=headers,
                       json={"attachmentId": created["attachmentId"]}).json()["url"]
    assert httpx.get(server.url + fresh).content == data
