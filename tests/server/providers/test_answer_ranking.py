"""Reading a question and scoring sentences against it."""

from __future__ import annotations

from composer_app.server.providers.answer_ranking import (
    context_quote,
    passage_sentences,
    read_question,
    same_subject,
    score,
)


def _weight(_word: str) -> float:
    return 1.0


def test_two_part_questions_are_read_as_two_parts_and_a_bare_second_part_keeps_the_subject():
    parts = read_question("How big is the referral bonus, and when is it paid?", _weight)
    assert len(parts) == 2
    assert {t.word for t in parts[1].terms} >= {"paid", "referral", "bonus"}
    assert len(read_question("How often is the secondary backed up?", _weight)) == 1
    assert read_question("what is it?", _weight) == []


def test_the_sentence_with_the_questions_subject_wins():
    [part] = read_question("When do new employees finish the training?", _weight)
    marked = ("## Training\nAll employees must complete the training once a year. New "
              "employees must complete it within their first week.")
    first, second = passage_sentences("kb:1", 0, 0, "handbook.md", marked)
    assert score(second, part).score > score(first, part).score


def test_a_missing_number_halves_the_coverage():
    [part] = read_question("What is the response time for priority 1 incidents?", _weight)
    one, two = passage_sentences("kb:1", 0, 0, "support.md", (
        "Priority 1 incidents get a response within 30 minutes. Priority 2 incidents get a "
        "response within four hours."))
    assert score(two, part).coverage <= score(one, part).coverage / 2 + 1e-9


def test_quotes_are_whole_sentences_of_the_paragraph():
    marked = "First sentence here. The answer is 42. Last one."
    answer = passage_sentences("kb:1", 0, 0, "a.md", marked)[1]
    assert context_quote(answer, marked) == marked
    assert context_quote(answer, marked, max_chars=20) == "The answer is 42."
    assert same_subject("The meal allowance is 40 euros.", "The meal allowance is 55 euros.")
    assert not same_subject("The meal allowance is 40 euros.", "Hotels cost 150 euros.")
