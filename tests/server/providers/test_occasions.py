"""Occasions counted in order: the person's own, and the occasions a rule is for."""

from __future__ import annotations

import pytest

from composer_app.server.providers.occasions import bounds, stated


@pytest.mark.parametrize(("text", "found"), [
    ("this is my seventh breakdown this year.", [("count", 7), ("ordinal", 7)]),
    ("i've just missed my second contractor visit.", [("count", 2), ("ordinal", 2)]),
    ("it's my first lesson on saturday.", [("ordinal", 1)]),
    ("it's the first time i've done that.", [("ordinal", 1)]),
    ("this is the third time it has broken.", [("ordinal", 3)]),
    ("my second time was better.", []),
    ("we're four people.", []),
    ("this is the second hidden leak on my supply pipe.", [("ordinal", 2)]),
    ("i've failed it twice. who pays if i sit it a third time?", [("ordinal", 3)]),
    ("i cracked my screen last year and now i've dropped it again.", [("ordinal", 2)]),
    ("it's the third time and i've lost it again.", [("ordinal", 3)]),  # "again" adds nothing
    ("this is my seventh breakdown, and it broke down again.", [("count", 7), ("ordinal", 7)]),
    ("it'll be the second permit in our household.", [("ordinal", 2)]),
    ("this will be the third booking.", [("ordinal", 3)]),
    ("we want a second brown bin for garden waste.", [("ordinal", 2)]),
    ("we just bought a second car.", [("ordinal", 2)]),
    ("i'd like a second opinion on the quote.", []),
    ("i need a second hand bike.", []),
])
def test_the_persons_own_occasion_is_read_from_an_ordinal_of_theirs(
        text: str, found: list[tuple[str, int]]) -> None:
    assert list(stated(text)) == found


@pytest.mark.parametrize(("text", "found"), [
    ("from the seventh call-out, a fee of £40 applies.",
     [("count", ">=", 7), ("ordinal", ">=", 7)]),
    ("up to the third repair is free.", [("count", "<=", 3), ("ordinal", "<=", 3)]),
    ("the first missed appointment in a tenancy is free.", [("ordinal", "==", 1)]),
    ("later missed appointments are charged at £55.", [("ordinal", ">=", 2)]),
    ("a third or subsequent late cancellation is charged.", [("ordinal", ">=", 3)]),
    ("the first hour costs £20.", []),
    ("the first of the month is payday.", []),
    ("tell us no later than 18:00.", []),
    ("further information is on our website.", []),
    ("for a second incident in the same 3-year period, you pay the first £100.",
     [("ordinal", "==", 2)]),
    ("second and later resits are at your own cost.", [("ordinal", ">=", 2)]),
    ("a third or later incident costs £200.", [("ordinal", ">=", 3)]),
    ("we waive the fee the first time.", [("ordinal", "==", 1)]),
    ("you pay £30 a year for a first permit.", [("ordinal", "==", 1)]),
    ("for the first time in ten years, prices fall.", []),
    ("the café is on the first floor.", []),
    ("take a first aid kit.", []),
    ("permit: third permit in household; zones a to c: £180 a year", [("ordinal", "==", 3)]),
    ("£30 for a first permit; second and third permits are charged at the normal price.",
     [("ordinal", "==", 1), ("ordinal", ">=", 2), ("ordinal", "<=", 3)]),
    ("first brown bin: £55 a year.", [("ordinal", "==", 1)]),
    ("each extra brown bin: £40 a year, up to three bins per household.",
     [("ordinal", ">=", 2)]),
    ("every additional permit costs £45.", [("ordinal", ">=", 2)]),
    ("first, fill in the form: it takes a minute.", []),
    ("first aid: the office on the ground floor.", []),
    ("an express collection costs an extra £25 per booking.", []),
    ("each extra hour costs £5.", []),
    ("each additional person pays £10.", []),
])
def test_a_rule_names_the_occasions_it_is_for(text: str,
                                              found: list[tuple[str, str, int]]) -> None:
    assert list(bounds(text)) == found
