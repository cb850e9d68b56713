"""Field types of the wire contract (docs/contract.md §0.3, §0.4) as pydantic annotations.

Invariants: every bound is counted in UTF-16 code units; strings are never coerced from other JSON
types; integers are JSON integers (``3`` or ``3.0``) in ``0 ≤ n ≤ 2**53 - 1``, never booleans;
``Trimmed`` values are trimmed with the JavaScript whitespace set and the trimmed value is kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Strict

from composer_app.core.limits import (
    CONTEXT_ID_MAX_CHARS,
    ELEMENT_HTML_MAX_CHARS,
    ELEMENT_STYLES_MAX_CHARS,
    FENCE_LANGUAGE_MAX_CHARS,
    JSON_SAFE_INT_MAX,
    KIND_MAX_CHARS,
    LABEL_MAX_CHARS,
    MIME_TYPE_MAX_CHARS,
    NAME_MAX_CHARS,
    PATH_MAX_CHARS,
    PREVIEW_COMMENT_MAX_CHARS,
    REVIEW_DIFF_MAX_CHARS,
    REVIEW_TEXT_MAX_CHARS,
    SHORT_STRING_MAX_CHARS,
    SOURCE_REVISION_MAX_CHARS,
    STYLE_VALUE_MAX_CHARS,
    TERMINAL_TEXT_MAX_CHARS,
    THREAD_REF_MAX_CHARS,
    TRIMMED_ID_MAX_CHARS,
)
from composer_app.core.text import WS, utf16_len

_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]+")
KIND_PATTERN = re.compile(f"[a-z][a-z0-9-]{{0,{KIND_MAX_CHARS - 1}}}")


def _bounded(max_units: int) -> Callable[[str], str]:
    def check(value: str) -> str:
        # utf16_len(value) >= len(value), so the first test alone already proves "too long".
        if len(value) > max_units or (not value.isascii() and utf16_len(value) > max_units):
            raise ValueError(f"must be at most {max_units} UTF-16 units")
        return value

    return check


def _trimmed(max_units: int, pattern: re.Pattern[str] | None = None) -> Callable[[str], str]:
    def check(value: str) -> str:
        value = value.strip(WS)
        if not value:
            raise ValueError("must not be empty after trimming")
        if utf16_len(value) > max_units:
            raise ValueError(f"must be at most {max_units} UTF-16 units after trimming")
        if pattern is not None and pattern.fullmatch(value) is None:
            raise ValueError(f"must match {pattern.pattern}")
        return value

    return check


def json_int(value: Any) -> int:
    """Accept a JSON integer (``3`` or ``3.0``) in the safe range; reject booleans."""
    if isinstance(value, bool):
        raise ValueError("must be an integer, not a boolean")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError("must be an integral number")
        value = int(value)
    if not isinstance(value, int):
        raise ValueError("must be an integer")
    if value < 0 or value > JSON_SAFE_INT_MAX:
        raise ValueError(f"must be between 0 and {JSON_SAFE_INT_MAX}")
    return value


def _positive(value: int) -> int:
    if value < 1:
        raise ValueError("must be a positive integer")
    return value


def json_version(value: Any) -> int:
    """The contract version: exactly the integer 1 (``1.0`` counts; ``True`` does not)."""
    if json_int(value) != 1:
        raise ValueError("must be 1")
    return 1


def not_null(value: Any) -> Any:
    """Optional (non-nullable) fields: an explicit JSON null is invalid (docs/contract.md §0.3)."""
    if value is None:
        raise ValueError("must not be null (omit the key instead)")
    return value


# ``Text(n)``: at most n units, may be empty, not trimmed.
Label = Annotated[str, Strict(), AfterValidator(_bounded(LABEL_MAX_CHARS))]
TerminalText = Annotated[str, Strict(), AfterValidator(_bounded(TERMINAL_TEXT_MAX_CHARS))]
HtmlText = Annotated[str, Strict(), AfterValidator(_bounded(ELEMENT_HTML_MAX_CHARS))]
StylesText = Annotated[str, Strict(), AfterValidator(_bounded(ELEMENT_STYLES_MAX_CHARS))]
CommentText = Annotated[str, Strict(), AfterValidator(_bounded(PREVIEW_COMMENT_MAX_CHARS))]
StyleValue = Annotated[str, Strict(), AfterValidator(_bounded(STYLE_VALUE_MAX_CHARS))]
ReviewText = Annotated[str, Strict(), AfterValidator(_bounded(REVIEW_TEXT_MAX_CHARS))]
DiffText = Annotated[str, Strict(), AfterValidator(_bounded(REVIEW_DIFF_MAX_CHARS))]
FenceLanguage = Annotated[str, Strict(), AfterValidator(_bounded(FENCE_LANGUAGE_MAX_CHARS))]
SourceRevision = Annotated[str, Strict(), AfterValidator(_bounded(SOURCE_REVISION_MAX_CHARS))]
TitleText = Annotated[str, Strict(), AfterValidator(_bounded(LABEL_MAX_CHARS))]
# ``Trimmed(n)``: trimmed, then non-empty and at most n units.
Name = Annotated[str, Strict(), AfterValidator(_trimmed(NAME_MAX_CHARS))]
MimeType = Annotated[str, Strict(), AfterValidator(_trimmed(MIME_TYPE_MAX_CHARS))]
PathText = Annotated[str, Strict(), AfterValidator(_trimmed(PATH_MAX_CHARS))]
ThreadRef = Annotated[str, Strict(), AfterValidator(_trimmed(THREAD_REF_MAX_CHARS))]
AttachmentId = Annotated[str, Strict(), AfterValidator(_trimmed(TRIMMED_ID_MAX_CHARS, _ID_PATTERN))]
ShortString = Annotated[str, Strict(), AfterValidator(_bounded(SHORT_STRING_MAX_CHARS))]
ContextId = Annotated[str, Strict(), AfterValidator(_trimmed(CONTEXT_ID_MAX_CHARS, _ID_PATTERN))]
JsonInt = Annotated[int, BeforeValidator(json_int)]
PositiveInt = Annotated[int, BeforeValidator(json_int), AfterValidator(_positive)]
StrictBool = Annotated[bool, Strict()]
Version = Annotated[int, BeforeValidator(json_version)]
