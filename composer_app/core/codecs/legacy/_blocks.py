"""The legacy block grammar shared by the upgrader and the serializer (docs/contract.md §7).

Invariants: lines are split on ``\\n`` only and one ``\\r`` that ends a line is dropped, so
CRLF text parses like LF text (docs/contract.md §7.2); ``decode_escaped_tags(encode_escaped_tags(s))
== s`` for every ``s``; ``materialized_terminal_label`` is the ``@<slug>:<range>`` the old send path
wrote.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from composer_app.core.text import WS, collapse_whitespace

TERMINAL_TAG = "terminal_context"
ELEMENT_TAG = "element_context"
PREVIEW_TAG = "preview_annotation"
REVIEW_TAG = "review_comment"
REVIEW_CLOSE = "</review_comment>"
PLACEHOLDER = "\ufffc"
TOKEN_DELIMITER = "\ue000"
ESCAPED_TAGS = "escaped-tags"
SCREENSHOT_SENTENCE = "The attached screenshot is the annotated preview crop."
STYLE_CHANGES_HEADING = "Requested visual changes:"

# docs/contract.md §7.2 step 1: any legacy tag at a word boundary (the fast exit).
LEGACY_TAG = re.compile(
    r"<(?:terminal_context|element_context|preview_annotation|review_comment)(?![A-Za-z0-9_])"
)
_AMP_BEFORE_ENTITY = re.compile(r"&(?=[Ll][Tt];|[Aa][Mm][Pp];)")
_REVIEW_TAG_OPEN = re.compile(
    r"<(?=/?[Rr][Ee][Vv][Ii][Ee][Ww]_[Cc][Oo][Mm][Mm][Ee][Nn][Tt](?![A-Za-z0-9_]))"
)
_ESCAPED_ENTITY = re.compile(r"&([Ll][Tt]|[Aa][Mm][Pp]);")
_WS_SET = frozenset(WS)
_BACKTICK_RUN = re.compile(r"`+")
_LINE_BREAKS = str.maketrans({"\r": " ", "\n": " "})
_DIGITS_MAX = 16  # more significant digits than any integer the contract accepts (2**53 - 1)
TOO_LARGE = 2**53  # stands for a number the schemas reject


class Entry(NamedTuple):
    """One ``- <header>:`` entry of a terminal or element block, body lines without their indent."""

    header: str
    body: list[str]


class MalformedBlock(ValueError):
    """A terminal or element block that breaks the entry-list grammar (docs/contract.md §7.2 step
    5)."""


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n``, each without one trailing ``\\r``."""
    lines = text.split("\n")
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    return lines


def is_line_start(text: str, index: int) -> bool:
    """Index 0 or an index right after ``\\n``."""
    return index == 0 or text[index - 1] == "\n"


def parse_entries(lines: list[str]) -> list[Entry]:
    """The entries of a block's lines (docs/contract.md §7.2 step 5); raises ``MalformedBlock``.

    Blank lines are skipped; ``- <header>:`` opens an entry; a line starting with two spaces is a
    body line of the current entry; any other line, a body line before the first header, or a
    block without entries is malformed.
    """
    entries: list[Entry] = []
    body: list[str] | None = None
    for line in lines:
        if line.startswith("  "):
            # Most lines are body lines that end with a non-WS character: no full blank check.
            if body is not None and line[-1] not in _WS_SET:
                body.append(line[2:])
                continue
            if not line.strip(WS):
                continue
            if body is None:
                raise MalformedBlock(line)
            body.append(line[2:])
        elif not line.strip(WS):
            continue
        elif line.startswith("- ") and line.endswith(":") and len(line) >= 3:
            body = []
            entries.append(Entry(line[2:-1], body))
        else:
            raise MalformedBlock(line)
    if not entries:
        raise MalformedBlock("no entry")
    return entries


def parse_int(digits: str) -> int:
    """A ``[0-9]+`` string as an int; a value too large for the contract gives ``TOO_LARGE``."""
    if len(digits.lstrip("0")) > _DIGITS_MAX:
        return TOO_LARGE
    return int(digits)


def single_line(value: str) -> str:
    """``value`` with each CR or LF replaced by a space (docs/contract.md §7.3)."""
    return value.translate(_LINE_BREAKS)


def terminal_range(line_start: int, line_end: int) -> str:
    """``N`` for a single line, else ``A-B``."""
    if line_start == line_end:
        return str(line_start)
    return f"{line_start}-{line_end}"


def terminal_slug(terminal_label: str) -> str:
    """The label trimmed, lower-cased, WS runs replaced by ``-``."""
    lowered = terminal_label.strip(WS).lower()
    if lowered.isascii() and lowered.isprintable():
        return "-".join(lowered.split())  # printable ASCII: the space is its only WS character
    return collapse_whitespace(lowered).replace(" ", "-")


def materialized_terminal_label(terminal_label: str, line_start: int, line_end: int) -> str:
    """``@<slug>:<range>``, e.g. ``@terminal-1:509-514``."""
    return "@" + terminal_slug(terminal_label) + ":" + terminal_range(line_start, line_end)


def encode_escaped_tags(value: str) -> str:
    """The ``escaped-tags`` body encoding (docs/contract.md §7.3 step 4): ``&`` before
    ``lt;``/``amp;`` becomes ``&amp;``, then ``<`` that opens or closes a ``review_comment`` tag
    becomes ``&lt;``."""
    if "&" in value:
        value = _AMP_BEFORE_ENTITY.sub("&amp;", value)
    if "<" in value:
        value = _REVIEW_TAG_OPEN.sub("&lt;", value)
    return value


def decode_escaped_tags(value: str) -> str:
    """One left-to-right pass: ``&lt;`` → ``<`` and ``&amp;`` → ``&`` (ASCII case-insensitive)."""
    if "&" not in value:
        return value
    return _ESCAPED_ENTITY.sub(_decoded_entity, value)


def _decoded_entity(match: re.Match[str]) -> str:
    return "<" if match.group(1).lower() == "lt" else "&"


def escape_attribute(value: str) -> str:
    """Review attribute values: ``&`` first, then ``<``, ``>`` and ``"``."""
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def unescape_attribute(value: str) -> str:
    """``&lt;`` ``&gt;`` ``&quot;``, then ``&amp;`` (docs/contract.md §7.2 step 2)."""
    if "&" not in value:
        return value
    return (
        value.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    )


def longest_backtick_run(value: str) -> int:
    """The length of the longest run of backticks in ``value`` (0 when there is none)."""
    if "`" not in value:
        return 0
    return max(len(run) for run in _BACKTICK_RUN.findall(value))
