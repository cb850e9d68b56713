"""Times of day, and the time until an hour tomorrow counted from now."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.clock_times import clock_readings, clock_values, until_tomorrow


@pytest.mark.parametrize(("text", "minutes"), [
    ("i sent it at half past eleven.", [690]),
    ("we arrive at 7 pm.", [1140]),
    ("orders before 11:00 ship today.", [660]),
    ("at 2 in the morning", [120]),
    ("at 9 in the evening", [1260]),
    ("orders before noon ship today.", [720]),
    ("i handed it in at lunchtime.", [750]),
    ("it costs 12.50 euros.", []),
])
def test_a_time_of_day_is_minutes_after_midnight(text: str, minutes: list[int]) -> None:
    assert [value for _, _, value in clock_values(text)] == minutes


def test_an_hour_tomorrow_counts_from_the_hour_it_is_now() -> None:
    assert until_tomorrow("i've booked a 7am class tomorrow and it's now 9pm.") == 600
    assert until_tomorrow("my class is at 7am tomorrow.") is None  # no "now"
    assert until_tomorrow("it's 9pm now.") is None  # no hour tomorrow


@given(st.integers(0, 23), st.integers(0, 59))
def test_every_written_time_reads_back_as_itself(hour: int, minute: int) -> None:
    ((_, _, value),) = clock_values(f"at {hour:02d}:{minute:02d}")
    assert value == hour * 60 + minute


@pytest.mark.parametrize(("text", "readings"), [
    ("i want to head home at about quarter past five on a thursday.", [(315, 1035)]),
    ("the film starts at six o'clock.", [(360, 1080)]),
    ("i ordered at half past eleven.", [(690,)]),  # from 8 to 11: the morning
    ("i ordered at 5:15.", [(315,)]),  # written with its minutes: as written
    ("my train at half past five in the morning.", [(330,)]),
    ("quarter past five this evening.", [(1035,)]),
    ("at 4pm on friday.", [(960,)]),
])
def test_an_hour_of_either_half_of_the_day_has_both_readings(
        text: str, readings: list[tuple[int, ...]]) -> None:
    assert [values for _, _, values in clock_readings(text)] == readings


@given(st.integers(0, 23), st.integers(0, 59))
def test_a_time_written_with_its_minutes_has_one_reading(hour: int, minute: int) -> None:
    ((_, _, values),) = clock_readings(f"at {hour}:{minute:02d}")
    assert values == (hour * 60 + minute,)
