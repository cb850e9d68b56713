"""A person's age in a question, and the ages a sentence's rule holds for."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.ages import (
    age_bound,
    bounds,
    school_year_bounds,
    stated,
    stated_school_years,
)
from composer_app.server.providers.term_forms import NUMBER_VALUES


@pytest.mark.parametrize(("text", "years"), [
    ("i'm 19 and my id card has expired.", [19]),
    ("my son is 10. does he need a helmet?", [10]),
    ("how much is a lesson for my 8-year-old daughter?", [8]),
    ("i'd like to adopt a ten-year-old dog.", [10]),
    ("i'm 5 minutes late and we are 4 people.", []),
    ("she is 30 euros short.", []),
    ("my son has just turned 16. is he allowed in alone?", [16]),
    ("i've just turned 18.", [18]),
])
def test_a_persons_age_is_read_only_as_an_age(text: str, years: list[int]) -> None:
    assert [y for _, _, y in stated(text)] == years


@pytest.mark.parametrize(("text", "found"), [
    ("children aged 6 to 11 ride ponies.", [("within", 6, 11)]),
    ("drivers aged 21 or 22 may hire small vans only.", [("within", 21, 22)]),
    ("visitors aged 65 and over pay less.", [(">=", 65, 65)]),
    ("children under 6 years old eat free.", [("<", 6, 6)]),
    ("you must be at least 17 to book the basic rider day.", [(">=", 17, 17)]),
    ("you do not pay nhs dental charges if you are under 18.", [("<", 18, 18)]),
    ("if you are over 65, ask for a discount.", [(">", 65, 65)]),
    ("you must be 18 or over, and live at an address we deliver to, in order to join.",
     [(">=", 18, 18)]),
    ("riders must be over 12 to join.", [(">", 12, 12)]),
    ("sixteen-year-olds can only take the moped starter course.", [("within", 16, 16)]),
    ("courses for 14 to 16-year-olds run weekly.", [("within", 14, 16)]),
    ("the course must be at least 17 hours long.", []),
    # a stretch of time after "at least" is no age, in a sentence about people or not
    ("driving is open to workers aged 21 or over who have held a licence for at least 2 years.",
     [(">=", 21, 21)]),
    ("children must be at least 3 years old to join.", [(">=", 3, 3)]),
    ("parcels under 10 kg travel free.", []),
    ("clients under 14 are not treated.", [("<", 14, 14)]),
    ("under-18s cannot collect items for other people.", [("<", 18, 18)]),
    ("over-65s travel free.", [(">=", 65, 65)]),
    ("patients aged 16 to 17 may attend alone.", [("within", 16, 17)]),
    # an age group named with its ages
    ("age group: toddlers (2 years); full day: £74.00", [("within", 2, 2)]),
    ("age group: pre-school (3 and 4 years); full day: £68.00", [("within", 3, 4)]),
    ("contract: fixed (3 years); monthly price: £20", []),
])
def test_a_sentence_sets_an_age_bound_only_with_words_that_make_one(
        text: str, found: list[tuple[str, int, int]]) -> None:
    assert list(bounds(text)) == found


@given(st.integers(0, 120), st.booleans())
def test_an_age_written_in_digits_or_words_reads_as_that_age(years: int, in_words: bool) -> None:
    words = {value: word for word, value in NUMBER_VALUES.items()}
    written = words[years] if in_words and years in words else str(years)
    assert [y for _, _, y in stated(f"my daughter is {written}.")] == [years]
    assert list(bounds(f"{written}-year-olds may join.")) == [("within", years, years)]


@pytest.mark.parametrize(("text", "years"), [
    ("my son is in year 3. is he allowed to walk home?", [3]),
    ("my year 7 class is keen on the high board.", [7]),
    ("the year 2026 was a good one.", []),
])
def test_a_pupils_school_year_is_read_only_as_year_and_a_small_number(text: str,
                                                                      years: list[int]) -> None:
    assert [y for _, _, y in stated_school_years(text)] == years


@pytest.mark.parametrize(("text", "found"), [
    ("pupils in year 5 and year 6 may walk home on their own.", [("within", 5, 6)]),
    ("pupils in years 3 to 6 pay for their lunch.", [("within", 3, 6)]),
    ("workshop: from year 5", [(">=", 5, 5)]),
    ("children in year 2 and below eat free.", [("<=", 2, 2)]),
    ("years 1, 2 and 3 have lunch at noon.", [("within", 1, 3)]),
    ("years 1 and 4 share a classroom.", []),  # not one band of years
])
def test_a_sentence_names_school_years_as_a_band(text: str,
                                                 found: list[tuple[str, int, int]]) -> None:
    assert list(school_year_bounds(text)) == found


def test_an_age_bound_speaks_to_the_age_the_question_states_held_or_not() -> None:
    question = "I'm 82. Am I too old to take out an Over-50s Life Plan?"
    assert age_bound(question, "82", "UK residents aged 50 to 80 can apply.") is False
    assert age_bound("My son is 17. Can he join?", "17", "You must be at least 16 to join.")
    assert age_bound(question, "82", "The normal retirement age is 65.") is None
    assert age_bound("We paid 82 euros. Can we join?", "82", "Members aged 50 to 80 join.") is None
