"""What the offline assistant answers from its ranked sentences: the clear lead, the reader's
doubt."""

from __future__ import annotations

from dataclasses import replace

from composer_app.server.providers.answer_choice import (
    LEAD_FLOOR,
    LEAD_RATIO,
    NEXT_READ,
    USED_THRESHOLD,
    _clear_lead,
    _undoubted,
)
from composer_app.server.providers.answer_ranking import Scored
from tests.server.providers.support import ranked_sentences

TERMS = """Every member receives a personal key card. A lost key card is replaced for 25 euros.
A day pass costs 25 euros. The space is closed on public holidays."""


PART, _, RANKED = ranked_sentences("What does it cost to replace a lost access badge?",
                                   "terms.md", TERMS)


def _ranked(first: float, *others: float) -> list[Scored]:
    ranked = sorted(RANKED, key=lambda s: "lost key card" not in s.sentence.text)
    coverages = [first, *others]
    return [replace(s, coverage=c) for s, c in zip(ranked, coverages, strict=False)]


def test_a_first_sentence_far_ahead_of_the_rest_reaches_the_threshold() -> None:
    ranked = _ranked(0.5, 0.2, 0.1)
    led = _clear_lead(PART, ranked)
    assert led[0].coverage == USED_THRESHOLD
    assert led[0].sentence == ranked[0].sentence and led[1:] == ranked[1:]


def test_a_close_second_sentence_leaves_the_first_below_the_threshold() -> None:
    ranked = _ranked(0.5, LEAD_RATIO * 0.5 + 0.01, 0.1)
    assert _clear_lead(PART, ranked) == ranked


def test_a_weak_first_sentence_stays_below_the_threshold_however_far_ahead() -> None:
    ranked = _ranked(LEAD_FLOOR - 0.01, 0.0, 0.0)
    assert _clear_lead(PART, ranked) == ranked


def test_a_first_sentence_from_a_document_without_the_questions_names_never_leads() -> None:
    ranked = _ranked(0.5, 0.1)
    ranked[0] = replace(ranked[0], sentence=replace(ranked[0].sentence, elsewhere=True))
    assert _clear_lead(PART, ranked) == ranked


def test_a_sentence_that_names_only_the_topic_never_leads() -> None:
    part, _, ranked = ranked_sentences("Can I rent a canoe at the allotment garden?",
                                       "allotment-garden.md",
                                       "Garden waste is composted on the plot. Trees are fine.")
    ranked = [replace(ranked[0], coverage=0.55), replace(ranked[1], coverage=0.05)]
    assert _clear_lead(part, ranked) == ranked


def test_the_same_sentence_in_another_passage_is_no_rival() -> None:
    ranked = _ranked(0.5, 0.5, 0.1)
    ranked[1] = replace(ranked[1], sentence=ranked[0].sentence)
    assert _clear_lead(PART, ranked)[0].coverage == USED_THRESHOLD


def _doubting(question: str, sentences: list[str]) -> list[float]:
    return [-10.0 for _ in sentences]


def _trusting(question: str, sentences: list[str]) -> list[float]:
    return [5.0 for _ in sentences]


WHETHER, _, WHETHER_RANKED = ranked_sentences("Do you replace a lost access badge for free?",
                                              "terms.md", TERMS)


def _raised(coverage: float) -> list[Scored]:
    return [replace(s, coverage=coverage if i == 0 else 0.2)
            for i, s in enumerate(WHETHER_RANKED)]


def test_a_sentence_only_the_meaning_raised_is_no_answer_when_the_reader_doubts_it() -> None:
    ranked = _raised(USED_THRESHOLD + 0.1)
    text = ranked[0].sentence.text
    kept = _undoubted(WHETHER, ranked, _doubting, {text: 0.3}, {text: USED_THRESHOLD + 0.1})
    assert kept[0].coverage == 0.3 and kept[0].sentence == ranked[0].sentence
    assert kept[1:] == ranked[1:]
    meaning = {text: USED_THRESHOLD + 0.1}
    assert _undoubted(WHETHER, ranked, _trusting, {text: 0.3}, meaning) == ranked
    assert _undoubted(WHETHER, ranked, None, {text: 0.3}, meaning) == ranked


