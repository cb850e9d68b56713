"""Dense retrieval over a small knowledge folder: every sentence embedded once, in the background,
and persisted in the folder's index.

After the knowledge index changes, ``SentenceVectors`` embeds every sentence of the folder's
passages (the sentences ``answer_ranking.passage_sentences`` reads: headings are context, not
sentences) with the sentence model, in batches of ``BATCH`` so a question waits for at most one
batch, and stores each vector (float16) in the index's SQLite keyed by a digest of the model and
the sentence's text: a restart, or a re-index that leaves a sentence unchanged, never embeds it
again. A folder with more than ``limit`` passages or distinct sentences is never embedded (its
answers keep the bounded word search).

Invariants: ``table()`` is ``None`` until every sentence of the index as of the last change is
embedded, and again from the moment a refresh reports a change until the changed folder is
embedded, so a dense hit always names a passage the index holds now; embedding runs in one
daemon thread per ``SentenceVectors``, never in the caller's; stored vectors of sentences no
longer in the folder are deleted once the folder is embedded; rows of a table are L2-normalised.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from composer_app.server.providers.excerpts import sentences
from composer_app.server.providers.knowledge_index import RefreshStats
from composer_app.server.providers.passage_store import Hit, PassageStore
from composer_app.server.providers.sentence_embeddings import MODEL_PACKAGE, SentenceEmbeddings

if TYPE_CHECKING:
    from composer_app.server.providers.sentence_encoder import Matrix

logger = logging.getLogger(__name__)

MAX_SENTENCES = 3_000
BATCH = 8
DIGEST_BYTES = 16


@dataclass(frozen=True, slots=True)
class Nearest:
    """A sentence found by meaning: its passage, its text and its cosine similarity."""

    passage: Hit
    text: str
    similarity: float


def passage_texts(passage: Hit) -> list[str]:
    """The sentences of a passage as the answer ranking reads them (headings left out)."""
    found: list[str] = []
    for raw in passage.text.split("\n"):
        line = raw.strip()
        if line and not line.startswith("#"):
            found.extend(sentences(line))
    return found


def digest(text: str) -> bytes:
    """The key of a sentence's stored vector: the model's name and the text, hashed."""
    return hashlib.sha256(f"{MODEL_PACKAGE}\0{text}".encode()).digest()[:DIGEST_BYTES]


class VectorTable:
    """The embedded sentences of a folder as one matrix (immutable once built)."""

    def __init__(self, passages: Sequence[Hit], texts: Sequence[str], owners: Sequence[int],
                 matrix: Matrix) -> None:
        self.passages = list(passages)
        self.texts = list(texts)
        self.owners = list(owners)
        self.matrix = matrix
        self._rows = {text: row for row, text in enumerate(self.texts)}

    def __len__(self) -> int:
        return len(self.texts)

    def row(self, text: str) -> Matrix | None:
        """The vector of a sentence of the folder, or ``None`` for another text."""
        number = self._rows.get(text)
        return None if number is None else self.matrix[number]

    def similarities(self, embeddings: SentenceEmbeddings, queries: Sequence[str],
                     texts: Sequence[str]) -> list[list[float]] | None:
        """Like ``SentenceEmbeddings.similarities``, with the vectors of the folder's sentences
        read from the table (only the queries and other texts are encoded)."""
        import numpy

        unknown = [t for t in texts if t not in self._rows]
        encoded = embeddings.embeddings([*queries, *unknown])
        if encoded is None:
            return None
        others = dict(zip(unknown, encoded[len(queries):], strict=True))
        rows = numpy.stack([self.matrix[self._rows[t]] if t in self._rows else others[t]
                            for t in texts]) if texts else numpy.zeros((0, encoded.shape[1]))
        table = rows @ encoded[: len(queries)].T
        return [[float(v) for v in table[:, column]] for column in range(len(queries))]

    def nearest(self, query: Matrix, limit: int) -> list[Nearest]:
        """The ``limit`` sentences most similar to ``query`` (an L2-normalised vector), best
        first (one matrix-vector product)."""
        if not self.texts or limit <= 0:
            return []
        import numpy

        cosines = self.matrix @ query
        count = min(limit, len(self.texts))
        best = numpy.argpartition(-cosines, count - 1)[:count]
        best = best[numpy.argsort(-cosines[best], kind="stable")]
        return [Nearest(self.passages[self.owners[int(i)]], self.texts[int(i)],
                        float(cosines[int(i)])) for i in best]


class SentenceVectors:
    """The background embedding of one knowledge index (see the module invariant)."""

    def __init__(self, store: PassageStore, embeddings: SentenceEmbeddings, *,
                 limit: int = MAX_SENTENCES) -> None:
        self._store = store
        self._embeddings = embeddings
        self._limit = limit
        self._lock = threading.Lock()
        self._pending = False
        self._running = False
        self._followed = False
        self._idle = threading.Event()
        self._idle.set()
        self._table: VectorTable | None = None
        self.state = "waiting"  # "embedding", "ready", "too large", "unavailable"
        self.embedded = 0  # sentences encoded by the model in the last pass (not read back)
        self.seconds: float | None = None  # how long the last complete pass took

    def table(self) -> VectorTable | None:
        """The folder's embedded sentences, or ``None`` while (re-)embedding or never."""
        return self._table

    def follow(self, stats: RefreshStats) -> None:
        """Embed the folder (again) in the background when the refresh changed it, or when it
        has not been embedded since this object was made."""
        with self._lock:
            if self._followed and not (stats.indexed or stats.deleted):
                return
            self._followed = True
            self._table = None
            self._pending = True
            if self._running:
                return
            self._running = True
            self._idle.clear()
        threading.Thread(target=self._work, name="sentence-vectors", daemon=True).start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no embedding is running or due; whether it finished within ``timeout``."""
        return self._idle.wait(timeout)

    def _work(self) -> None:
        try:
            while True:
                with self._lock:
                    if not self._pending:
                        self._running = False
                        self._idle.set()
                        return
                    self._pending = False
                try:
                    table = self._build()
                except Exception as exc:  # a failure leaves answering by words, never broken
                    logger.warning("The knowledge folder's sentences could not be embedded "
                                   "(%s: %s).", type(exc).__name__, exc)
                    self.state = "unavailable"
                    table = None
                with self._lock:
                    if not self._pending:
                        self._table = table
        except BaseException:
            with self._lock:
                self._running = False
                self._idle.set()
            raise

    def _build(self) -> VectorTable | None:
        """Every sentence of the index embedded (stored vectors read back), or ``None`` when
        the folder is too large, the model is unavailable or the index changed meanwhile."""
        begin = time.perf_counter()
        if self._store.passage_count() > self._limit:  # counted, never read, when too large
            self.state = "too large"
            return None
        passages = self._store.all_passages()
        texts: list[str] = []
        owners: list[int] = []
        seen: set[str] = set()
        for number, passage in enumerate(passages):
            for text in passage_texts(passage):
                if text not in seen:
                    seen.add(text)
                    texts.append(text)
                    owners.append(number)
        if len(texts) > self._limit:
            self.state = "too large"
            return None
        self.state = "embedding"
        import numpy

        keys = [digest(text) for text in texts]
        stored = self._store.vectors(keys)
        rows: dict[bytes, Matrix] = {
            key: numpy.frombuffer(raw, dtype=numpy.float16).astype(numpy.float32)
            for key, raw in stored.items()}
        missing = sorted((i for i, key in enumerate(keys) if key not in rows),
                         key=lambda i: len(texts[i]))
        self.embedded = 0
        for start in range(0, len(missing), BATCH):
            if self._pending:
                return None
            chunk = missing[start : start + BATCH]
            encoded = self._embeddings.encode_uncached([texts[i] for i in chunk])
            if encoded is None:
                self.state = "unavailable"
                return None
            self._store.put_vectors(
                (keys[i], row.astype(numpy.float16).tobytes())
                for i, row in zip(chunk, encoded, strict=True))
            for i, row in zip(chunk, encoded, strict=True):
                rows[keys[i]] = row.astype(numpy.float32)
            self.embedded += len(chunk)
        self._store.keep_vectors(keys)
        matrix = numpy.stack([rows[key] for key in keys]) if keys else numpy.zeros((0, 384),
                                                                                   numpy.float32)
        norms = numpy.linalg.norm(matrix, axis=1, keepdims=True)
        matrix = (matrix / numpy.maximum(norms, 1e-12)).astype(numpy.float32)
        self.seconds = time.perf_counter() - begin
        self.state = "ready"
        logger.info("embedded %d sentences (%d new) in %.1f s", len(texts), self.embedded,
                    self.seconds)
        return VectorTable(passages, texts, owners, matrix)
