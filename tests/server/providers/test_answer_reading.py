"""A second reading of a part's closest sentences by a reader of question and sentence together."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from composer_app.server.providers.answer_ranking import Scored
from composer_app.server.providers.answer_reading import (
    DOUBT_LOGIT,
    PROBABLE_FLOOR,
    PROBABLE_LOGIT,
    READ_CANDIDATES,
    READ_GAP,
    SURE_FLOOR,
    SURE_LOGIT,
    SURE_MARGIN,
    as_read,
    doubted,
    reread,
)
from tests.server.providers.support import ranked_sentences

REVIEW = """# Code review guidelines

## Approvals

The author merges their own pull request after approval, using squash merge. Contractors can \
review code, but a contractor's approval does not count towards the required number. Merging \
to main is blocked while CI is failing. Reviews of urgent changes come first.
"""
QUESTION = "We have a contractor on our team. Does their approval count when I want to merge?"


class Reader:
    """Scores sentences by the words it is told to like, and records what it was given."""

    def __init__(self, liked: str, value: float = 40.0) -> None:
        self.liked, self.value = liked, value
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, question: str, sentences: Sequence[str]) -> list[float] | None:
        self.calls.append((question, list(sentences)))
        return [self.value if self.liked in s else 0.0 for s in sentences]


def _close(ranked: list[Scored]) -> list[Scored]:
    """``ranked`` with every score within a hair of the first (nothing clearly leads)."""
    return [replace(s, score=ranked[0].score - 0.01 * i) for i, s in enumerate(ranked)]


def test_the_closest_sentences_are_read_again_and_the_readers_choice_comes_first() -> None:
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    ranked = _close(ranked)
    second = ranked[1].sentence.text
    reader = Reader(second)
    read = reread(part, ranked, reader, 0.6)
    assert read[0].sentence.text == second and read[1] == ranked[0]
    assert sorted(s.sentence.text for s in read) == sorted(s.sentence.text for s in ranked)
    ((asked, given),) = reader.calls
    assert asked == part.text and len(given) == min(READ_CANDIDATES, len(ranked))
    assert all(g.startswith("review.md - Approvals: ") for g in given)


def test_a_first_sentence_that_clearly_leads_is_not_read_again() -> None:
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    ranked = [replace(s, score=1.0 if i == 0 else 1.0 - READ_GAP - 0.01 * i)
              for i, s in enumerate(_close(ranked))]
    reader = Reader("does not count")
    assert reread(part, ranked, reader, 0.6) == ranked
    assert reader.calls == []


def test_without_a_reader_or_its_scores_the_ranking_stays() -> None:
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    ranked = _close(ranked)
    assert reread(part, ranked, None, 0.6) == ranked
    assert reread(part, ranked, lambda q, s: None, 0.6) == ranked


def test_a_sentence_moved_first_in_an_answered_part_reaches_the_threshold() -> None:
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    ranked = _close(ranked)
    ranked = [replace(s, coverage=0.7 if i == 0 else 0.3) for i, s in enumerate(ranked)]
    second = ranked[1].sentence.text
    read = reread(part, ranked, Reader(second), 0.6)
    assert read[0].coverage == 0.6 and read[0].sentence.text == second
    far = SURE_FLOOR - 0.1  # too far below the threshold for even a sure reading
    unanswered = [replace(s, coverage=0.5 if i == 0 else far) for i, s in enumerate(ranked)]
    assert reread(part, unanswered, Reader(second), 0.6)[0].coverage == far


def test_a_small_reader_score_does_not_overturn_a_lead_in_score() -> None:
    """Read again (the lead is below ``READ_GAP``), the second sentence needs more than the
    reader's small preference to overtake the first."""
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    ranked = [replace(s, score=1.0 - 0.1 * i) for i, s in enumerate(ranked)]
    assert reread(part, ranked, Reader(ranked[1].sentence.text, value=1.0), 0.6)[0] == ranked[0]


def _leading(ranked: list[Scored], coverage: float) -> list[Scored]:
    """``ranked`` with its first sentence clearly leading in score at ``coverage``, the others
    far below."""
    return [replace(s, score=1.0 - (READ_GAP + 0.1) * min(i, 1) - 0.01 * i,
                    coverage=coverage if i == 0 else 0.2) for i, s in enumerate(ranked)]


