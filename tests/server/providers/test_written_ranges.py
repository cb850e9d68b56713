"""Whole numbers within the ranges a text writes out."""

from __future__ import annotations

import pytest

from composer_app.server.providers.written_ranges import within_range


@pytest.mark.parametrize(("number", "text", "inside"), [
    ("15", "Young people aged 14 to 17", True),
    ("18", "Young people aged 14 to 17", False),
    ("12", "Children under 14 pay less", True),
    ("14", "Children under 14 pay less", False),
    ("70", "Guests over 65 ride free", True),
    ("70", "Readers aged 65 and over pay 8 euros", True),
    ("64", "Readers aged 65 and over pay 8 euros", False),
    ("19", "Riders 18+ need a licence", True),
    ("30", "Drivers must be at least 21 years old", True),
    ("30", "Between 10 and 20 guests", False),
    ("x", "aged 14 to 17", False),
])
def test_a_number_is_within_a_written_range(number: str, text: str, inside: bool) -> None:
    assert within_range(number, text) is inside


@pytest.mark.parametrize("text", ["Pitches are available from 14:00.", "Open 10:00 to 17:00.",
                                  "A fee of 1.50 to 2.50 euros"])
def test_times_and_decimals_are_not_ranges(text: str) -> None:
    assert not within_range("15", text)


def test_numbers_with_thousands_separators_are_held_against_a_range() -> None:
    assert within_range("1,500", "Texts of up to 2,000 words")
    assert not within_range("2,500", "Texts of up to 2,000 words")
    assert within_range("1,500", "between 1,000 and 2,000 words")
