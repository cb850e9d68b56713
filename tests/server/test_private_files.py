"""Server files are private whatever the umask: directories 0700, database and attachments 0600."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.harness import harness


@pytest.fixture(params=[0o000, 0o022])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    yield int(request.param)
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_data_directory_database_and_attachments_are_private(tmp_path: Path,
                                                             umask: int) -> None:
    data = tmp_path / "server"
    with harness(data) as h:
        pending = h.upload(h.alice, b"private bytes", name="a.txt", mime="text/plain")
        assert pending
        files = [p for p in data.iterdir() if p.is_file()]
        assert {p.name for p in files} >= {"composer-server.sqlite3"}
        for path in files:
            assert _mode(path) == 0o600, path
        assert _mode(data) == 0o700
        folder = h.settings.attachments_dir
        assert _mode(folder) == 0o700
        stored = list(folder.iterdir())
        assert stored and all(_mode(p) == 0o600 for p in stored)


def test_an_existing_world_readable_directory_is_made_private(tmp_path: Path) -> None:
    data = tmp_path / "server"
    data.mkdir(mode=0o755)
    os.chmod(data, 0o755)
    (data / "composer-server.sqlite3").touch()
    os.chmod(data / "composer-server.sqlite3", 0o644)
    with harness(data):
        assert _mode(data) == 0o700
        assert _mode(data / "composer-server.sqlite3") == 0o600
