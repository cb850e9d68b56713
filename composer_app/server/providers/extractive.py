"""Composing the offline assistant's extractive answer: Markdown blocks, sources and grounding.

An answer reads: a direct answer (the best-matching sentence of the best passage, verbatim; of a
table row, the cells for the group asked about, ``row_cells``, with the whole row quoted),
then the supporting quotes, then one short italic note saying that an offline retrieval assistant
wrote it.

Invariants: every answer ends with that note; the direct answer and each supporting quote are
blocks whose first rendered block (by ``enumerate_blocks``) is the ``citationTarget`` of exactly one
``used`` entry; retrieved passages that are not quoted are ``checked``; folder listings are
``listed`` and never targeted; a reply without quoted passages is ``general-knowledge`` and says
so, with no ``used`` entry; grounding segments cover every rendered block but the closing note
(which is about the assistant, not the question), in order, without overlap, and carry categories
only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from composer_app.core.codecs.sources_blocks import enumerate_blocks
from composer_app.core.text import cut_utf16
from composer_app.server.providers.excerpts import (
    best_sentence,
    code_excerpt,
    fenced,
    inline_markdown,
    language_for,
    prose_excerpt,
)
from composer_app.server.providers.passage_store import Hit

OFFLINE_NOTE = "*I'm an offline retrieval assistant: this answer quotes your files.*"
LISTING_NOTE = "*I'm an offline retrieval assistant: this list comes from your knowledge folder.*"
GENERAL_NOTE = "*I'm an offline retrieval assistant: I answer only from your files.*"
SNIPPET_MAX_UNITS = 2_000
LISTING_MAX_ENTRIES = 50


@dataclass(frozen=True, slots=True)
class SourceRef:
    """How one document is described as a ``SourceEntry`` (ids stay private,
    docs/sources.md §5.1)."""

    id: str
    type: str
    source_label: str
    title: str
    code: bool = False
    contributor: str = "indexed-documents"
    tool_name: str | None = None
    file_id: str | None = None
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Evidence:
    """A retrieved passage of a document and the share of the question's terms it contains."""

    ref: SourceRef
    hit: Hit
    coverage: float | None = None


@dataclass(frozen=True, slots=True)
class Notice:
    """Evidence that could not be checked: a user-safe sentence and the affected entry."""

    sentence: str
    ref: SourceRef
    readiness_hint: str


@dataclass(frozen=True, slots=True)
class Answer:
    """The final text with the raw ``sources`` value and the grounding ``metadata``."""

    text: str
    sources: dict[str, Any] | None
    metadata: dict[str, Any]


@dataclass
class _Block:
    markdown: str
    mode: str | None
    contributors: tuple[str, ...]
    cites: str | None = None


@dataclass
class _Draft:
    blocks: list[_Block] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)

    def add(self, markdown: str, mode: str | None, contributors: Sequence[str] = (),
            cites: str | None = None) -> None:
        self.blocks.append(_Block(markdown, mode, tuple(contributors), cites))

    def finish(self) -> Answer:
        text = "\n\n".join(block.markdown for block in self.blocks)
        rendered = enumerate_blocks(text)
        targets: dict[str, dict[str, Any]] = {}
        segments: list[dict[str, Any]] = []
        index = 0
        for block in self.blocks:
            count = len(enumerate_blocks(block.markdown))
            if block.cites is not None:
                first = rendered[index]
                targets[block.cites] = {"blockIndex": first.index, "blockType": first.type}
            last = segments[-1] if segments else None
            if block.mode is None:
                pass  # the closing note, a part not found: about the assistant, in no segment
            elif last and last["groundingMode"] == block.mode and last["blockEnd"] == index - 1:
                last["blockEnd"] = index + count - 1
                last["contributors"] = list(dict.fromkeys(last["contributors"] + list(
                    block.contributors)))
            else:
                segments.append({"blockStart": index, "blockEnd": index + count - 1,
                                 "groundingMode": block.mode,
                                 "contributors": list(block.contributors)})
            index += count
        if index != len(rendered):  # pragma: no cover - guarded by the escaping invariants
            raise AssertionError("answer blocks changed when joined")
        entries = [e | ({"citationTarget": targets[e["id"]]} if e["id"] in targets else {})
                   for e in self.entries]
        modes = {s["groundingMode"] for s in segments}
        contributors = list(dict.fromkeys(c for s in segments for c in s["contributors"]))
        metadata = {
            "groundingMode": modes.pop() if len(modes) == 1 else "mixed",
            "groundingContributors": contributors[:10],
            "groundingSegments": segments,
        }
        sources = {"version": 1, "entries": entries} if entries else None
        return Answer(text, sources, metadata)


