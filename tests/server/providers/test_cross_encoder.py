"""The cross-encoder: the shipped weights load over the sentence model's folder and read a
question with each sentence together."""

from __future__ import annotations

from pathlib import Path

import pytest

from composer_app.server.providers.cross_encoder import WEIGHTS, CrossEncoder
from composer_app.server.providers.sentence_embeddings import bundled_model_folder


@pytest.fixture(scope="module")
def reader() -> CrossEncoder:
    folder = bundled_model_folder()
    assert folder is not None
    return CrossEncoder.from_files(folder)


def test_the_weights_are_shipped_with_the_package() -> None:
    assert WEIGHTS.is_file()
    assert 5_000_000 < WEIGHTS.stat().st_size < 20_000_000  # int8 layers, no word embeddings


def test_the_sentence_that_answers_scores_above_its_near_miss(reader: CrossEncoder) -> None:
    """The words of both sentences meet the question's; only reading them together tells
    whose approval is asked about."""
    scores = reader.scores(
        "We have a contractor on our team. Does their approval count when I want to merge?",
        ["Code review guidelines - Approvals: The author merges their own pull request after "
         "approval, using squash merge.",
         "Code review guidelines - Approvals: Contractors can review code, but a contractor's "
         "approval does not count towards the required number."])
    assert scores[1] > scores[0]


def test_a_sentences_score_does_not_depend_on_the_others(reader: CrossEncoder) -> None:
    question = "How much is the deposit for a locker?"
    short = "Lockers: The deposit is 10 euros."
    long = ("Lockers: Lockers are available at the entrance for day guests and members, and the "
            "key has to be returned at the desk before the building closes in the evening.")
    alone = reader.scores(question, [short])
    together = reader.scores(question, [long, short])
    assert together[1] == pytest.approx(alone[0], abs=1e-4)
    assert reader.scores(question, []) == []


def test_weights_without_the_head_are_refused(tmp_path: Path) -> None:
    folder = bundled_model_folder()
    assert folder is not None
    broken = tmp_path / "reranker.safetensors"
    broken.write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{}      ")
    with pytest.raises(ValueError):
        CrossEncoder.from_files(folder, broken)
    with pytest.raises((OSError, ValueError)):
        CrossEncoder.from_files(folder, tmp_path / "missing.safetensors")
