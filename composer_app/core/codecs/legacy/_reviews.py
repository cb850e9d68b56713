"""Legacy ``<review_comment>`` blocks, found in place (docs/contract.md §7.2 step 2).

Invariants: a block that cannot become a valid ``ReviewCommentRecord`` stays text; a closing
``</review_comment>`` counts only on a line outside any fence that is not itself a fence line
(docs/contract.md §7.2); terminal, element and preview blocks at a line start are skipped whole, so
review-shaped text inside them stays payload. ``replace_review_blocks`` never raises.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from composer_app.core.codecs.labels import review_comment_label
from composer_app.core.codecs.legacy._blocks import (
    ESCAPED_TAGS,
    REVIEW_CLOSE,
    TOKEN_DELIMITER,
    decode_escaped_tags,
    is_line_start,
    parse_int,
    unescape_attribute,
)
from composer_app.core.codecs.references import sanitize_label
from composer_app.core.contracts.records import ReviewCommentRecord, decode_record
from composer_app.core.errors import ContractError
from composer_app.core.text import WS

# A legacy tag candidate: a skipped block's exact opening tag, or the start of a review tag.
_CANDIDATE = re.compile(
    r"<(?:(terminal_context|element_context|preview_annotation)>|review_comment)"
)
_REVIEW_OPEN = re.compile(r'<review_comment((?:[ \t]+[A-Za-z][A-Za-z0-9_-]*="[^"<>]*")*)[ \t]*>')
_ATTRIBUTE = re.compile(r'([A-Za-z][A-Za-z0-9_-]*)="([^"<>]*)"')
_FENCE_CLOSER = re.compile(r"(`+)[ \t]*")
_INDEX = re.compile(r"[0-9]+")
_REVIEW_OPEN_LEN = len("<review_comment")


class Fence(NamedTuple):
    """A closed fence inside a review body: where its opener line starts, its info string, and
    the lines strictly between opener and closer."""

    opener_start: int
    info: str
    lines: list[str]


class ReviewBlocks(NamedTuple):
    """The text with each upgraded block replaced by its token, and the records in order."""

    text: str
    delimiter: str
    records: list[ReviewCommentRecord]


def token_delimiter(text: str) -> str:
    """U+E000 doubled until it does not occur in ``text``."""
    delimiter = TOKEN_DELIMITER
    while delimiter in text:
        delimiter += delimiter
    return delimiter


def _find_close(text: str, body_start: int) -> tuple[int, Fence | None] | None:
    """The index of the closing tag ending the body, and the body's last closed fence."""
    first_close = text.find(REVIEW_CLOSE, body_start)
    if first_close < 0:
        return None
    if text.find("\n```", body_start, first_close) < 0:
        return first_close, None  # no fence opener before the first closing tag
    last_fence: Fence | None = None
    fence_len = 0
    opener_start = 0
    info = ""
    fence_lines: list[str] = []
    pos = body_start
    first = True
    size = len(text)
    while True:
        newline = text.find("\n", pos)
        line_end = size if newline < 0 else newline
        line = text[pos:line_end]
        if line.endswith("\r"):
            line = line[:-1]
        if fence_len:
            closer = _FENCE_CLOSER.fullmatch(line)
            if closer is not None and len(closer.group(1)) >= fence_len:
                last_fence = Fence(opener_start, info, fence_lines)
                fence_len = 0
            else:
                fence_lines.append(line)
        elif not first and line.startswith("```"):
            run = len(line) - len(line.lstrip("`"))
            fence_len, opener_start, info, fence_lines = run, pos, line[run:].strip(WS), []
        else:
            found = line.find(REVIEW_CLOSE)
            if found >= 0:
                return pos + found, last_fence
        if newline < 0:
            return None
        first = False
        pos = newline + 1


def _review_record(
    attributes_text: str, body: str, fence: Fence | None, body_start: int, number: int
) -> ReviewCommentRecord | None:
    attributes: dict[str, str] = {}
    for name, value in _ATTRIBUTE.findall(attributes_text):
        attributes.setdefault(name, unescape_attribute(value))
    file_path = attributes.get("filePath", "")
    section_id = attributes.get("sectionId", "")
    start = attributes.get("startIndex", "")
    end = attributes.get("endIndex", "")
    encoding = attributes.get("bodyEncoding")
    if (
        not file_path
        or not section_id
        or _INDEX.fullmatch(start) is None
        or _INDEX.fullmatch(end) is None
        or encoding not in (None, ESCAPED_TAGS)
    ):
        return None
    wire: dict[str, Any] = {
        "version": 1,
        "contextId": f"legacy_review-comment_{number}",
        "kind": "review-comment",
        "label": "review-comment",
        "sectionId": section_id,
        "sectionTitle": attributes.get("sectionTitle", "").strip(WS) or "Review",
        "filePath": file_path,
        "startIndex": min(parse_int(start), parse_int(end)),
        "endIndex": max(parse_int(start), parse_int(end)),
        "rangeLabel": attributes.get("rangeLabel", "").strip(WS) or "line",
    }
    if fence is None:
        comment, diff = body, ""
    else:
        comment, diff = body[: fence.opener_start - body_start], "\n".join(fence.lines)
        wire["fenceLanguage"] = fence.info or "diff"
    comment = comment.replace("\r\n", "\n").strip(WS)
    if encoding == ESCAPED_TAGS:
        comment, diff = decode_escaped_tags(comment), decode_escaped_tags(diff)
    wire["text"] = comment
    wire["diff"] = diff
    if "sourceRevision" in attributes:
        wire["sourceRevision"] = attributes["sourceRevision"]
    if attributes.get("sourceStale") == "true":
        wire["sourceStale"] = True
    try:
        record = decode_record(wire)
    except ContractError:
        return None
    assert isinstance(record, ReviewCommentRecord)
    label = sanitize_label(review_comment_label(record), "review-comment")
    return record.model_copy(update={"label": label})


def replace_review_blocks(text: str) -> ReviewBlocks:
    """Replace every upgradable review block with ``D<n>D`` (``D`` = ``token_delimiter``)."""
    delimiter = token_delimiter(text)
    records: list[ReviewCommentRecord] = []
    parts: list[str] = []
    kept = 0
    pos = 0
    while True:
        candidate = _CANDIDATE.search(text, pos)
        if candidate is None:
            break
        start = candidate.start()
        skipped = candidate.group(1)
        if skipped is not None:
            if not is_line_start(text, start):
                pos = start + 1
                continue
            close = text.find("</" + skipped + ">", candidate.end())
            pos = candidate.end() if close < 0 else close + len(skipped) + 3
            continue
        opening = _REVIEW_OPEN.match(text, start)
        if opening is None:
            pos = start + _REVIEW_OPEN_LEN
            continue
        body_start = opening.end()
        found = _find_close(text, body_start)
        if found is None:
            pos = body_start
            continue
        close, fence = found
        block_end = close + len(REVIEW_CLOSE)
        record = _review_record(
            opening.group(1), text[body_start:close], fence, body_start, len(records) + 1
        )
        pos = block_end
        if record is None:
            continue
        records.append(record)
        parts.append(text[kept:start])
        parts.append(f"{delimiter}{len(records)}{delimiter}")
        kept = block_end
    if not records:
        return ReviewBlocks(text, delimiter, records)
    parts.append(text[kept:])
    return ReviewBlocks("".join(parts), delimiter, records)
