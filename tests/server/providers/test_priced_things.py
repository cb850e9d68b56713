"""What a sentence states a price for, against what a price question asks the price of."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.priced_things import (
    priced_clauses,
    priced_elsewhere,
    priced_things,
)
from composer_app.server.providers.term_forms import stems


def test_the_thing_priced_is_named_by_the_words_before_the_cost_verb_in_its_clause() -> None:
    text = ("Two restores per calendar month are included in your plan; each further restore "
            "costs 49 euros.")
    assert priced_clauses(text) == [("each further restore", frozenset({"restor"}))]
    assert priced_things("Course books are not included and cost 25 euros.") == [
        frozenset(stems("course books included"))]


def test_a_clause_that_names_no_thing_prices_nothing() -> None:
    assert priced_things("It costs 10 euros per month.") == []
    assert priced_things("The fee, which costs nothing extra, is waived.") == []
    assert priced_things("Parking is free for guests.") == []


def test_a_clause_that_names_only_the_kind_of_use_or_who_pays_leans_on_its_context() -> None:
    assert priced_things("Entry costs 12 euros.") == []
    assert priced_things("A single session costs 40 euros.") == []
    assert priced_things("Children aged 6 to 14 cost 5 euros per day.") == []
    assert priced_elsewhere("Entry costs 12 euros.", stems("How much is the sauna")) is False


def test_a_price_for_a_thing_the_question_does_not_name_is_elsewhere() -> None:
    asked = stems("official language exam cost Lingua Viva")
    assert priced_elsewhere("Course books are not included and cost 25 euros.", asked)
    assert not priced_elsewhere("The exam costs 120 euros.", asked)


def test_a_synonym_or_related_form_of_the_asked_thing_is_the_same_thing() -> None:
    asked = stems("What does it cost to replace a lost access badge")
    assert not priced_elsewhere("A replacement card costs 20 euros.", asked)


def test_a_heading_that_names_the_asked_thing_keeps_the_sentence() -> None:
    asked = stems("How much does the exam cost")
    text = "Registration costs 20 euros."
    assert priced_elsewhere(text, asked, "Fees")
    assert not priced_elsewhere(text, asked, "Exams")


def test_a_sentence_with_several_prices_is_elsewhere_only_if_all_are() -> None:
    asked = stems("How much is a guided tour")
    text = "Entry costs 8 euros, and a guided tour costs 4 euros more."
    assert not priced_elsewhere(text, asked)


@given(st.text(max_size=200), st.lists(st.text(max_size=12), max_size=6), st.text(max_size=40))
def test_any_text_is_read_without_error(text: str, asked: list[str], heading: str) -> None:
    clauses = priced_clauses(text)
    assert all(clause in text for clause, _ in clauses)
    if not clauses:
        assert not priced_elsewhere(text, asked, heading)
