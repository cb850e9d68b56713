"""Judging by meaning the sentences words alone do not confirm, with the real sentence model."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from composer_app.server.providers.answer_meaning import (
    MAX_CANDIDATES,
    MAX_SHORTENED,
    MEANING_CEILING,
    _asks_in_addition,
    rejudge,
    without_term,
)
from composer_app.server.providers.answer_ranking import (
    Scored,
    idf,
    passage_sentences,
    score,
)
from composer_app.server.providers.question_parts import Part, read_question
from composer_app.server.providers.sentence_embeddings import SentenceEmbeddings

HOTEL = ("# Harbour View Hotel\n## Arrival and departure\n"
         "Rooms are ready from 15:00 on the day of arrival.\n"
         "Rooms must be vacated by 11:00 on the day of departure.\n"
         "## Meals\nBreakfast is served in the garden restaurant from 7:00 to 10:30.\n")
HANDBOOK = ("# Employee handbook\n"
            "All employees receive 25 days of paid vacation per calendar year.\n"
            "New employees accrue vacation at two days per month.\n")


@pytest.fixture(scope="module")
def model() -> SentenceEmbeddings:
    return SentenceEmbeddings()


def _ranked(question: str, text: str) -> tuple[Part, list[Scored]]:
    part = read_question(question, lambda word: idf(40, 0 if word in ("leave", "stay",
                                                                      "contractors") else 3))[0]
    units = passage_sentences("doc", 0, 0, "guide.md", text)
    return part, sorted((score(u, part) for u in units), key=lambda s: -s.score)


def test_a_paraphrase_is_raised_over_the_threshold_but_never_to_strong(
        model: SentenceEmbeddings) -> None:
    part, ranked = _ranked("By what time must guests leave their room on the last day of their "
                           "stay?", HOTEL)
    assert ranked[0].coverage < 0.6
    judged = rejudge(part, ranked, model.similarities, 0.6)
    assert judged[0].sentence.text.startswith("Rooms must be vacated")
    assert 0.6 <= judged[0].coverage <= MEANING_CEILING
    assert sorted(s.sentence.text for s in judged) == sorted(s.sentence.text for s in ranked)


def test_a_sentence_about_someone_else_is_not_raised(model: SentenceEmbeddings) -> None:
    part, ranked = _ranked("How many days of vacation do contractors get?", HANDBOOK)
    judged = rejudge(part, ranked, model.similarities, 0.6)
    assert all(s.coverage < 0.6 for s in judged)


def test_an_answer_the_words_give_is_left_alone(model: SentenceEmbeddings) -> None:
    part, ranked = _ranked("When must rooms be vacated on the day of departure?", HOTEL)
    assert ranked[0].coverage >= 0.6
    assert rejudge(part, ranked, model.similarities, 0.6) == ranked


def test_without_a_model_the_ranking_is_unchanged() -> None:
    part, ranked = _ranked("By what time must guests leave their room?", HOTEL)
    assert rejudge(part, ranked, None, 0.6) == ranked
    assert rejudge(part, ranked, lambda queries, texts: None, 0.6) == ranked
    assert rejudge(part, [], None, 0.6) == []


def test_the_model_sees_a_bounded_number_of_texts(model: SentenceEmbeddings) -> None:
    text = "# Notes\n" + "".join(f"Room rule number {n} applies on floor {n}.\n"
                                 for n in range(20))
    part, ranked = _ranked("By what time must guests leave their room on the last day?", text)
    seen: list[tuple[int, int]] = []

    def recorded(queries: Sequence[str], texts: Sequence[str]) -> list[list[float]] | None:
        seen.append((len(queries), len(texts)))
        return model.similarities(queries, texts)

    judged = rejudge(part, ranked, recorded, 0.6)
    # at most two calls per part: the candidates bare, then some under their title and heading
    assert 1 <= len(seen) <= 2
    assert all(q <= 1 + MAX_SHORTENED and t <= MAX_CANDIDATES for q, t in seen)
    assert len(judged) == len(ranked)


@pytest.mark.parametrize(("text", "word", "stem", "expected"), [
    ("How many days do contractors get", "contractors", "contractor", "How many days do get"),
    ("When are Rooms ready", "room", "room", "When are ready"),
    ("Can I bring my cat?", "dog", "dog", None),
])
def test_a_term_is_left_out_of_the_question(text: str, word: str, stem: str,
                                            expected: str | None) -> None:
    part = read_question(text, lambda _: 1.0)[0]
    term = next((t for t in part.terms if t.word == word), None)
    if term is None:
        term = part.terms[0].__class__(word, stem, 1.0, False)
    assert without_term(text, term) == expected


DENTAL = ("# Patient information\n## Appointments\n"
          "Appointments are made by phone or through the online booking page.\n"
          "Patients should arrive ten minutes early to fill in the medical history form on "
          "their first visit.\n")


def test_a_term_the_documents_title_carries_does_not_set_its_sentence_aside(
        model: SentenceEmbeddings) -> None:
    question = "How early should new patients come before their appointment at the dentist?"
    part = read_question(question, lambda word: idf(40, 0 if word == "dentist" else 3))[0]
    for title, raised in (("dental-practice.md", True), ("guide.md", False)):
        units = passage_sentences("doc", 0, 0, title, DENTAL)
        ranked = sorted((score(u, part) for u in units), key=lambda s: -s.score)
        assert ranked[0].coverage < 0.6
        judged = rejudge(part, ranked, model.similarities, 0.6)
        assert (judged[0].coverage >= 0.6) is raised, title
        if raised:
            assert judged[0].sentence.text.startswith("Patients should arrive")


POOL = ("# City pool\n## Prices\n"
        "Adults pay 6 euros for a single swim.\n"
        "Children under six swim free of charge.\n")


def test_a_sentence_about_another_group_is_not_raised_by_its_meaning(
        model: SentenceEmbeddings) -> None:
    part = read_question("How much does a pensioner pay to go swimming?",
                         lambda word: idf(40, 0 if word == "pensioner" else 3))[0]
    units = passage_sentences("doc", 0, 0, "city-pool.md", POOL)
    ranked = sorted((score(u, part) for u in units), key=lambda s: -s.score)
    assert ranked[0].coverage < 0.6
    judged = rejudge(part, ranked, model.similarities, 0.6)
    assert all(s.coverage < 0.6 for s in judged)


HOSTING = ("# Managed hosting\n## Maintenance\n"
           "Planned maintenance takes place on the first Tuesday of each month between 22:00 "
           "and 24:00.\n"
           "We announce planned maintenance by e-mail seven days in advance.\n"
           "## Support\nPlease arrive 15 minutes before your appointment starts.\n")


def test_a_second_part_is_judged_with_the_first_parts_subject(model: SentenceEmbeddings) -> None:
    parts = read_question("When does the monthly maintenance take place, and how much warning "
                          "do we get beforehand?", lambda word: idf(40, 3))
    second = parts[1]
    units = passage_sentences("doc", 0, 0, "hosting.md", HOSTING)
    ranked = sorted((score(u, second) for u in units), key=lambda s: -s.score)
    judged = rejudge(second, ranked, model.similarities, 0.6)
    assert judged[0].sentence.text.startswith("We announce planned maintenance")
    assert judged[0].coverage >= 0.6  # compared without "maintenance", it stays far below


GARDEN = ("# Community garden\n## Quiet times\n"
          "Power tools such as lawn mowers and hedge trimmers may be used Monday to Saturday "
          "from 9:00 to 12:00 and from 15:00 to 19:00. On Sundays and public holidays, power "
          "tools must not be used at all.\n")


def test_a_rule_whose_condition_holds_keeps_its_word_coverage_over_a_lower_meaning(
        model: SentenceEmbeddings) -> None:
    part, ranked = _ranked("Can I run my lawn mower on my plot on a Sunday afternoon?", GARDEN)
    sunday = next(s for s in ranked if s.sentence.text.startswith("On Sundays"))
    assert sunday.coverage < 0.6  # not answered by words: judged by meaning
    similarities = model.similarities([part.meaning], [sunday.sentence.text])
    assert similarities is not None and similarities[0][0] < 0.5  # the model misses the rule
    judged = rejudge(part, ranked, model.similarities, 0.6)
    kept = next(s for s in judged if s.sentence is sunday.sentence)
    assert kept.coverage == sunday.coverage


@pytest.mark.parametrize(("question", "in_addition"), [
    ("Does Kernberg Driving School also offer motorcycle lessons?", True),
    ("Do you also repair motorbikes?", True),
    ("Does the choir ever go on concert tours abroad?", True),
    ("I love the courses. Does the studio also run birthday parties?", True),
    ("Could we also get the unedited original photos straight from the camera?", False),
    ("Can I also bring my dog?", False),
    ("How much does the course also cost?", False),
    ("Does Saltmarsh Cycle Tours sell gift vouchers for its guided rides?", True),
    ("Do you offer a student discount?", True),
    ("Do I need to offer a deposit?", False),
    ("Does the studio open on Sundays?", False),
])
def test_a_yes_or_no_question_about_something_also_offered(question: str,
                                                            in_addition: bool) -> None:
    part = read_question(question, lambda _: 1.0)[0]
    assert _asks_in_addition(part) is in_addition
