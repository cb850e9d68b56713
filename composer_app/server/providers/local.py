"""``LocalProvider``: the default, offline retrieval assistant.

It answers from the message's context entries (terminal output, review comments, ... read from the
provider input's ``<t3_context>`` envelope), the text of the attached files and an optional
knowledge folder, by FTS5 ``bm25()`` retrieval, and composes an extractive answer (``extractive``).

Invariants: nothing leaves the machine; the knowledge index is refreshed (incrementally) before
every search, so answers reflect the folder's current files; a passage is ``used`` only when it
holds the largest share of the question's terms found in any passage and at least
``USED_MIN_COVERAGE`` of them; other retrieved documents are ``checked``; blocking work runs in a
worker thread; any I/O or database error ends the turn with one ``Failed`` and a readable reason.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from composer_app.server.providers.base import (
    Done,
    Failed,
    ProviderAttachment,
    ProviderEvent,
    Sources,
    TextDelta,
    TurnRequest,
)
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
from composer_app.server.providers.passage_store import Hit, PassageStore
from composer_app.server.providers.passages import (
    decode_text,
    is_code_name,
    mime_type_for,
    split_passages,
)
from composer_app.server.providers.prompt_context import (
    ContextPassage,
    kind_display,
    read_provider_input,
)
from composer_app.server.providers.questions import (
    ListingRequest,
    listing_request,
    question_terms,
)

USED_MIN_COVERAGE = 0.6
MAX_USED = 3
MAX_CHECKED = 8
SEARCH_LIMIT = 12
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


def _read_attachment(attachment: ProviderAttachment) -> str | None:
    if attachment.size_bytes > MAX_FILE_BYTES or attachment.mime_type.startswith("image/"):
        return None
    try:
        data = attachment.path.read_bytes()[: MAX_FILE_BYTES + 1]
    except OSError:
        return None
    return decode_text(data, attachment.name) if len(data) <= MAX_FILE_BYTES else None


def _joined(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


class LocalProvider:
    """The offline assistant over the message's context, its attachments and a knowledge folder."""

    def __init__(self, knowledge_dir: Path | None = None, data_dir: Path | None = None, *,
                 index: KnowledgeIndex | None = None) -> None:
        if index is None and knowledge_dir is not None:
            if data_dir is None:
                raise ValueError("a knowledge folder needs a data directory for its index")
            index = KnowledgeIndex.in_data_dir(knowledge_dir, data_dir)
        self.index = index

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
        parsed = read_provider_input(request.prompt)
        scratch = PassageStore()
        try:
            refs: dict[str, SourceRef] = {}
            notices: list[Notice] = []
            firsts: list[Evidence] = []
            for entry in parsed.entries:
                if entry.kind not in _SKIPPED_KINDS and entry.body.strip():
                    self._add(scratch, refs, firsts, context_ref(entry), entry.body)
            for attachment in request.attachments:
                ref = attachment_ref(attachment)
                text = _read_attachment(attachment)
                if text is None:
                    notices.append(Notice(
                        f"I couldn't read {attachment.name} because it isn't a text file I can "
                        "search, so it was not checked.", ref,
                        "Not a searchable text file, so its contents were not checked."))
                elif text.strip():
                    self._add(scratch, refs, firsts, ref, text)
            files: list[FileInfo] = []
            if self.index is not None:
                self.index.refresh()
                files = self.index.files()
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

    @staticmethod
    def _add(store: PassageStore, refs: dict[str, SourceRef], firsts: list[Evidence],
             ref: SourceRef, text: str) -> None:
        passages = split_passages(text, markdown=ref.title.lower().endswith((".md", ".markdown")))
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
        if self.index is not None:
            parts.append("the knowledge folder")
        return _joined(parts) if parts else "your files (none were attached and no knowledge " \
            "folder is set up)"

    def _search(self, question: str, scratch: PassageStore, refs: dict[str, SourceRef],
                files: list[FileInfo], notices: list[Notice], scope: str) -> Answer:
        terms = question_terms(question)
        found = [Evidence(refs[h.key], h, h.matched / len(terms))
                 for h in scratch.search(terms, SEARCH_LIMIT)]
        if self.index is not None:
            infos = {info.path: info for info in files}
            found += [Evidence(knowledge_ref(infos[h.key]), h, h.matched / len(terms))
                      for h in self.index.search(terms, SEARCH_LIMIT) if h.key in infos]
        best: dict[str, Evidence] = {}
        for evidence in sorted(found, key=lambda e: -e.hit.matched):  # stable: context first
            best.setdefault(evidence.ref.id, evidence)
        ranked = list(best.values())
        needed = max(1, math.ceil(USED_MIN_COVERAGE * len(terms)))
        top = ranked[0].hit.matched if ranked else 0
        used = [e for e in ranked if top >= needed and e.hit.matched == top][:MAX_USED]
        checked = [e for e in ranked if e not in used][:MAX_CHECKED]
        if not used:
            return compose_general(scope, checked, notices)
        return compose_answer(used, checked, notices)

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
