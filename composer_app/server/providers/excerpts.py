"""Excerpts of retrieved passages, written as Markdown that cannot change the block structure.

Invariants: ``inline_markdown`` returns one line whose every Markdown-significant character is
backslash-escaped, so quoted text renders literally and never opens a block, link, emphasis or HTML;
``fenced`` returns a fence longer than any backtick or tilde run inside its content, so the content
cannot close it; excerpts are chosen from the passage's own text (marked by FTS5 ``highlight()``),
never rewritten: an excerpt is made of whole sentences (``sentences`` never cuts inside an
abbreviation, a decimal number or a version), and sentences that were not next to each other in the
passage are joined by `` … `` so no omission is hidden.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from composer_app.server.providers.passage_store import MARK_CLOSE, MARK_OPEN, unmark

EXCERPT_MAX_CHARS = 600
CODE_CONTEXT_LINES = 2
CODE_MAX_LINES = 14

_ESCAPED = re.compile(r"([\\`*_\[\]<>#|!~&{}])")
_SPACES = re.compile(r"\s+")
_LEADING_MARKER = re.compile(r"^(\d{1,9})([.)])")
_MARKED = re.compile(f"{MARK_OPEN}([^{MARK_CLOSE}]*){MARK_CLOSE}")
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*(\s+)(?=[\"'“‘(\[]*[A-Z0-9À-Ý])")
_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|dr|mr|mrs|ms|prof|st|no|nr|fig|cf|ca|resp|ext|tel|dept|ref|"
    r"[A-Za-z])\.|\.\.\.)[\"'”’)\]]*$", re.IGNORECASE)
OMISSION = " … "
_LINE_PREFIX = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)")
_HEADING = re.compile(r"^\s*#{1,6}\s")
_LANGUAGES = {
    ".py": "python", ".js": "javascript", ".ts": "typescript", ".tsx": "tsx", ".rs": "rust",
    ".go": "go", ".java": "java", ".c": "c", ".h": "c", ".cpp": "cpp", ".sh": "bash",
    ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".sql": "sql",
    ".html": "html", ".css": "css", ".rb": "ruby",
}


def inline_markdown(text: str) -> str:
    """``text`` on one line, rendered literally by CommonMark (see the module invariant)."""
    escaped = _ESCAPED.sub(r"\\\1", _SPACES.sub(" ", text).strip())
    escaped = _LEADING_MARKER.sub(r"\1\\\2", escaped, count=1)
    return "\\" + escaped if escaped[:1] in ("-", "+", "=") else escaped


def fenced(content: str, language: str = "") -> str:
    """A fenced code block holding ``content`` verbatim."""
    longest = max((len(run) for run in re.findall(r"`+|~+", content)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{content}\n{fence}"


def language_for(name: str) -> str:
    """The fence info string for a file name (empty when unknown)."""
    return _LANGUAGES.get(PurePosixPath(name).suffix.lower(), "")


def marked_terms(marked: str) -> set[str]:
    """The distinct matched tokens (case-folded) of a highlighted text."""
    return {m.casefold() for m in _MARKED.findall(marked)}


def sentences(line: str) -> list[str]:
    """The sentences of one block of text (a joined paragraph), whole and in order."""
    text = line.strip()
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        pieces.append(text[start : match.start(1)])
        start = match.end(1)
    pieces.append(text[start:])
    parts: list[str] = []
    for piece in pieces:
        if parts and _ABBREVIATION.search(unmark(parts[-1])):
            parts[-1] = f"{parts[-1]} {piece}"
        elif piece.strip():
            parts.append(piece.strip())
    return parts


def prose_excerpt(marked: str, max_chars: int = EXCERPT_MAX_CHARS, max_sentences: int = 3) -> str:
    """The passage's best-matching whole sentences, in their original order, as plain text;
    sentences that were apart in the passage are joined by ``OMISSION``."""
    units: list[tuple[int, str, bool]] = []
    for line in marked.split("\n"):
        heading = _HEADING.match(unmark(line)) is not None
        stripped = _LINE_PREFIX.sub("", line).strip()
        for sentence in sentences(stripped):
            units.append((len(units), sentence, heading))
        units.append((len(units), "", True))  # a block boundary: never adjacent across it
    units = [u for u in units if u[1] or u[2]]
    if not any(u[1] for u in units):
        return ""
    scored = [(len(marked_terms(s)), i, s, h) for i, s, h in units if s]
    body = [u for u in scored if not u[3] and u[0] > 0] or [u for u in scored if u[0] > 0]
    if not body:
        body = [scored[0]]
    chosen: list[tuple[int, str]] = []
    total = 0
    for _, index, sentence, _ in sorted(body, key=lambda u: (-u[0], u[1]))[:max_sentences]:
        plain = unmark(sentence)
        if chosen and total + len(plain) > max_chars:
            continue
        chosen.append((index, plain))
        total += len(plain) + 1
    return join_sentences(sorted(chosen))


def join_sentences(indexed: list[tuple[int, str]]) -> str:
    """Sentences with their positions joined in order, ``OMISSION`` between non-neighbours."""
    text = ""
    previous: int | None = None
    for index, sentence in indexed:
        if previous is None:
            text = sentence
        else:
            text += (" " if index == previous + 1 else OMISSION) + sentence
        previous = index
    return text


def best_sentence(marked: str) -> str:
    """The passage's single best-matching sentence as plain text (its direct answer)."""
    return prose_excerpt(marked, max_sentences=1)


def code_excerpt(marked: str, first_line: int) -> tuple[str, int, int]:
    """The lines around the densest cluster of matches of a code passage and their line numbers
    (inclusive): hits closer than ``2 * CODE_CONTEXT_LINES`` lines form one cluster, the cluster
    with the most distinct matched terms wins (the first on a tie)."""
    lines = marked.split("\n")
    hits = [i for i, line in enumerate(lines) if MARK_OPEN in line] or [0]
    clusters: list[list[int]] = [[hits[0]]]
    for hit in hits[1:]:
        if hit - clusters[-1][-1] <= 2 * CODE_CONTEXT_LINES:
            clusters[-1].append(hit)
        else:
            clusters.append([hit])

    def strength(cluster: list[int]) -> int:
        return len(set().union(*(marked_terms(lines[i]) for i in cluster)))

    best = max(clusters, key=strength)  # max keeps the first of equals
    start = max(best[0] - CODE_CONTEXT_LINES, 0)
    end = min(best[-1] + CODE_CONTEXT_LINES, start + CODE_MAX_LINES - 1, len(lines) - 1)
    while end > start and not lines[end].strip():
        end -= 1
    while start < end and not lines[start].strip():
        start += 1
    excerpt = "\n".join(unmark(line) for line in lines[start : end + 1])
    return excerpt, first_line + start, first_line + end
