"""Amounts measured in a unit, in a question's situation and in the bounds a sentence sets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.measures import SCALE, asked, bounds


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("i need 150 pages printed in colour", "measure:page", 150 * SCALE),
    ("we're ordering 25 kg of your espresso blend", "measure:kg", 25 * SCALE),
    ("how soon can i get a 1,500-word text translated?", "measure:word", 1500 * SCALE),
    ("a bag of 2.5 kilos", "measure:kg", 2500),
    ("we live 300 km away", "measure:km", 300 * SCALE),
    ("i need 4,000 euros in cash", "measure:eur", 4000 * SCALE),
    ("can i borrow €5,000.", "measure:eur", 5000 * SCALE),
    ("a ticket for £13.50, please", "measure:gbp", 13500),
    ("it is 50 € each", "measure:eur", 50 * SCALE),
    ("my camper van is 2.15 m tall", "measure:m", 2150),
    ("a 90 cm wide wardrobe", "measure:cm", 90 * SCALE),
])
def test_an_amount_with_its_unit_is_read_from_the_question(text: str, kind: str,
                                                           value: int) -> None:
    assert [(k, v) for _, _, k, v in asked(text)] == [(kind, value)]


def test_a_number_without_a_unit_is_no_measured_amount() -> None:
    assert list(asked("my son is 15 and we are 4 people at 10:00")) == []


@pytest.mark.parametrize(("text", "relation", "value", "high"), [
    ("quantity: 100 pages or more; price: 0.32 euros", ">=", 100, 100),
    ("quantity: 1 to 99 pages; price: 0.45 euros", "within", 1, 99),
    ("our espresso blend costs 21 euros per kg for orders of 5 to 19 kg.", "within", 5, 19),
    ("texts of up to 2,000 words are delivered within 3 working days.", "<=", 2000, 2000),
    ("cafés that order at least 15 kg per month can borrow a grinder.", ">=", 15, 15),
    ("parcels under 10 kg travel free.", "<", 10, 10),
    ("cash withdrawals are limited to 2,500 euros per day.", "<=", 2500, 2500),
    ("orders over €50 ship free.", ">", 50, 50),
    ("rooms cost from £80 to £120 a night.", "within", 80, 120),
    ("donations of $20 or more get a card.", ">=", 20, 20),
])
def test_a_sentence_sets_a_bound_only_with_words_that_make_one(text: str, relation: str,
                                                               value: int, high: int) -> None:
    assert [(r, v, h) for _, _, _, r, v, h in bounds(text)] == \
        [(relation, value * SCALE, high * SCALE)]


def test_a_bare_amount_sets_no_bound() -> None:
    assert list(bounds("a 250 g bag in the subscription costs 8.90 euros.")) == []


@given(st.integers(min_value=1, max_value=999_999), st.sampled_from(["pages", "kg", "words"]))
def test_an_amount_written_with_thousands_separators_reads_as_its_value(number: int,
                                                                       unit: str) -> None:
    written = f"{number:,}"
    [(_, _, _, value)] = list(asked(f"we need {written} {unit}"))
    assert value == number * SCALE


@given(st.integers(min_value=1, max_value=999_999), st.sampled_from(["€", "£", "$"]),
       st.sampled_from(["", ".", ",", "?"]))
def test_a_currency_symbol_before_a_value_reads_as_that_amount(number: int, symbol: str,
                                                              after: str) -> None:
    [(_, _, kind, value)] = list(asked(f"can i pay {symbol}{number:,}{after}"))
    assert value == number * SCALE
    assert kind == {"€": "measure:eur", "£": "measure:gbp", "$": "measure:usd"}[symbol]


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("a charity with an income of about £2.3 million a year", "measure:gbp", 2_300_000),
    ("a turnover of 2 million euros", "measure:eur", 2_000_000),
    ("sales of £750k last year", "measure:gbp", 750_000),
    ("a budget of $1.5bn", "measure:usd", 1_500_000_000),
    ("a pole 2 m long", "measure:m", 2),
])
def test_an_amount_in_thousands_or_millions_reads_as_its_value(text: str, kind: str,
                                                                value: int) -> None:
    assert [(k, v) for _, _, k, v in asked(text)] == [(kind, value * SCALE)]


def test_a_bound_in_millions_is_held_against_an_amount_in_millions() -> None:
    assert [b[3:5] for b in bounds("charities with an income under £1 million get 50% off")] \
        == [("<", 1_000_000 * SCALE)]
    assert [b[3:5] for b in bounds("charities with an income of £1 million or more get 20% off")] \
        == [(">=", 1_000_000 * SCALE)]


def test_the_first_miles_of_a_tier_bound_it_from_above() -> None:
    text = "we pay 45p per mile for the first 10,000 business miles in the tax year."
    assert [b[2:] for b in bounds(text)] == [("measure:mile", "<=", 10_000 * SCALE,
                                              10_000 * SCALE)]


def test_an_amount_stated_as_passed_or_not_reached_lies_beyond_it() -> None:
    assert [a[2:] for a in asked("once i've done more than 10,000 business miles")] == \
        [("measure:mile", 10_000 * SCALE + 1)]
    assert [a[2:] for a in asked("a parcel under 5 kg")] == [("measure:kg", 5 * SCALE - 1)]
    assert [a[2:] for a in asked("a parcel of 5 kg")] == [("measure:kg", 5 * SCALE)]


def test_within_a_distance_bounds_it_from_above() -> None:
    text = "orders over £500 delivered within 15 miles of the store get free delivery."
    assert ("measure:mile", "<=", 15 * SCALE, 15 * SCALE) in [b[2:] for b in bounds(text)]
