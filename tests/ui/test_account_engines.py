"""``AccountEngines``: one engine per account with its own client folder, each started and stopped
on its own, against real servers on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from composer_app.server.embedded import EmbeddedServer, start_embedded
from composer_app.sync.accounts import EMBEDDED, AccountBook
from composer_app.sync.engine import DATABASE_FILE
from composer_app.ui.account_engines import AccountEngines
from composer_app.ui.settings.settings_logic import app_paths

WAIT_MS = 20_000


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[EmbeddedServer, EmbeddedServer]]:
    a = start_embedded(tmp_path / "a-server")
    b = start_embedded(tmp_path / "b-server")
    yield a, b
    a.stop()
    b.stop()


def test_each_account_has_its_own_folder_and_stops_alone(
        qtbot: QtBot, tmp_path: Path, servers: tuple[EmbeddedServer, EmbeddedServer]) -> None:
    a, b = servers
    paths = app_paths(tmp_path / "app")
    team = AccountBook(None).add(b.url, "Team", save=False)
    engines = AccountEngines(paths)
    try:
        home_run = engines.start(EMBEDDED, a.url, a.token)
        team_run = engines.start(team, b.url, b.token)
        assert home_run.bridge is not None and team_run.bridge is not None
        for run in (home_run, team_run):
            bridge = run.bridge
            qtbot.waitUntil(lambda bridge=bridge: bridge.connection_state[0] == "connected",
                            timeout=WAIT_MS)
        # the embedded account keeps the data folder of a single-server app; a remote one has
        # the folder the app always used for that URL
        assert (paths.data_dir / DATABASE_FILE).is_file()
        assert (paths.client_dir(b.url) / DATABASE_FILE).is_file()
        assert paths.client_dir(b.url) != paths.data_dir
        assert home_run.bridge.environment is not None and team_run.bridge.environment is not None
        assert (home_run.bridge.environment.environment_id
                != team_run.bridge.environment.environment_id)
        engines.stop(team.account_id)
        assert engines.bridge(team.account_id) is None
        with pytest.raises(RuntimeError):
            team_run.bridge.engine.threads()
        assert home_run.bridge.engine.threads().result(10) == []  # the other goes on
        assert [r.account.account_id for r in engines.runs()] == [EMBEDDED.account_id]
    finally:
        engines.stop_all()
    assert engines.runs() == []


def test_an_engine_that_cannot_start_never_stops_the_others(
        qtbot: QtBot, tmp_path: Path, servers: tuple[EmbeddedServer, EmbeddedServer]) -> None:
    a, b = servers
    paths = app_paths(tmp_path / "app")
    team = AccountBook(None).add(b.url, "Team", save=False)
    blocked = paths.client_dir(b.url)
    blocked.parent.mkdir(parents=True)
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    engines = AccountEngines(paths)
    try:
        home = engines.start(EMBEDDED, a.url, a.token)
        failed = engines.start(team, b.url, b.token)
        assert failed.bridge is None and failed.error
        assert engines.bridge(team.account_id) is None
        assert home.bridge is not None
        qtbot.waitUntil(lambda: home.bridge is not None
                        and home.bridge.connection_state[0] == "connected", timeout=WAIT_MS)
    finally:
        engines.stop_all()
