"""A BERT sentence encoder in NumPy: the sentence-transformers recipe of all-MiniLM-L6-v2 (token,
position and segment-0 embeddings, LayerNorm, self-attention layers with a GELU feed-forward
network, mean pooling over the real tokens, L2 normalisation).

The model folder holds ``config.json`` (sizes), ``vocab.txt`` (``wordpiece``) and
``model.safetensors`` (``tensor_file``: the weights stay memory-mapped; only the fused
query/key/value matrices are copied, 1.7 MB a layer).

Invariants: ``encode`` returns one row per text, in the texts' order, each of unit length (a
text without tokens still gets the row of ``[CLS] [SEP]``); a text's row does not depend on the
other texts of the call (padding is masked out of attention and pooling); sentences are run in
batches of similar token length (a batch's longest at most ``BATCH_SPREAD`` times its shortest),
at most ``max_tokens`` tokens each (``MAX_TOKENS`` unless given); nothing here imports a
deep-learning framework.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy
import numpy.typing as npt

from composer_app.server.providers.tensor_file import TensorFileError, read_tensors
from composer_app.server.providers.wordpiece import WordPieceTokenizer

Matrix = npt.NDArray[numpy.float32]
MAX_TOKENS = 128
BATCH_TOKENS = 2_048  # padded tokens per forward pass
GELU_ROWS = 32
BATCH_SPREAD = 1.3
MODEL_FILES = ("config.json", "vocab.txt", "model.safetensors")
_ERF_P = 0.3275911
_ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf(x: Matrix) -> Matrix:
    """The error function elementwise (Abramowitz and Stegun 7.1.26, absolute error below
    1.5e-7: well under float32's resolution for GELU), computed in place on one temporary."""
    a = numpy.abs(x)
    t = a * numpy.float32(_ERF_P)
    t += 1.0
    numpy.reciprocal(t, out=t)
    poly = t * numpy.float32(_ERF_A[4])
    for coefficient in reversed(_ERF_A[:4]):
        poly += numpy.float32(coefficient)
        poly *= t
    numpy.square(a, out=a)
    numpy.negative(a, out=a)
    numpy.exp(a, out=a)
    poly *= a
    numpy.subtract(1.0, poly, out=poly)
    numpy.copysign(poly, x, out=poly)
    return poly


def gelu(x: Matrix) -> Matrix:
    """GELU in its exact (erf) form, as BERT's ``hidden_act: gelu`` is: ``x/2 (1 + erf(x/√2))``,
    in place, a block of ``GELU_ROWS`` rows at a time (so the temporaries stay in cache)."""
    for start in range(0, x.shape[0], GELU_ROWS):
        block = x[start : start + GELU_ROWS]
        inner = erf(block * numpy.float32(1.0 / math.sqrt(2.0)))
        inner += 1.0
        inner *= 0.5
        block *= inner
    return x


def layer_norm(x: Matrix, weight: Matrix, bias: Matrix, eps: float) -> Matrix:
    mean = x.mean(axis=-1, keepdims=True)
    centered = x - mean
    variance = (centered * centered).mean(axis=-1, keepdims=True)
    return (centered / numpy.sqrt(variance + eps) * weight + bias).astype(numpy.float32)


@dataclass(frozen=True, slots=True)
class _Layer:
    qkv: Matrix  # (hidden, 3 * hidden): query, key and value projections side by side
    qkv_bias: Matrix
    out: Matrix  # (hidden, hidden), read transposed from the file
    out_bias: Matrix
    attention_norm: tuple[Matrix, Matrix]
    up: Matrix  # (hidden, intermediate)
    up_bias: Matrix
    down: Matrix  # (intermediate, hidden)
    down_bias: Matrix
    output_norm: tuple[Matrix, Matrix]


def mean_pooled(states: Matrix, mask: Matrix) -> Matrix:
    """The mean of each sequence's states over its real tokens (``states``: ``(count, length,
    hidden)``; ``mask``: ``(count, length)``, 1 for a real token)."""
    pooled = (states * mask[:, :, None]).sum(axis=1) / numpy.maximum(
        mask.sum(axis=1, keepdims=True), numpy.float32(1e-9))
    return pooled.astype(numpy.float32, copy=False)


class SentenceEncoder:
    """Texts to unit-length sentence embeddings (see the module invariant)."""

    def __init__(self, tokenizer: WordPieceTokenizer, tensors: dict[str, npt.NDArray[Any]],
                 config: dict[str, Any], *, max_tokens: int = MAX_TOKENS) -> None:
        self.tokenizer = tokenizer
        self.hidden = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        if self.hidden % self.heads:
            raise ValueError("the hidden size is not a multiple of the attention heads")
        if config.get("hidden_act", "gelu") != "gelu":
            raise ValueError(f"unsupported activation {config.get('hidden_act')!r}")

        def weight(name: str) -> Matrix:
            if name not in tensors:
                raise ValueError(f"the weights lack {name}")
            array = tensors[name]
            if array.dtype != numpy.float32:
                raise ValueError(f"{name} is {array.dtype}, not float32")
            return array

        self.words = weight("embeddings.word_embeddings.weight")
        self.positions = weight("embeddings.position_embeddings.weight")
        self.segments = weight("embeddings.token_type_embeddings.weight")  # one row per segment
        self.segment = self.segments[0]
        self.embedding_norm = (weight("embeddings.LayerNorm.weight"),
                               weight("embeddings.LayerNorm.bias"))
        if self.words.shape[0] < len(tokenizer.tokens) or self.words.shape[1] != self.hidden:
            raise ValueError("the word embeddings do not match the vocabulary and hidden size")
        self.layers: list[_Layer] = []
        for number in range(int(config["num_hidden_layers"])):
            prefix = f"encoder.layer.{number}."
            attention = prefix + "attention.self."
            self.layers.append(_Layer(
                qkv=numpy.ascontiguousarray(numpy.concatenate(
                    [weight(attention + f"{p}.weight").T for p in ("query", "key", "value")],
                    axis=1)),
                qkv_bias=numpy.concatenate(
                    [weight(attention + f"{p}.bias") for p in ("query", "key", "value")]),
                out=weight(prefix + "attention.output.dense.weight").T,
                out_bias=weight(prefix + "attention.output.dense.bias"),
                attention_norm=(weight(prefix + "attention.output.LayerNorm.weight"),
                                weight(prefix + "attention.output.LayerNorm.bias")),
                up=weight(prefix + "intermediate.dense.weight").T,
                up_bias=weight(prefix + "intermediate.dense.bias"),
                down=weight(prefix + "output.dense.weight").T,
                down_bias=weight(prefix + "output.dense.bias"),
                output_norm=(weight(prefix + "output.LayerNorm.weight"),
                             weight(prefix + "output.LayerNorm.bias"))))
        self.max_tokens = max(2, min(max_tokens, self.positions.shape[0]))

    @classmethod
    def from_folder(cls, folder: Path, *, max_tokens: int = MAX_TOKENS) -> SentenceEncoder:
        """The encoder of a model folder (see the module docstring). Raises ``OSError`` for a
        missing or unreadable file and ``ValueError`` for one that is not this kind of model."""
        try:
            config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"config.json is not JSON: {exc}") from exc
        if not isinstance(config, dict) or config.get("model_type", "bert") != "bert":
            raise ValueError("config.json does not describe a BERT model")
        tokenizer = WordPieceTokenizer.from_file(folder / "vocab.txt")
        try:
            tensors = read_tensors(folder / "model.safetensors")
        except TensorFileError as exc:
            raise ValueError(str(exc)) from exc
        return cls(tokenizer, tensors, config, max_tokens=max_tokens)

    def encode(self, texts: Sequence[str]) -> Matrix:
        """One unit-length row per text (``(len(texts), hidden)``; see the module invariant)."""
        result = numpy.zeros((len(texts), self.hidden), dtype=numpy.float32)
        encoded = [self.tokenizer.encode(text, self.max_tokens) for text in texts]
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i]))
        start = 0
        while start < len(order):
            shortest = len(encoded[order[start]])
            end = start + 1
            while end < len(order):
                longest = len(encoded[order[end]])
                if longest > BATCH_SPREAD * shortest or (end - start + 1) * longest > BATCH_TOKENS:
                    break
                end += 1
            chosen = order[start:end]
            result[chosen] = self._forward([encoded[i] for i in chosen])
            start = end
        return result

    def _forward(self, batch: list[list[int]]) -> Matrix:
        """Pooled, normalised embeddings of token id sequences, padded to the longest."""
        pooled = mean_pooled(*self.states(batch))
        norms = numpy.maximum(numpy.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return (pooled / norms).astype(numpy.float32)

    def states(self, batch: list[list[int]], segments: list[list[int]] | None = None
               ) -> tuple[Matrix, Matrix]:
        """The last layer's states of token id sequences padded to the longest
        (``(count, length, hidden)``) and their mask (``(count, length)``, 1 for a real token);
        ``segments``, when given, holds each token's segment (0 or 1: a sentence pair), else
        every token is in segment 0."""
        count, length = len(batch), max(len(ids) for ids in batch)
        ids = numpy.full((count, length), self.tokenizer.pad_id, dtype=numpy.int64)
        kinds = numpy.zeros((count, length), dtype=numpy.int64)
        mask = numpy.zeros((count, length), dtype=numpy.float32)
        for row, sequence in enumerate(batch):
            ids[row, : len(sequence)] = sequence
            mask[row, : len(sequence)] = 1.0
            if segments is not None:
                kinds[row, : len(sequence)] = segments[row][: len(sequence)]
        segment = self.segments[kinds] if segments is not None else self.segment
        x = (self.words[ids] + self.positions[:length] + segment).reshape(-1, self.hidden)
        x = layer_norm(x, *self.embedding_norm, self.eps)  # (count * length, hidden)
        blocked = ((1.0 - mask) * numpy.float32(-1e9))[:, None, None, :]
        size = self.hidden // self.heads
        scale = numpy.float32(1.0 / math.sqrt(size))
        for layer in self.layers:
            qkv = x @ layer.qkv
            qkv += layer.qkv_bias
            heads = qkv.reshape(count, length, 3, self.heads, size).transpose(2, 0, 3, 1, 4)
            query, key, value = heads[0], heads[1], heads[2]  # (count, heads, length, size)
            scores = query @ key.transpose(0, 1, 3, 2)
            scores *= scale
            scores += blocked
            scores -= scores.max(axis=-1, keepdims=True)
            numpy.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ value).transpose(0, 2, 1, 3).reshape(-1, self.hidden)
            attended = context @ layer.out
            attended += layer.out_bias
            attended += x
            x = layer_norm(attended, *layer.attention_norm, self.eps)
            inner = x @ layer.up
            inner += layer.up_bias
            inner = gelu(inner)
            output = inner @ layer.down
            output += layer.down_bias
            output += x
            x = layer_norm(output, *layer.output_norm, self.eps)
        return x.reshape(count, length, self.hidden), mask