def source_entry(ref: SourceRef, usage: str, *, snippet: str | None = None,
                 confidence: float | None = None, readiness_hint: str | None = None,
                 hit: Hit | None = None) -> dict[str, Any]:
    """The raw wire entry of ``ref``: local documents have no safe link, so no ``open``; a file
    with a ``fileId`` offers ``download`` through the authenticated citation route. A file's
    entry with its passage ``hit`` carries the passage's lines as ``metadata.lineStart`` and
    ``metadata.lineEnd`` (1-based, inclusive), so the app can open the file at the cited lines."""
    actions = ["download"] if ref.type == "connector-file" and ref.file_id else []
    metadata = ref.metadata
    if hit is not None and ref.type == "connector-file" and ref.file_id and hit.line_start > 0:
        metadata = (metadata or {}) | {"lineStart": hit.line_start,
                                       "lineEnd": max(hit.line_end, hit.line_start)}
    entry: dict[str, Any] = {
        "id": ref.id, "type": ref.type, "sourceLabel": ref.source_label, "sourceUsage": usage,
        "availableActions": actions, "title": ref.title,
    }
    if snippet and snippet.strip():
        entry["snippet"] = cut_utf16(snippet, SNIPPET_MAX_UNITS)
    if confidence is not None:
        entry["confidence"] = round(min(max(confidence, 0.0), 1.0), 2)
    optional = {"metadata": metadata, "readinessHint": readiness_hint,
                "fileId": ref.file_id, "toolName": ref.tool_name}
    entry |= {key: value for key, value in optional.items() if value}
    return entry


def _quote(evidence: Evidence, direct: str | None = None, chosen: str | None = None
           ) -> str | None:
    """The supporting quote of a passage (``chosen`` when given, else its best sentences);
    ``None`` when it would only repeat ``direct``."""
    ref, hit = evidence.ref, evidence.hit
    title = f"**{inline_markdown(ref.title)}**"
    if ref.code:
        excerpt, first, last = code_excerpt(hit.marked, hit.line_start)
        where = f"line {first}" if first == last else f"lines {first}–{last}"
        return f"{title} ({where}):\n\n{fenced(excerpt, language_for(ref.title))}"
    excerpt = chosen if chosen is not None else prose_excerpt(hit.marked)
    if direct is not None and (excerpt.strip() == direct.strip() or not excerpt.strip()):
        return None
    return f"{title}: “{inline_markdown(excerpt)}”"


def _add_notices(draft: _Draft, notices: Sequence[Notice]) -> None:
    for notice in notices:
        draft.add(inline_markdown(notice.sentence), "general-knowledge", ["general-knowledge"])
        draft.entries.append(source_entry(notice.ref, "checked",
                                          readiness_hint=notice.readiness_hint))


