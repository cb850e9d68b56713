"""The Settings pages of the servers: live status, and what each server offers."""

from __future__ import annotations

from composer_app.sync.accounts import EMBEDDED, AccountBook
from composer_app.ui.settings.server_pages_logic import server_pages, status_line

TEAM = AccountBook(None).add("https://team.example.org", "Team", save=False)
LAB = AccountBook(None).add("https://lab.example.org", "", save=False)


def test_pages_follow_the_accounts_and_their_live_state() -> None:
    pages = server_pages([EMBEDDED, TEAM, LAB], {"embedded": "connected", TEAM.account_id:
                                                 "reconnecting"},
                         [EMBEDDED.account_id, TEAM.account_id])
    assert [p.name for p in pages] == ["This computer", "Team", "lab.example.org"]
    home, team, lab = pages
    assert home.status == "Connected now." and home.address.startswith("The embedded server")
    assert not (home.can_sign_in or home.can_sign_out or home.can_remove or home.can_start)
    assert team.status.startswith("Connection lost") and team.can_sign_out
    assert not team.can_sign_in and team.can_remove
    assert lab.status.startswith("Signed out") and lab.can_sign_in and not lab.can_sign_out
    assert lab.address == "https://lab.example.org"
    assert home.color != lab.color


def test_an_embedded_server_not_running_offers_start_only_when_it_can() -> None:
    [page] = server_pages([EMBEDDED], {}, [], embedded_startable=True)
    assert page.can_start and page.status.startswith("Not running")
    [page] = server_pages([EMBEDDED], {}, [], embedded_startable=False)
    assert not page.can_start


def test_a_refused_token_asks_to_sign_in_again() -> None:
    assert status_line(TEAM, "unauthorized", True).endswith("sign in again.")
    assert status_line(TEAM, "something new", True) == "Connecting…"
