"""``ActiveBridge``: requests go to the active account's engine, answers come back once under the
id it gave, notifications of every account are relayed and a removed account is silent."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from composer_app.ui.active_bridge import NOT_SIGNED_IN, ActiveBridge
from tests.ui.fake_engine import ENVIRONMENT, fake_bridge

WAIT_MS = 5_000


def _answers(bridge: ActiveBridge) -> dict[int, tuple[Any, str]]:
    answers: dict[int, tuple[Any, str]] = {}
    bridge.request_finished.connect(lambda rid, result, error: answers.update(
        {rid: (result, error)}))
    return answers


def test_requests_follow_the_active_account_and_answers_keep_their_ids(qtbot: QtBot) -> None:
    home, home_engine = fake_bridge()
    team, team_engine = fake_bridge()
    home_engine.add_thread("At home")
    team_engine.add_thread("At work")
    bridge = ActiveBridge()
    bridge.add_account("home", home)
    bridge.add_account("team", team)
    assert bridge.active_account == "home"  # the first account added
    answers = _answers(bridge)
    first = bridge.submit(lambda e: e.threads())
    bridge.set_active("team")
    second = bridge.submit(lambda e: e.threads())
    third = bridge.submit_to("home", lambda e: e.threads())
    assert len({first, second, third}) == 3
    qtbot.waitUntil(lambda: len(answers) == 3, timeout=WAIT_MS)
    assert [r.title for r in answers[first][0]] == ["At home"]
    assert [r.title for r in answers[second][0]] == ["At work"]
    assert [r.title for r in answers[third][0]] == ["At home"]


def test_connection_and_environment_come_from_the_active_account_only(qtbot: QtBot) -> None:
    home, home_engine = fake_bridge()
    team, team_engine = fake_bridge()
    bridge = ActiveBridge()
    bridge.add_account("home", home)
    bridge.add_account("team", team)
    states: list[tuple[str, int]] = []
    per_account: list[tuple[str, str]] = []
    bridge.connection_state_changed.connect(lambda s, n: states.append((s, n)))
    bridge.account_state_changed.connect(lambda a, s, _n: per_account.append((a, s)))
    team_engine.connect()
    qtbot.waitUntil(lambda: ("team", "connected") in per_account, timeout=WAIT_MS)
    assert states == [] and bridge.environment is None
    with qtbot.waitSignal(bridge.environment_changed, timeout=WAIT_MS):
        bridge.set_active("team")  # announced again for the newly active account
    assert states[-1] == ("connected", 0) and bridge.environment == ENVIRONMENT
    assert bridge.state_of("home")[0] != "connected"
    home_engine.emit("connection_state_changed", "offline", 5)
    qtbot.waitUntil(lambda: ("home", "offline") in per_account, timeout=WAIT_MS)
    assert states[-1] == ("connected", 0)


def test_a_removed_account_is_silent_and_refuses_requests(qtbot: QtBot) -> None:
    home, _home_engine = fake_bridge()
    team, team_engine = fake_bridge()
    bridge = ActiveBridge()
    bridge.add_account("home", home)
    bridge.add_account("team", team)
    upserted: list[str] = []
    bridge.message_upserted.connect(lambda thread, _m: upserted.append(thread))
    thread = team_engine.add_thread("At work")
    team_engine.add_message(thread, "user", "hello")
    qtbot.waitUntil(lambda: upserted == [thread], timeout=WAIT_MS)
    bridge.remove_account("team")
    assert bridge.account_ids() == ["home"]
    team_engine.add_message(thread, "user", "after the sign-out")
    qtbot.wait(50)
    assert upserted == [thread]
    with pytest.raises(RuntimeError, match=NOT_SIGNED_IN):
        bridge.submit_to("team", lambda e: e.threads())
    assert bridge.state_of("team") == ("signed-out", 0)
