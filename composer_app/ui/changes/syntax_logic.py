"""Syntax highlighting of diff lines with Pygments (Qt-free).

``highlight_lines(path, lines)`` lexes the lines as one text (so strings and comments that span
lines are coloured right) and returns, per line, its styled spans ``(start, end, style)`` in
Python ``str`` indices. ``TokenStyle`` carries a colour and weight from a Pygments style.

Invariants: every span lies inside its line and spans do not overlap; an unknown file type gives
no spans (plain text), never an error; lexing is skipped (no spans) for texts longer than
``MAX_HIGHLIGHT_CHARS``, so a huge generated file cannot stall the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_for_filename
from pygments.styles import get_style_by_name
from pygments.token import Token, _TokenType
from pygments.util import ClassNotFound

MAX_HIGHLIGHT_CHARS = 400_000
LIGHT_STYLE = "default"
DARK_STYLE = "monokai"


@dataclass(frozen=True)
class TokenStyle:
    """How one kind of token looks: ``color`` is ``#rrggbb`` or empty for the default."""

    color: str
    bold: bool = False
    italic: bool = False


Span = tuple[int, int, TokenStyle]


@lru_cache(maxsize=64)
def _lexer(name: str) -> Lexer | None:
    try:
        return get_lexer_for_filename(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@lru_cache(maxsize=4)
def _styles(style_name: str) -> dict[_TokenType, TokenStyle]:
    style = get_style_by_name(style_name)
    table: dict[_TokenType, TokenStyle] = {}
    for ttype, _ in style:
        info = style.style_for_token(ttype)
        color = f"#{info['color']}" if info.get("color") else ""
        table[ttype] = TokenStyle(color, bool(info.get("bold")), bool(info.get("italic")))
    return table


def _style_of(ttype: _TokenType, table: dict[_TokenType, TokenStyle]) -> TokenStyle | None:
    while ttype not in table and ttype.parent is not None:
        ttype = ttype.parent
    found = table.get(ttype)
    return found if found is not None and (found.color or found.bold or found.italic) else None


def has_lexer(path: str) -> bool:
    """True when Pygments knows the file type of ``path``."""
    return _lexer(path.rsplit("/", 1)[-1]) is not None


def highlight_lines(path: str, lines: list[str], *, dark: bool = False) -> list[list[Span]]:
    """Styled spans per line of ``lines`` (lexed together as the file ``path``)."""
    result: list[list[Span]] = [[] for _ in lines]
    lexer = _lexer(path.rsplit("/", 1)[-1])
    text = "\n".join(lines)
    if lexer is None or not lines or len(text) > MAX_HIGHLIGHT_CHARS:
        return result
    table = _styles(DARK_STYLE if dark else LIGHT_STYLE)
    row = 0
    column = 0
    for ttype, value in lexer.get_tokens(text):
        style = _style_of(ttype, table) if ttype is not Token.Text else None
        pieces = value.split("\n")
        for i, piece in enumerate(pieces):
            if i:
                row += 1
                column = 0
            if row >= len(lines):
                return result
            end = min(column + len(piece), len(lines[row]))
            if style is not None and end > column:
                result[row].append((column, end, style))
            column = end
    return result
