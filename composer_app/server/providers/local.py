"""``LocalProvider``: the default, offline retrieval assistant.

It answers from the message's context entries (terminal output, review comments, ... read from the
provider input's ``<t3_context>`` envelope), the text of the attached files and an optional
knowledge folder, by FTS5 ``bm25()`` retrieval (the question's words and their synonyms, then a few
more passages found with the words the WordNet lexicon relates to them), and composes an extractive
answer (``extractive``). When no sentence answers by its words, a sentence model judges the best
few by meaning (``answer_meaning``, ``sentence_embeddings``); once a small knowledge folder is
embedded (``sentence_vectors``, in the background after the index changes), the folder's
sentences nearest to the question in meaning join them; without the model (not installed or not
loadable) the assistant answers by words alone, as before.

Invariants: nothing leaves the machine; the knowledge index is refreshed (incrementally) before
every search, so answers reflect the folder's current files; which sentence answers, which
documents are ``used`` or only ``checked``, conflicts and "not found" are decided by
``answer_choice`` over sentences scored by ``answer_ranking`` (term weights are the inverse
document frequencies of the searched stores); the sentence model starts loading in the
background when the provider is built and is waited for only by a question that needs it, and a
question its words do not answer, asked while the folder is being embedded (the first after it was
opened or changed), waits up to ``EMBED_WAIT`` seconds for it rather than say "not found";
blocking work runs in a worker thread; any I/O or
database error ends the turn with one ``Failed`` and a readable reason.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, date, datetime
from pathlib import Path, PurePosixPath

from composer_app.server.providers.answer_choice import Choice, choose
from composer_app.server.providers.answer_ranking import idf
from composer_app.server.providers.base import (
    Done,
    Failed,
    ProviderAttachment,
    ProviderEvent,
    Sources,
    TextDelta,
    TurnRequest,
)
from composer_app.server.providers.document_dates import written_date
from composer_app.server.providers.document_text import DocumentText, read_document
from composer_app.server.providers.extractive import (
    Answer,
    Evidence,
    Notice,
    SourceRef,
    compose_answer,
    compose_general,
    compose_listing,
)
from composer_app.server.providers.knowledge_index import MAX_FILE_BYTES, FileInfo, KnowledgeIndex
from composer_app.server.providers.lexicon import related_words
from composer_app.server.providers.passage_store import Hit, PassageStore
from composer_app.server.providers.passages import (
    decode_text,
    is_code_name,
    mime_type_for,
    passages_for,
)
from composer_app.server.providers.prompt_context import (
    ContextPassage,
    kind_display,
    read_provider_input,
)
from composer_app.server.providers.question_names import holding_documents, question_names
from composer_app.server.providers.question_parts import Part, read_question
from composer_app.server.providers.questions import (
    ListingRequest,
    listing_request,
    question_terms,
)
from composer_app.server.providers.reference_sources import reference_notice, reference_ref
from composer_app.server.providers.sentence_embeddings import (
    SentenceEmbeddings,
    shared_embeddings,
)
from composer_app.server.providers.sentence_vectors import (
    Nearest,
    SentenceVectors,
    VectorTable,
)
from composer_app.server.providers.term_forms import single_verbs, spelling_variants, synonyms_of

MAX_USED = 3
SEARCH_LIMIT = 30
LEXICAL_LIMIT = 10
DENSE_LIMIT = 4  # sentences found by meaning per question part, when the folder is embedded
DENSE_CANDIDATES = 4  # sentences by their words re-judged by meaning, when it is
DENSE_FLOOR = 0.3  # the least cosine similarity of a sentence found by meaning alone
EMBED_WAIT = 5.0  # seconds a question its words do not answer waits for the folder's embedding
DATE_HEAD_BYTES = 4_096
MAX_UNREADABLE = 5
STREAM_CHUNK_CHARS = 160
_CODE_KINDS = frozenset({"terminal", "review-comment", "element", "preview-annotation"})
_SKIPPED_KINDS = frozenset({"file", "image"})


def _rfc3339(mtime_ns: int) -> str:
    return datetime.fromtimestamp(mtime_ns / 1e9, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _source_id(prefix: str, value: str) -> str:
    """A docs/sources.md §3 entry id: ``prefix:value`` when it fits the id rule, else ``prefix:``
    and a hash."""
    candidate = f"{prefix}:{value}"
    if len(candidate) <= 128 and re.fullmatch(r"[A-Za-z0-9_.:-]+", candidate):
        return candidate
    return f"{prefix}:{hashlib.sha256(value.encode('utf-8')).hexdigest()[:32]}"


def knowledge_ref(info: FileInfo, *, listing: bool = False) -> SourceRef:
    """The source description of a knowledge-folder file."""
    path = PurePosixPath(info.path)
    metadata: dict[str, object] = {"mimeType": mime_type_for(path.name),
                                   "modifiedAt": _rfc3339(info.mtime_ns)}
    if len(path.parts) > 1:
        metadata = {"folderPath": " / ".join(path.parts[:-1])[:300]} | metadata
    return SourceRef(
        id=_source_id("kb", hashlib.sha256(info.path.encode("utf-8")).hexdigest()[:24]),
        type="connector-file", source_label="Knowledge folder",
        title=(info.path if listing else path.name)[:300], code=is_code_name(path.name),
        contributor="connector-browse" if listing else "indexed-documents",
        tool_name="knowledge.list" if listing else "knowledge.search",
        file_id=f"knowledge:{info.path}"[:512], metadata=metadata,
    )


def context_ref(entry: ContextPassage) -> SourceRef:
    """The source description of a context entry of the message."""
    return SourceRef(
        id=_source_id("ctx", entry.context_id), type="item",
        source_label=kind_display(entry.kind)[:80],
        title=(entry.label or kind_display(entry.kind))[:300], code=entry.kind in _CODE_KINDS,
        tool_name="context.read",
    )


def attachment_ref(attachment: ProviderAttachment) -> SourceRef:
    """The source description of an attached file."""
    return SourceRef(
        id=_source_id("att", attachment.attachment_id), type="connector-file",
        source_label="Attached file",
        title=attachment.name[:300] or "Attached file", code=is_code_name(attachment.name),
        tool_name="attachment.read", file_id=attachment.attachment_id,
        metadata={"mimeType": attachment.mime_type},
    )


def _read_attachment(attachment: ProviderAttachment) -> DocumentText:
    """The text of an attached file, or why it has none."""
    if attachment.mime_type.startswith("image/"):
        return DocumentText(None, "It is an image, and the offline assistant reads only text.")
    if attachment.size_bytes > MAX_FILE_BYTES:
        return DocumentText(None, "It is larger than the 4 MB the offline assistant reads.")
    try:
        data = attachment.path.read_bytes()[: MAX_FILE_BYTES + 1]
    except OSError:
        return DocumentText(None, "Its stored copy could not be opened.")
    if len(data) > MAX_FILE_BYTES:
        return DocumentText(None, "It is larger than the 4 MB the offline assistant reads.")
    document = read_document(attachment.name, data)
    if document.text is None and document.problem is None:
        return DocumentText(None, "It isn't a text file or document the offline assistant can "
                                  "search.")
    return document


def _unreadable_notice(ref: SourceRef, name: str, problem: str) -> Notice:
    return Notice(f"I couldn't read {name}: {problem[:1].lower()}{problem[1:]} It was not "
                  "checked.", ref, f"Not searched: {problem}"[:280])


def _searched(store: PassageStore, widened: list[str], lexical: list[str]) -> list[Hit]:
    """The passages of ``store`` for the question's terms (``widened``: its words and their
    synonyms), then, ranked after them, up to ``LEXICAL_LIMIT`` more that the question's words
    and the lexicon's related words (``lexical``) find, so a paraphrase can be answered without
    changing what the question's own words retrieve."""
    hits = store.search(widened, SEARCH_LIMIT)
    if not lexical:
        return hits
    seen = {(h.key, h.line_start) for h in hits}
    extra = [h for h in store.search(widened + lexical, SEARCH_LIMIT)
             if (h.key, h.line_start) not in seen]
    return hits + extra[:LEXICAL_LIMIT]


