"""The days of the week a text names, and the days a rule holds on only."""

from __future__ import annotations

import pytest

from composer_app.server.providers.week_days import HOLIDAY, ONLY_DAYS, weekdays_named


@pytest.mark.parametrize(("text", "days"), [
    ("from monday to thursday", {0, 1, 2, 3}),
    ("friday to monday", {4, 5, 6, 0}),  # a range may wrap
    ("on sundays and public holidays", {6, HOLIDAY}),
    ("at weekends", {5, 6}),
    ("on weekdays", {0, 1, 2, 3, 4}),
    ("easter monday", {HOLIDAY}),  # a holiday, not any Monday
    ("within two working days", set()),
])
def test_the_days_a_text_names(text: str, days: set[int]) -> None:
    assert weekdays_named(text) == frozenset(days)


@pytest.mark.parametrize(("text", "only"), [
    ("on fridays only, children may be collected later", True),
    ("drilling is allowed only on weekdays", True),
    ("answered from monday to friday only", True),
    ("we are open from tuesday to saturday", False),
    ("only three hens on a half plot", False),
])
def test_the_days_a_rule_holds_on_only(text: str, only: bool) -> None:
    assert (ONLY_DAYS.search(text) is not None) == only
