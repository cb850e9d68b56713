"""Which words a text denies, and which verb a permission question asks about."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.term_forms import stem, words
from composer_app.server.providers.term_polarity import (
    negated_stems,
    permission_verb,
    prefixed_stems,
    unprefixed,
    without_objects,
    without_stems,
)


def test_a_negator_denies_the_next_words_of_its_clause_only():
    found = negated_stems("a card for someone who does not live in the district, and a pass")
    assert stem("live") in found
    assert stem("pass") not in found and stem("card") not in found
    assert stem("late") in negated_stems("Tickets that aren't late are free.")


def test_a_non_prefix_denies_its_word_and_is_told_apart_from_not():
    assert prefixed_stems("Non-residents pay 18 euros.") == {stem("residents")}
    assert stem("residents") in negated_stems("Non-residents pay 18 euros.")
    assert prefixed_stems("Plants are not allowed.") == frozenset()


def test_permission_questions_name_their_verb():
    assert permission_verb("Can I bring a potted plant to a patient?") == stem("bring")
    assert permission_verb("May we park behind the building?") == stem("park")
    assert permission_verb("Can newspapers be borrowed?") == stem("borrowed")
    assert permission_verb("Is it allowed to smoke on the terrace?") == stem("smoke")
    assert permission_verb("How can I reset my password?") is None
    assert permission_verb("What does a ticket cost?") is None


@given(st.text(max_size=200))
def test_polarity_only_names_stems_of_the_texts_own_words(text: str):
    own = {stem(w) for w in words(text)}
    assert negated_stems(text) <= own
    assert prefixed_stems(text) <= negated_stems(text)
    verb = permission_verb(text)
    assert verb is None or verb in own


def test_words_after_without_are_what_the_sentence_lacks() -> None:
    assert without_stems("Storing four tyres without rims costs 35 euros.") >= {stem("rims")}
    assert not without_stems("Storing complete wheels on rims costs 45 euros.")


def test_a_sentence_lacking_a_term_is_a_near_miss_for_a_question_that_has_it() -> None:
    from composer_app.server.providers.answer_ranking import term_credits
    from tests.server.providers.support import ranked_sentences

    text = ("# Tyre storage\n\nStoring four tyres without rims costs 35 euros per season. "
            "Storing four complete wheels on rims costs 45 euros per season.\n")
    part, units, _ = ranked_sentences("My winter wheels are on their own rims. What does storing "
                                      "them cost per season?", "tyres.md", text)
    without, on = units
    rims = next(i for i, t in enumerate(part.terms) if t.stem == stem("rims"))
    assert term_credits(without, part)[rims] < term_credits(on, part)[rims]


@pytest.mark.parametrize(("text", "lacked"), [
    ("Storing four tyres without rims costs 35 euros per season.", {"rims"}),
    ("Walk-ins without an appointment wait longer.", {"appointment"}),
    ("Members without their card pay the day rate; guests without ID are turned away.",
     {"card", "id"}),
    ("Send it back within 30 days.", set()),
])
def test_what_a_case_is_without_is_the_word_right_after_without(text: str,
                                                                  lacked: set[str]) -> None:
    assert without_objects(text) == {stem(w) for w in lacked}


def test_an_un_word_is_the_negative_of_its_stem() -> None:
    own = {stem(w) for w in words("We do not take back unsold or unpaid goods.")}
    assert unprefixed(stem("sell"), own) and unprefixed(stem("pay"), own)
    assert not unprefixed(stem("take"), own)
