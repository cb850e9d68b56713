"""Reading a question into the parts a sentence is scored against."""

from __future__ import annotations

import pytest

from composer_app.server.providers.question_parts import INHERITED_WEIGHT, read_question


def _weight(_word: str) -> float:
    return 1.0


def test_two_part_questions_are_read_as_two_parts_and_a_bare_second_part_keeps_the_subject():
    parts = read_question("How big is the referral bonus, and when is it paid?", _weight)
    assert len(parts) == 2
    assert {t.word for t in parts[1].terms} >= {"paid", "referral", "bonus"}
    assert len(read_question("How often is the secondary backed up?", _weight)) == 1
    breakfast = read_question("What time is breakfast on a Saturday, and by when do I have to "
                              "order a packed lunch?", _weight)
    assert [p.text for p in breakfast] == ["What time is breakfast on a Saturday",
                                           "by when do I have to order a packed lunch"]
    assert read_question("what is it?", _weight) == []


@pytest.mark.parametrize(("question", "parts"), [
    ("How big can my garden shed on the allotment be, and am I allowed to sleep in it at "
     "weekends?", ["How big can my garden shed on the allotment be",
                   "am I allowed to sleep in it at weekends"]),
    ("When does the course start, and could we pay by card?",
     ["When does the course start", "could we pay by card"]),
    ("What documents do I need and have to bring?", ["What documents do I need and have to bring"]),
    ("Which rooms are free and may be booked?", ["Which rooms are free and may be booked"]),
])
def test_a_second_part_may_open_with_any_auxiliary_and_its_subject(question: str,
                                                                  parts: list[str]) -> None:
    assert [p.text for p in read_question(question, lambda _: 1.0)] == parts


def test_a_second_part_with_words_of_its_own_is_still_about_the_first_parts_subject():
    first, second = read_question("When does the monthly maintenance take place, and how much "
                                  "warning do we get beforehand?", _weight)
    inherited = {t.word: t.weight for t in second.terms}
    assert inherited["warning"] == 1.0 and inherited["maintenance"] == INHERITED_WEIGHT
    assert second.text == "how much warning do we get beforehand"  # as the answer quotes it
    assert "maintenance" in second.meaning and "maintenance" not in second.text
    assert first.meaning == first.text


def test_the_sentence_model_reads_a_phrasal_verb_as_the_single_verb_documents_use():
    """*call off* is *cancel*: read as written, the model finds *We will call you …* close."""
    (part,) = read_question("How late can I call off my dog's check-up at the vet?", _weight)
    assert part.text == "How late can I call off my dog's check-up at the vet"  # as quoted
    assert part.meaning == "How late can I cancel my dog's check-up at the vet"


def test_the_focus_leaves_out_words_that_name_the_kind_of_value():
    [part] = read_question("What is the mileage rate for a private car?", _weight)
    assert part.focus == {"mileag"}  # an answer states the rate, it does not name it
    [kind] = read_question("What night temperature does the controller keep?", _weight)
    assert kind.focus == {"night", "temperatur"}
    assert read_question("How long is the warranty?", _weight)[0].focus == frozenset()


def test_the_focus_is_the_thing_asked_for_not_a_clause_or_a_modifier_after_it():
    [part] = read_question("What's the one-off fee I'll be charged when I sign up?", _weight)
    assert part.wants == "amount" and part.focus == frozenset()  # "fee" names the kind
    [late] = read_question("What is the late-payment fee we pay?", _weight)
    assert late.focus == {"lat", "pay"}