def compose_answer(used: Sequence[Evidence], checked: Sequence[Evidence],
                   notices: Sequence[Notice] = (), *,
                   direct: Sequence[tuple[Evidence, str]] | None = None,
                   conflict: str | None = None, unanswered: Sequence[str] = (),
                   quotes: Mapping[str, str] | None = None) -> Answer:
    """The direct answer (``direct``: the sentences chosen to answer the question, one per part,
    each with its passage; else the best sentence of the first ``used`` passage), a line naming a
    conflict between documents, the supporting quotes (best first), ``checked`` as inventory, then
    the offline note. Sentences of one document form one paragraph cited on that document;
    ``quotes`` gives a document's quote by entry id (else its best-matching sentences)."""
    draft = _Draft()
    if direct is None:
        direct = []
        if used and not used[0].ref.code:
            sentence = best_sentence(used[0].hit.marked)
            if sentence:
                direct = [(used[0], sentence)]
    cited: set[str] = set()
    paragraphs: list[tuple[Evidence, list[str]]] = []
    for evidence, sentence in direct:
        if paragraphs and paragraphs[-1][0].ref.id == evidence.ref.id:
            paragraphs[-1][1].append(sentence)
        else:
            paragraphs.append((evidence, [sentence]))
    for evidence, said in paragraphs:
        first = evidence.ref.id not in cited
        cited.add(evidence.ref.id)
        draft.add(inline_markdown(" ".join(said)), "source-backed", [evidence.ref.contributor],
                  evidence.ref.id if first else None)
    if conflict:
        draft.add(inline_markdown(f"Note: {conflict}"), "source-backed",
                  [used[0].ref.contributor] if used else ["indexed-documents"])
    for part in unanswered:  # about the search, not knowledge: in no segment, so no label
        draft.add(inline_markdown(f"I found nothing in your files that answers “{part}”."), None)
    said_by = {e.ref.id: " ".join(s) for e, s in paragraphs}
    for evidence in used:
        quote = _quote(evidence, said_by.get(evidence.ref.id), (quotes or {}).get(evidence.ref.id))
        cites = None if evidence.ref.id in cited else evidence.ref.id
        if quote is not None:
            draft.add(quote, "source-backed", [evidence.ref.contributor], cites)
            cited.add(evidence.ref.id)
        draft.entries.append(source_entry(evidence.ref, "used", snippet=evidence.hit.text,
                                          confidence=evidence.coverage, hit=evidence.hit))
    for evidence in checked:
        draft.entries.append(source_entry(evidence.ref, "checked", snippet=evidence.hit.text,
                                          confidence=evidence.coverage, hit=evidence.hit))
    _add_notices(draft, notices)
    draft.add(OFFLINE_NOTE, None)
    return draft.finish()


def compose_general(searched: str, checked: Sequence[Evidence] = (),
                    notices: Sequence[Notice] = ()) -> Answer:
    """The reply when nothing answers the question: general knowledge, saying so, no ``used``."""
    draft = _Draft()
    closest = " The closest passages are listed under Sources as checked." if checked else ""
    draft.add(inline_markdown(f"I found nothing in {searched} that answers this, so I can't give "
                              f"a sourced answer.{closest}"), "general-knowledge",
              ["general-knowledge"])
    draft.add(inline_markdown("To get one, attach the file or output that covers it, add it to the "
                              "knowledge folder, or ask again with words from your documents."),
              "general-knowledge", ["general-knowledge"])
    for evidence in checked:
        draft.entries.append(source_entry(evidence.ref, "checked", snippet=evidence.hit.text,
                                          confidence=evidence.coverage, hit=evidence.hit))
    _add_notices(draft, notices)
    draft.add(GENERAL_NOTE, "general-knowledge", ["general-knowledge"])
    return draft.finish()


def compose_listing(refs: Sequence[SourceRef], total: int, scope: str) -> Answer:
    """A folder listing: the files as ``listed`` entries and as list items (never targeted)."""
    draft = _Draft()
    shown = list(refs[:LISTING_MAX_ENTRIES])
    if not shown:
        draft.add(inline_markdown(f"I found no text files in {scope}."), "general-knowledge",
                  ["general-knowledge"])
        draft.add(LISTING_NOTE, None)
        return draft.finish()
    plural = "s" if total != 1 else ""
    more = f"; the first {len(shown)} are listed here" if total > len(shown) else ""
    draft.add(inline_markdown(f"I found {total} text file{plural} in {scope}{more}:"),
              "source-backed", ["connector-browse"])
    items = "\n".join(f"- {inline_markdown(ref.title)}" for ref in shown)
    draft.add(items, "source-backed", ["connector-browse"])
    draft.entries.extend(source_entry(ref, "listed") for ref in shown)
    draft.add(LISTING_NOTE, None)
    return draft.finish()
