"""Terms named by their length in months or years, in minutes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.term_forms import NUMBER_VALUES
from composer_app.server.providers.term_lengths import MINUTES, named, states_length

YEAR, MONTH = MINUTES["year"], MINUTES["month"]


@pytest.mark.parametrize(("text", "lengths"), [
    ("on a 24-month handset plan you can upgrade", [24 * MONTH]),
    ("i'm on a three-year phone contract", [3 * YEAR]),
    ("i took the one-year deal", [YEAR]),
    ("prices on 12- and 24-month contracts rise", [12 * MONTH, 24 * MONTH]),
    ("a 6-month or 12-month permit", [6 * MONTH, 12 * MONTH]),
    ("my 12-year-old daughter", []),
    ("the 3-day museum pass and a two-week course", []),
    ("we stay for 12 months", []),
])
def test_a_term_is_named_by_its_length_only_in_months_or_years(text: str,
                                                                lengths: list[int]) -> None:
    assert list(named(text)) == lengths


def test_a_year_is_twelve_months() -> None:
    assert list(named("the 36-month plan")) == list(named("the three-year plan"))


@given(st.integers(1, 9999), st.sampled_from(["month", "year"]), st.booleans())
def test_any_count_of_months_or_years_reads_as_its_minutes(count: int, unit: str,
                                                           in_words: bool) -> None:
    words = {value: word for word, value in NUMBER_VALUES.items()}
    written = words[count] if in_words and count in words else str(count)
    assert list(named(f"on a {written}-{unit} contract")) == [count * MINUTES[unit]]


@pytest.mark.parametrize(("before", "states"), [
    ("fixed-term employees on contracts of ", True),
    ("a tenancy lasting at least ", True),
    ("leases of more than ", True),
    ("if you have worked here for ", False),
    ("the plan costs £10 for ", False),
])
def test_a_stretch_of_time_after_a_terms_name_is_its_length(before: str, states: bool) -> None:
    assert states_length(before) is states
