"""How a later part of a question is answered with the help of an earlier one."""

from __future__ import annotations

from dataclasses import replace

from composer_app.server.providers.answer_choice import USED_THRESHOLD
from composer_app.server.providers.answer_ranking import (
    Scored,
    Sentence,
    idf,
    passage_sentences,
    score,
)
from composer_app.server.providers.later_parts import (
    COMPANION_FLOOR,
    KIND_COMPANION_FLOOR,
    companion,
    neighbour,
)
from composer_app.server.providers.question_parts import Part, read_question
from tests.server.providers.support import ranked_sentences

TERMS = """Every member receives a personal key card. A lost key card is replaced for 25 euros.
A day pass costs 25 euros. The space is closed on public holidays."""
PART, UNITS, RANKED = ranked_sentences("What does it cost to replace a lost access badge?",
                                      "terms.md", TERMS)


def _ranked(first: float, *others: float) -> list[Scored]:
    ranked = sorted(RANKED, key=lambda s: "lost key card" not in s.sentence.text)
    coverages = [first, *others]
    return [replace(s, coverage=c) for s, c in zip(ranked, coverages, strict=False)]


def test_a_part_is_answered_below_the_threshold_in_the_document_answering_its_sibling() -> None:
    ranked = _ranked(COMPANION_FLOOR + 0.01, 0.5, 0.4)
    answered = companion(PART, ranked, {ranked[0].sentence.key}, UNITS, set(), USED_THRESHOLD)
    assert answered is not None and answered.coverage == USED_THRESHOLD
    assert answered.sentence == ranked[0].sentence


def test_a_part_is_not_answered_from_a_document_that_answers_no_sibling() -> None:
    ranked = _ranked(COMPANION_FLOOR + 0.01, 0.5)
    assert companion(PART, ranked, set(), UNITS, set(), USED_THRESHOLD) is None
    assert companion(PART, ranked, {"another document"}, UNITS, set(), USED_THRESHOLD) is None


def test_a_weak_sentence_is_no_answer_even_in_the_document_answering_a_sibling() -> None:
    ranked = _ranked(KIND_COMPANION_FLOOR - 0.01, 0.1)
    assert companion(PART, ranked, {ranked[0].sentence.key}, UNITS, set(), USED_THRESHOLD) is None
    named_elsewhere = [replace(ranked[0], coverage=COMPANION_FLOOR + 0.01,
                               sentence=replace(ranked[0].sentence, elsewhere=True))]
    assert companion(PART, named_elsewhere, {ranked[0].sentence.key}, UNITS, set(),
                     USED_THRESHOLD) is None


def _parts_ranked(question: str, text: str) -> list[tuple[Part, list[Scored]]]:
    """Each part of ``question`` with the sentences of ``text`` scored against it, best
    first."""
    parts = read_question(question, lambda _: idf(40, 3))
    units = passage_sentences("doc", 0, 0, "rules.md", text)
    return [(part, sorted((score(u, part) for u in units), key=lambda s: -s.score))
            for part in parts]


COURT = ("Only tennis shoes with clay-court soles may be worn on the courts. After playing, you "
         "must drag the court with the net and sweep the lines. Members may book a court up to "
         "7 days ahead. A guest pays 8 euros per hour and must play with a member.")


def test_a_later_part_takes_the_sentence_next_to_the_earlier_answer() -> None:
    (_, first), (second, ranked) = _parts_ranked(
        "What shoes do I need, and what do I have to do with the court when we're done?", COURT)
    said = next(s for s in first if "clay-court" in s.sentence.text)
    near = neighbour(second, ranked, [said], USED_THRESHOLD)
    assert near is not None and "drag the court" in near.sentence.text
    assert near.coverage >= USED_THRESHOLD
    assert neighbour(second, ranked, [None], USED_THRESHOLD) is None  # no earlier answer


DRIVERS = ("The spouse or partner of the main driver can be added free of charge. Each additional "
           "driver costs 9 euros per day, up to 90 euros per rental.")


def test_a_price_an_earlier_answer_states_takes_no_neighbour() -> None:
    (_, first), (second, ranked) = _parts_ranked(
        "Can I add my wife as a second driver, and is there a daily fee for her?", DRIVERS)
    said = next(s for s in first if "free of charge" in s.sentence.text)
    assert second.wants == "amount"
    assert neighbour(second, ranked, [said], USED_THRESHOLD) is None


def test_a_table_row_never_stands_next_to_another() -> None:
    rows = "Plan: Basic; Price: 10 euros\nPlan: Family; Price: 25 euros"
    (_, first), (second, ranked) = _parts_ranked(
        "Which plan is for one person, and how many people does the other cover?", rows)
    said = next(s for s in first if "Basic" in s.sentence.text)
    assert all(s.sentence.row_entity for s in ranked)
    assert neighbour(second, ranked, [said], USED_THRESHOLD) is None