def test_the_next_sentence_reaching_the_threshold_answers_when_the_first_is_doubted() -> None:
    """The reader doubts the first sentence, which only the meaning raised; the next one that
    reaches the threshold and is not doubted answers, instead of *not found*."""
    ranked = _raised(USED_THRESHOLD + 0.1)
    ranked[2] = replace(ranked[2], coverage=USED_THRESHOLD + 0.05)
    first, second = ranked[0].sentence.text, ranked[2].sentence.text

    def doubting_the_first(question: str, sentences: list[str]) -> list[float]:
        return [-10.0 if first in text else 5.0 for text in sentences]

    meaning = {first: USED_THRESHOLD + 0.1, second: USED_THRESHOLD + 0.05}
    kept = _undoubted(WHETHER, ranked, doubting_the_first, {first: 0.3, second: 0.3}, meaning)
    assert kept[0].sentence.text == second and kept[0].coverage == USED_THRESHOLD + 0.05
    assert kept[1].sentence.text == first and kept[1].coverage == 0.3
    assert sorted(s.sentence.text for s in kept) == sorted(s.sentence.text for s in ranked)
    doubted_too = _undoubted(WHETHER, ranked, _doubting, {first: 0.3, second: 0.3}, meaning)
    assert doubted_too[0].sentence.text == first and doubted_too[0].coverage == 0.3
    beyond = [ranked[0], *[replace(s, coverage=0.2) for s in ranked[1:NEXT_READ + 1]],
              replace(ranked[2], coverage=USED_THRESHOLD + 0.05)]
    far = _undoubted(WHETHER, beyond, doubting_the_first, {first: 0.3}, meaning)
    assert far[0].sentence.text == first and far[0].coverage == 0.3


def test_a_sentence_its_words_answer_is_never_doubted() -> None:
    ranked = _raised(USED_THRESHOLD + 0.1)
    text = ranked[0].sentence.text
    by_words = {text: USED_THRESHOLD + 0.1}
    assert _undoubted(WHETHER, ranked, _doubting, by_words, by_words) == ranked
    raised_by_a_rule = {text: USED_THRESHOLD - 0.1}  # a situation rule, not the meaning, raised it
    assert _undoubted(WHETHER, ranked, _doubting, raised_by_a_rule, raised_by_a_rule) == ranked


def test_a_question_for_a_value_is_doubted_and_a_question_who_is_not() -> None:
    ranked = _ranked(USED_THRESHOLD + 0.1, 0.2)  # "What does it cost to replace …?"
    text = ranked[0].sentence.text
    meaning = {text: USED_THRESHOLD + 0.1}
    assert PART.wants == "amount"
    assert _undoubted(PART, ranked, _doubting, {text: 0.3}, meaning)[0].coverage == 0.3
    who, _, who_ranked = ranked_sentences("Who do I ask when I have lost my access badge?",
                                          "terms.md", TERMS)
    assert who.wants == "name"
    first = replace(who_ranked[0], coverage=USED_THRESHOLD + 0.1)
    meaning = {first.sentence.text: USED_THRESHOLD + 0.1}
    assert _undoubted(who, [first], _doubting, {first.sentence.text: 0.3}, meaning) == [first]


TIMETABLE = """Off-peak tickets are valid on weekdays on trains departing after 09:30.
On weekday evenings, off-peak tickets are not valid on trains departing Ormsby Junction between
16:30 and 18:30. Anytime tickets are valid on any train at any time."""
EVENING, _, EVENING_RANKED = ranked_sentences(
    "I have a cheap off-peak return and head home from Ormsby Junction at quarter past five on "
    "a Thursday. Will my ticket be OK on that train?", "fares.md", TIMETABLE)


def test_a_sentence_whose_conditions_hold_for_the_situation_is_not_doubted() -> None:
    first = next(s for s in EVENING_RANKED if "16:30" in s.sentence.text)
    ranked = [replace(first, coverage=USED_THRESHOLD + 0.1),
              *(replace(s, coverage=0.2) for s in EVENING_RANKED if s is not first)]
    text = first.sentence.text
    meaning = {text: USED_THRESHOLD + 0.1}
    assert _undoubted(EVENING, ranked, _doubting, {text: 0.3}, meaning) == ranked


COTTAGES = """A deposit of 25% of the rental is payable when you book. If you book within 8 weeks of
arrival, the full rental must be paid at the time of booking."""
BACK_TO_BACK, _, BACK_TO_BACK_RANKED = ranked_sentences(
    "Do Wrenfield cottages give a discount if we book two weeks back to back?", "terms.txt",
    COTTAGES)


def test_a_duration_that_meets_a_condition_by_chance_is_still_doubted() -> None:
    first = next(s for s in BACK_TO_BACK_RANKED if "8 weeks" in s.sentence.text)
    ranked = [replace(first, coverage=USED_THRESHOLD + 0.1)]
    text = first.sentence.text
    kept = _undoubted(BACK_TO_BACK, ranked, _doubting, {text: 0.3},
                      {text: USED_THRESHOLD + 0.1})
    assert kept[0].coverage == 0.3


CIRCLE = """You must be 18 or over, and live at an address we deliver to, in order to join.
Membership is free."""
SEVENTEEN, _, SEVENTEEN_RANKED = ranked_sentences(
    "My daughter is 17 and wants to sign up for the Circle herself. Is she allowed?",
    "circle.md", CIRCLE)


def test_a_sentence_whose_age_condition_fails_for_the_situation_is_not_doubted() -> None:
    first = next(s for s in SEVENTEEN_RANKED if "18 or over" in s.sentence.text)
    ranked = [replace(first, coverage=USED_THRESHOLD + 0.1)]
    text = first.sentence.text
    meaning = {text: USED_THRESHOLD + 0.1}
    assert _undoubted(SEVENTEEN, ranked, _doubting, {text: 0.02}, meaning) == ranked
