"""The sentences that state a rule as it was before a change, and the questions about it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.former_rules import asks_former, states_former


@pytest.mark.parametrize("text", [
    "Until now, guests had to leave their pitch by 11:00 on the day of departure.",
    "Up to now, a tent pitch cost 10 euros per night.",
    "So far, members paid 40 euros a year.",
    "Previously, the handling fee was 7.50 euros.",
    "In the past, items were kept for three months.",
    "Guests used to pay 10 euros for a pitch.",
    "The old price was 10 euros per night.",
    "The previous storage period had been three months.",
])
def test_a_rule_before_a_change_is_former(text: str) -> None:
    assert states_former(text)


@pytest.mark.parametrize("text", [
    "From the 2026 season, you can stay on your pitch until 12:00.",
    "The new fee replaces the previous handling fee.",
    "At least one third of each plot must be used to grow fruit or vegetables.",
    "First-time wearers who cannot get used to their new glasses can exchange them.",
    "The room is used to store bicycles.",
    "Until 31 March, the pool is open from 7:00.",
])
def test_a_rule_that_holds_now_is_not_former(text: str) -> None:
    assert not states_former(text)


def test_a_question_about_the_past_asks_for_the_former_rule() -> None:
    assert asks_former("What did a tent pitch cost before the change?")
    assert asks_former("What was the old price of a tent pitch?")
    assert not asks_former("By what time do we have to leave our pitch?")
    assert not asks_former("How much is a tent pitch per night?")


@given(st.text(max_size=200))
def test_any_text_is_read_without_error(text: str) -> None:
    assert states_former(text) in (True, False)
    assert asks_former(text) in (True, False)
