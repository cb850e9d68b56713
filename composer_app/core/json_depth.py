"""A nesting-depth check for JSON text, run before the text is parsed.

Invariants: brackets inside JSON strings do not count; the check never recurses and never builds
the parsed value, so a document nested 100,000 deep is refused in linear time per level checked
and constant stack; a balanced document within the limit passes whatever else is wrong with it
(the parser reports that). Unbalanced brackets deeper than the limit are refused too.
"""

from __future__ import annotations

_AS_PARENS = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


class JsonTooDeep(ValueError):
    """The document nests arrays and objects deeper than allowed."""


def _brackets(document: bytes | str) -> bytes:
    data = document.encode("utf-8", "surrogatepass") if isinstance(document, str) else document
    # Backslashes occur only inside strings: without escaped backslashes and escaped quotes, every
    # other quote delimits a string, so the even pieces of a split are what lies outside strings.
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    outside = b"".join(unescaped.split(b'"')[::2]).translate(None, _NOT_BRACKETS)
    return outside.translate(_AS_PARENS)


def within_depth(document: bytes | str, limit: int) -> bool:
    """True when every array and object of ``document`` nests at most ``limit`` deep.

    Each pass removes the innermost bracket pairs; a balanced document of depth ``d`` is empty
    after ``d`` passes, so ``limit`` passes decide the question.
    """
    data = document.encode("utf-8", "surrogatepass") if isinstance(document, str) else document
    if data.count(b"[") + data.count(b"{") <= limit:
        return True  # cannot be deeper than the number of its openers
    brackets = _brackets(data)
    for _ in range(limit):
        if not brackets:
            return True
        reduced = brackets.replace(b"()", b"")  # one level: every innermost pair at once
        if len(reduced) == len(brackets):
            break
        brackets = reduced
    return not brackets


def check_json_depth(document: bytes | str, limit: int) -> None:
    """Raise ``JsonTooDeep`` when ``document`` nests deeper than ``limit``."""
    if not within_depth(document, limit):
        raise JsonTooDeep(f"The JSON is nested more than {limit} levels deep.")