def test_a_first_sentence_near_the_threshold_that_the_reader_is_sure_of_answers() -> None:
    """*Can I still get it out of the bin?* comes near *On Business and Enterprise, items stay in
    the bin for 90 days* by words and meaning; the reader, sure of it, lets it answer."""
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    ranked = _leading(ranked, SURE_FLOOR + 0.05)
    first = ranked[0].sentence.text
    read = reread(part, ranked, Reader(first, SURE_LOGIT), 0.6)
    assert read[0].sentence.text == first and read[0].coverage == 0.6
    assert [s.coverage for s in read[1:]] == [s.coverage for s in ranked[1:]]


def test_a_reader_that_is_not_sure_leaves_a_near_sentence_unanswered() -> None:
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    ranked = _leading(ranked, (SURE_FLOOR + PROBABLE_FLOOR) / 2)  # too far for a probable one
    first = ranked[0].sentence.text
    assert reread(part, ranked, Reader(first, SURE_LOGIT - 0.1), 0.6) == ranked  # too low

    def close_second(question: str, sentences: Sequence[str]) -> list[float]:
        top = SURE_LOGIT + 1.0
        return [top if i == 0 else top - SURE_MARGIN + 0.1 for i in range(len(sentences))]

    assert reread(part, ranked, close_second, 0.6) == ranked  # another comes too close
    elsewhere = [replace(ranked[0], sentence=replace(ranked[0].sentence, elsewhere=True)),
                 *ranked[1:]]
    assert reread(part, elsewhere, Reader(first), 0.6) == elsewhere  # lacks the question's names


def test_a_first_sentence_closer_to_the_threshold_answers_when_the_reader_finds_it_probable(
        ) -> None:
    """From ``PROBABLE_FLOOR``, a reading from ``PROBABLE_LOGIT`` is enough, with no margin over
    the other sentences; below that score, or below that coverage, it is not."""
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    ranked = _leading(ranked, PROBABLE_FLOOR)
    first = ranked[0].sentence.text

    def probable(question: str, sentences: Sequence[str]) -> list[float]:
        return [PROBABLE_LOGIT if s == sentences[0] else PROBABLE_LOGIT + 1.0 for s in sentences]

    read = reread(part, ranked, probable, 0.6)
    assert read[0].sentence.text == first and read[0].coverage == 0.6
    assert reread(part, ranked, Reader(first, PROBABLE_LOGIT - 0.1), 0.6) == ranked
    assert reread(part, _leading(ranked, PROBABLE_FLOOR - 0.01), probable, 0.6) == \
        _leading(ranked, PROBABLE_FLOOR - 0.01)


def test_a_sentence_far_below_the_threshold_or_at_it_is_not_read_when_it_leads() -> None:
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    for coverage in (SURE_FLOOR - 0.05, 0.6):
        reader = Reader(ranked[0].sentence.text)
        leading = _leading(ranked, coverage)
        assert reread(part, leading, reader, 0.6) == leading
        assert reader.calls == []


def test_the_reader_doubts_a_sentence_it_scores_below_the_doubt_logit() -> None:
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    assert doubted(part, ranked[0], Reader("nothing it likes", DOUBT_LOGIT + 10.0)) is False
    assert doubted(part, ranked[0], lambda q, ss: [DOUBT_LOGIT - 0.1 for _ in ss])
    assert not doubted(part, ranked[0], lambda q, ss: [DOUBT_LOGIT + 0.1 for _ in ss])


def test_without_a_reader_or_with_a_failing_one_nothing_is_doubted() -> None:
    part, _, ranked = ranked_sentences(QUESTION, "review.md", REVIEW)
    assert not doubted(part, ranked[0], None)
    assert not doubted(part, ranked[0], lambda q, ss: None)
    assert not doubted(part, ranked[0], lambda q, ss: [])


def test_the_reader_is_given_a_sentence_as_its_line_states_it() -> None:
    text = ("# Car hire\n\n## Fuel\n\nElectric cars come with 85% charge. Return them with 60% "
            "charge, or pay a £20 charging fee.\n\nSaturday: we open at 08:00. The desk closes "
            "at 13:00.\n")
    part, _, ranked = ranked_sentences("What if I bring an electric car back flat?", "hire.md",
                                       text)
    read = {s.sentence.text: as_read(part, s) for s in ranked}
    assert read["Return them with 60% charge, or pay a £20 charging fee."] == (
        "hire.md - Fuel: Electric cars come with 85% charge. Return them with 60% charge, or pay "
        "a £20 charging fee.")
    assert read["The desk closes at 13:00."] == (
        "hire.md - Fuel: Saturday: The desk closes at 13:00.")
    assert read["Saturday: we open at 08:00."] == "hire.md - Fuel: Saturday: we open at 08:00."