def _joined(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


class LocalProvider:
    """The offline assistant over the message's context, its attachments and a knowledge folder."""

    def __init__(self, knowledge_dir: Path | None = None, data_dir: Path | None = None, *,
                 index: KnowledgeIndex | None = None,
                 embeddings: SentenceEmbeddings | None = None) -> None:
        """``embeddings``: the sentence model that judges paraphrases (the process's shared
        one by default). It starts loading, in the background, with the first question: a
        server nobody asks holds neither NumPy nor the model's 70 MB."""
        if index is None and knowledge_dir is not None:
            if data_dir is None:
                raise ValueError("a knowledge folder needs a data directory for its index")
            index = KnowledgeIndex.in_data_dir(knowledge_dir, data_dir)
        self.index = index
        self.embeddings = embeddings if embeddings is not None else shared_embeddings()
        self.vectors = (SentenceVectors(index.store, self.embeddings)
                        if index is not None else None)

    def resolve_file(self, file_id: str) -> Path | None:
        """The knowledge-folder file named by a ``knowledge:<path>`` file id of this provider's
        sources, or ``None``: the path must be a current, searchable or listed file of the folder
        (never outside it, never hidden, never through a symlink)."""
        if self.index is None or not file_id.startswith("knowledge:"):
            return None
        relative = file_id.removeprefix("knowledge:")
        self.index.refresh()
        known = {info.path for info in self.index.files()} | {
            info.path for info, _ in self.index.unreadable()}
        if relative not in known:
            return None
        path = self.index.folder / relative
        root = self.index.folder.resolve()
        try:
            resolved = path.resolve(strict=True)
        except OSError:
            return None
        return resolved if resolved.is_relative_to(root) and not path.is_symlink() else None

    def close(self) -> None:
        """Close the knowledge index (the provider must not be used afterwards)."""
        if self.index is not None:
            self.index.close()

    async def run_turn(self, request: TurnRequest) -> AsyncIterator[ProviderEvent]:
        try:
            answer = await asyncio.to_thread(self.answer, request)
        except (OSError, sqlite3.Error) as exc:
            yield Failed("provider_failed",
                         f"The offline assistant could not search your files: {exc}.")
            return
        text = answer.text
        for start in range(0, len(text), STREAM_CHUNK_CHARS):
            yield TextDelta(text[start : start + STREAM_CHUNK_CHARS])
        yield Sources(sources=answer.sources, metadata=answer.metadata)
        yield Done(text)

    def answer(self, request: TurnRequest) -> Answer:
        """The complete answer to one turn (blocking; see the module invariant)."""
        self.embeddings.start()  # loads while the words are searched; later calls do nothing
        parsed = read_provider_input(request.prompt)
        scratch = PassageStore()
        try:
            refs: dict[str, SourceRef] = {}
            notices: list[Notice] = []
            firsts: list[Evidence] = []
            resolved = {material.context_id for material in request.references}
            for entry in parsed.entries:
                if entry.context_id in resolved:
                    continue
                if entry.kind not in _SKIPPED_KINDS and entry.body.strip():
                    self._add(scratch, refs, firsts, context_ref(entry), entry.body)
            for material in request.references:
                notice = reference_notice(material)
                if notice is not None:
                    notices.append(notice)
                elif material.text is not None:
                    self._add(scratch, refs, firsts, reference_ref(material), material.text)
            for attachment in request.attachments:
                ref = attachment_ref(attachment)
                document = _read_attachment(attachment)
                if document.text is None:
                    notices.append(_unreadable_notice(ref, attachment.name,
                                                      document.problem or ""))
                elif document.text.strip():
                    self._add(scratch, refs, firsts, ref, document.text, prose=document.prose)
            self._add_earlier(scratch, refs, request)
            files: list[FileInfo] = []
            if self.index is not None:
                stats = self.index.refresh()
                if self.vectors is not None:
                    self.vectors.follow(stats)  # embeds a small folder in the background
                files = self.index.files()
                notices += [_unreadable_notice(knowledge_ref(info), info.path, problem)
                            for info, problem in self.index.unreadable()[:MAX_UNREADABLE]]
            listing = listing_request(parsed.question)
            if listing is not None and self.index is not None:
                return self._listing(listing, files)
            if parsed.attachment_only or not question_terms(parsed.question):
                if firsts:
                    return compose_answer(firsts[:MAX_USED], [], notices)
                return compose_general(self._scope(parsed.entries, request), (), notices)
            return self._search(parsed.question, scratch, refs, files, notices,
                                self._scope(parsed.entries, request))
        finally:
            scratch.close()

    def _add_earlier(self, scratch: PassageStore, refs: dict[str, SourceRef],
                     request: TurnRequest) -> None:
        """The thread's earlier attachments and context entries, searchable but never the
        subject of an attachment-only reply (see ``TurnRequest.earlier_attachments``)."""
        unused: list[Evidence] = []
        for prompt in request.earlier_prompts:
            for entry in read_provider_input(prompt).entries:
                ref = context_ref(entry)
                if entry.kind not in _SKIPPED_KINDS and entry.body.strip() and ref.id not in refs:
                    self._add(scratch, refs, unused, ref, entry.body)
        for attachment in request.earlier_attachments:
            ref = attachment_ref(attachment)
            text = None if ref.id in refs else _read_attachment(attachment).text
            if text is not None and text.strip():
                self._add(scratch, refs, unused, ref, text)

    @staticmethod
    def _add(store: PassageStore, refs: dict[str, SourceRef], firsts: list[Evidence],
             ref: SourceRef, text: str, *, prose: bool = False) -> None:
        passages = passages_for(ref.title, text, prose=prose)
        store.put_document(ref.id, ref.title, passages)
        refs[ref.id] = ref
        if passages:
            first = passages[0]
            hit = Hit(ref.id, ref.title, first.line_start, first.line_end, first.text, first.text,
                      0.0, 0)
            firsts.append(Evidence(ref, hit))

    def _scope(self, entries: Sequence[ContextPassage], request: TurnRequest) -> str:
        parts = []
        if any(e.kind not in _SKIPPED_KINDS for e in entries):
            parts.append("the attached context")
        if request.attachments:
            parts.append("the attached files")
        if any(m.text for m in request.references if m.kind != "skill"):
            parts.append("the referenced files and threads")
        if self.index is not None:
            parts.append("the knowledge folder")
        return _joined(parts) if parts else "your files (none were attached and no knowledge " \
            "folder is set up)"

    def _search(self, question: str, scratch: PassageStore, refs: dict[str, SourceRef],
                files: list[FileInfo], notices: list[Notice], scope: str) -> Answer:
        terms = list(dict.fromkeys(question_terms(single_verbs(question))
                                   + question_terms(question)))
        widened = list(dict.fromkeys(terms + [s for t in terms for s in synonyms_of(t)]))
        lexical = [w for w in dict.fromkeys(w for t in terms for w in related_words(t))
                   if w not in widened]
        infos = {info.path: info for info in files}
        found = [Evidence(refs[h.key], h) for h in _searched(scratch, widened, lexical)]
        stores = [scratch]
        if self.index is not None:
            found += [Evidence(knowledge_ref(infos[h.key]), h)
                      for h in _searched(self.index.store, widened, lexical) if h.key in infos]
            stores.append(self.index.store)
        passages = sum(store.passage_count() for store in stores)
        counts = [store.frequencies(terms) for store in stores]
        frequency = {t: sum(c.get(t, 0) for c in counts) for t in terms}
        for term in terms:  # a paraphrased word weighs as its related words found here
            related = spelling_variants(term) + related_words(term)
            if frequency[term] == 0 and related:
                frequency[term] = sum(store.frequency_any(related) for store in stores)
        parts = read_question(question, lambda word: idf(passages, frequency.get(word, 0)))
        table = self.vectors.table() if self.vectors is not None else None
        if table is None or not parts:
            named = self._named(question, found, scratch, refs, infos)
            choice = choose(parts, found, lambda ref: self._dated(ref, infos),
                            self.embeddings.similarities, named=named,
                            names=question_names(question), reader=self.embeddings.pair_scores)
            if parts and (not choice.used or choice.unanswered):
                table = self._embedded_in_time()
        if table is not None and parts:
            choice = self._choose_with(table, question, parts, found, scratch, refs, infos)
        if not choice.used:
            return compose_general(scope, choice.checked, notices)
        return compose_answer(choice.used, choice.checked, notices,
                              direct=[(d.evidence, d.sentence) for d in choice.direct],
                              conflict=choice.conflict, unanswered=choice.unanswered,
                              quotes=choice.quotes)

    def _choose_with(self, table: VectorTable, question: str, parts: Sequence[Part],
                     found: list[Evidence], scratch: PassageStore, refs: dict[str, SourceRef],
                     infos: dict[str, FileInfo]) -> Choice:
        """``choose`` over ``found`` and the folder's sentences nearest in meaning to each part
        (``table``: the embedded folder), judged by meaning with their stored vectors."""
        nearby = self._nearby(table, [single_verbs(part.text) for part in parts])
        seen = {(e.ref.id, e.hit.line_start) for e in found}
        for near in nearby:
            hit = near.passage
            if hit.key in infos and (knowledge_ref(infos[hit.key]).id,
                                     hit.line_start) not in seen:
                seen.add((knowledge_ref(infos[hit.key]).id, hit.line_start))
                found.append(Evidence(knowledge_ref(infos[hit.key]), hit))
        named = self._named(question, found, scratch, refs, infos)
        return choose(parts, found, lambda ref: self._dated(ref, infos),
                      lambda queries, texts: table.similarities(self.embeddings, queries, texts),
                      nearby={near.text for near in nearby}, candidates=DENSE_CANDIDATES,
                      named=named, names=question_names(question),
                      reader=self.embeddings.pair_scores)

    def _embedded_in_time(self) -> VectorTable | None:
        """The folder's embedded sentences once the embedding under way (the first question after
        the folder was opened or changed) is done within ``EMBED_WAIT`` seconds, else ``None``:
        a question its words do not answer waits for the sentences found by meaning rather than
        saying "not found" only because it was asked first; a folder never embedded (too large,
        no model) is not waited for."""
        if self.vectors is None or self.vectors.wait(0):
            return None
        self.vectors.wait(EMBED_WAIT)
        return self.vectors.table()

    def _named(self, question: str, found: Sequence[Evidence], scratch: PassageStore,
               refs: dict[str, SourceRef], infos: dict[str, FileInfo]) -> frozenset[str] | None:
        """The source ids of the retrieved documents (``found``) that hold the names
        ``question`` gives (``question_names``), or ``None`` when it gives none that a searched
        document's title or first heading holds."""
        names = question_names(question)
        if not names:
            return None
        ids = {e.hit.key: e.ref.id for e in found}
        own = [key for key in ids if key in refs]
        filed = [key for key in ids if key in infos and key not in refs]

        def naming(name: str) -> bool:
            return bool(scratch.naming_documents(name)) or (
                self.index is not None and bool(self.index.store.naming_documents(name)))

        def holding(name: str) -> set[str]:
            keys = scratch.holding(own, name)
            if self.index is not None:
                keys |= self.index.store.holding(filed, name)
            return {ids[key] for key in keys}

        return holding_documents(names, naming, holding)

    def _nearby(self, table: VectorTable, queries: list[str]) -> list[Nearest]:
        """The folder's sentences nearest in meaning to each of ``queries`` (``DENSE_LIMIT``
        each, from a similarity of ``DENSE_FLOOR`` up), best first: a sentence further away says
        nothing about the question (the coffee machine's descaling, for a question about the
        billing database) and its document would only be listed as checked."""
        encoded = self.embeddings.embeddings(queries)
        if encoded is None:
            return []
        return [near for row in encoded for near in table.nearest(row, DENSE_LIMIT)
                if near.similarity >= DENSE_FLOOR]

    def _dated(self, ref: SourceRef, infos: dict[str, FileInfo]) -> date | None:
        """A knowledge file's own written date, else its modification date; ``None`` for other
        sources."""
        path = (ref.file_id or "").removeprefix("knowledge:")
        info = infos.get(path) if ref.file_id and ref.file_id.startswith("knowledge:") else None
        if info is None or self.index is None:
            return None
        try:
            with (self.index.folder / info.path).open("rb") as handle:
                head = handle.read(DATE_HEAD_BYTES)
        except OSError:
            head = b""
        text = decode_text(head, info.path) if head else None
        written = written_date(text) if text else None
        return written or datetime.fromtimestamp(info.mtime_ns / 1e9, UTC).date()

    def _listing(self, request: ListingRequest, files: list[FileInfo]) -> Answer:
        chosen = [f for f in files if not request.extensions
                  or f.path.lower().endswith(request.extensions)]
        if request.path_words:
            by_path = [f for f in chosen if any(w in f.path.lower() for w in request.path_words)]
            if by_path:
                chosen = by_path
            elif self.index is not None:
                keys = {h.key for h in self.index.search(list(request.path_words), SEARCH_LIMIT)}
                chosen = [f for f in chosen if f.path in keys]
        scope = "the knowledge folder"
        if request.extensions or request.path_words:
            scope += " matching your request"
        refs = [knowledge_ref(f, listing=True) for f in chosen]
        return compose_listing(refs, len(chosen), scope)
