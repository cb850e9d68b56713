"""A cross-encoder in NumPy: reads a question and a candidate sentence together and scores how
well the sentence answers it.

The sentence model (``sentence_encoder``) embeds a question and a sentence apart, so it cannot see
which words of one meet which of the other (*A friend of mine isn't in the club. What does she
have to pay?*: the guest fee, not the court rent of non-members). This model is the same BERT
(all-MiniLM-L6-v2's layers and vocabulary) fine-tuned on pairs
``[CLS] question [SEP] title - section: sentence [SEP]`` (segment 0 for the question, 1 for the
sentence) from the assistant's own question sets, to rank the sentence that answers
above its near misses (``scripts/train_reranker.py``); a linear head over the mean of the last
layer's states gives the score (a logit: higher is a better answer, only differences between
sentences of one question mean anything).

``reranker/reranker.safetensors`` holds every fine-tuned weight except the word embeddings,
which are the sentence model's own (the fine-tuning barely moved them): each layer's matrices as
int8 with one float16 scale per output row (``<name>.int8``, ``<name>.scale``), everything else
as float16; loading widens them to float32.

Invariants: ``scores`` returns one float per sentence, in their order, and a sentence's score
does not depend on the other sentences of the call; the question is cut to ``QUESTION_TOKENS``
and each sentence to ``SENTENCE_TOKENS`` tokens; a missing or malformed file raises ``OSError``
or ``ValueError`` from ``from_files`` (the caller then ranks without it); nothing here imports a
deep-learning framework.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy
import numpy.typing as npt

from composer_app.server.providers.sentence_encoder import SentenceEncoder, mean_pooled
from composer_app.server.providers.tensor_file import TensorFileError, read_tensors
from composer_app.server.providers.wordpiece import WordPieceTokenizer

WEIGHTS = Path(__file__).resolve().parent / "reranker" / "reranker.safetensors"
QUESTION_TOKENS = 48
SENTENCE_TOKENS = 64
_WORDS = "embeddings.word_embeddings.weight"


class CrossEncoder:
    """Scores of (question, sentence) pairs (see the module invariant)."""

    def __init__(self, encoder: SentenceEncoder, head: npt.NDArray[numpy.float32],
                 bias: float) -> None:
        if head.shape != (encoder.hidden,):
            raise ValueError("the head does not match the hidden size")
        self.encoder = encoder
        self.head = head
        self.bias = bias

    @classmethod
    def from_files(cls, model_folder: Path, weights: Path = WEIGHTS) -> CrossEncoder:
        """The cross-encoder of the sentence model's folder (its vocabulary, configuration and
        word embeddings) and the fine-tuned ``weights``."""
        try:
            config = json.loads((model_folder / "config.json").read_text(encoding="utf-8"))
            base = read_tensors(model_folder / "model.safetensors")
            tuned = read_tensors(weights)
        except (json.JSONDecodeError, TensorFileError) as exc:
            raise ValueError(str(exc)) from exc
        if not isinstance(config, dict) or _WORDS not in base:
            raise ValueError("the sentence model's folder is not a BERT model")
        tensors: dict[str, npt.NDArray[Any]] = {_WORDS: base[_WORDS]}
        for name, array in tuned.items():
            if name.endswith(".scale"):
                continue
            if name.endswith(".int8"):
                matrix = name.removesuffix(".int8")
                scale = tuned.get(matrix + ".scale")
                if scale is None or scale.shape != (array.shape[0],):
                    raise ValueError(f"{matrix} has no scale per row")
                tensors[matrix] = (array.astype(numpy.float32)
                                   * scale.astype(numpy.float32)[:, None])
            else:
                tensors[name] = array.astype(numpy.float32)
        head, bias = tensors.pop("head.weight", None), tensors.pop("head.bias", None)
        if head is None or bias is None or head.shape[0] != 1 or bias.shape != (1,):
            raise ValueError("the weights lack the scoring head")
        tokenizer = WordPieceTokenizer.from_file(model_folder / "vocab.txt")
        encoder = SentenceEncoder(tokenizer, tensors, config)
        return cls(encoder, numpy.ascontiguousarray(head[0]), float(bias[0]))

    def scores(self, question: str, sentences: Sequence[str]) -> list[float]:
        """How well each of ``sentences`` answers ``question`` (one logit each)."""
        if not sentences:
            return []
        tokenizer = self.encoder.tokenizer
        asked = tokenizer.encode(question, QUESTION_TOKENS)
        pairs = [asked + tokenizer.encode(text, SENTENCE_TOKENS)[1:] for text in sentences]
        segments = [[0] * len(asked) + [1] * (len(pair) - len(asked)) for pair in pairs]
        pooled = mean_pooled(*self.encoder.states(pairs, segments))
        return [float(v) for v in pooled @ self.head + self.bias]