POOL_RULES = ("Swimming caps are required in the main pool. Goggles may be worn. Lockers take a "
              "1 euro coin. Towels can be rented at reception. The sauna is for adults only. "
              "Children under 8 must be accompanied. The pool closes at 21:00. Showering is "
              "required before swimming.")


def test_a_neighbour_is_looked_for_beyond_the_first_sentences_and_past_a_doubted_one() -> None:
    (_, first), (second, ranked) = _parts_ranked(
        "Do I need a cap, and can I wear my goggles or use a locker?", POOL_RULES)
    said = next(s for s in first if "caps are required" in s.sentence.text)
    goggles = next(s for s in ranked if "Goggles" in s.sentence.text)
    lockers = next(s for s in ranked if "Lockers" in s.sentence.text)
    far = [s for s in ranked if abs(s.sentence.index - said.sentence.index) > 2]
    late = [*far[:6], replace(goggles, coverage=0.4), replace(lockers, coverage=0.4)]

    def doubting_goggles(question: str, sentences: list[str]) -> list[float]:
        return [-10.0 if "Goggles" in s else 1.0 for s in sentences]

    near = neighbour(second, late, [said], USED_THRESHOLD, doubting_goggles)
    assert near is not None and "Lockers" in near.sentence.text
    assert near.coverage == USED_THRESHOLD


TRANSPORT = ("Vale Patient Transport is a charity run by volunteer drivers. Drivers can help you "
             "in and out of the car. Return trips to Westbury Royal Infirmary cost a flat 20 "
             "pounds, wherever you live in the district. Please pay the driver in cash on the day, "
             "as drivers cannot accept card payments.")


def _weakly(question: str, which: int, text: str, words: str
            ) -> tuple[Part, list[Sentence], Scored]:
    """Part ``which`` of ``question``, the sentences of ``text`` and the one holding ``words``
    scored against it, its coverage between the two floors of ``companion``."""
    part = read_question(question, lambda _: idf(40, 3))[which]
    units = passage_sentences("doc", 0, 0, "terms.md", text)
    found = next(u for u in units if words in u.text)
    return part, units, replace(score(found, part),
                                coverage=(KIND_COMPANION_FLOOR + COMPANION_FLOOR) / 2)


def test_a_part_asking_a_value_takes_a_weaker_first_sentence_that_states_it() -> None:
    first, units, weak = _weakly("How much is the volunteer car to the hospital and back, and "
                                 "can I pay the driver by card?", 0, TRANSPORT, "flat 20")
    answered = companion(first, [weak], {weak.sentence.key}, units, set(), USED_THRESHOLD)
    assert first.wants == "amount"
    assert answered is not None and answered.sentence == weak.sentence
    assert answered.coverage == USED_THRESHOLD
    helping = next(u for u in units if "in and out" in u.text)  # no amount: not the answer
    lacking = replace(score(helping, first), coverage=weak.coverage)
    assert companion(first, [lacking], {helping.key}, units, set(), USED_THRESHOLD) is None


def test_a_yes_or_no_part_takes_no_weaker_sentence_for_the_value_it_names() -> None:
    second, units, weak = _weakly("Can I add my wife as a second driver, and is there a daily "
                                  "fee for her?", 1, DRIVERS, "9 euros")
    assert second.wants == "amount"
    assert companion(second, [weak], {weak.sentence.key}, units, set(), USED_THRESHOLD) is None


CELLAR = ("Each flat may keep two adult bikes in the cellar. If your household needs space for a "
          "third bike, you can rent an extra rack space for 6 euros a month. The cellar is "
          "covered by CCTV, so please lock your bike to the rack. A free repair stand with tools "
          "and a pump is located next to the lift.")


def test_a_later_part_is_answered_where_its_own_words_all_stand() -> None:
    units = passage_sentences("doc", 0, 0, "cellar.md", CELLAR)
    (_, first), (second, ranked) = _parts_ranked(
        "How much is an extra rack space for a third bike, and where can I find a pump?", CELLAR)
    said = next(s for s in first if "6 euros" in s.sentence.text)
    assert any(t.inherited for t in second.terms)
    weak = [replace(s, coverage=min(s.coverage, COMPANION_FLOOR - 0.1)) for s in ranked]
    answered = companion(second, weak, {said.sentence.key}, units, {said.sentence.text},
                         USED_THRESHOLD)
    assert answered is not None and "pump" in answered.sentence.text
    assert answered.coverage >= USED_THRESHOLD
    assert companion(second, weak, {"another document"}, units, {said.sentence.text},
                     USED_THRESHOLD) is None
    pumpless = [u for u in units if "pump" not in u.text]
    assert companion(second, weak, {said.sentence.key}, pumpless, {said.sentence.text},
                     USED_THRESHOLD) is None
