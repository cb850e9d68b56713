"""Display safety of source metadata (docs/sources.md §5.2, §5.3).

Invariant: a value for which ``is_display_safe`` is false never reaches a display field — it is a
placeholder (``unknown``, ``#unknown``, ``n/a``, ...) or looks like an opaque identifier (a UUID, a
Slack-style id, a long digit run, a long base64/hex-like token, or one of the entry's private ids).
Numbers and booleans are always safe; a list is safe when at least one of its items is (and keeps
only those, ``display_safe_value``). This module is a leaf: it imports only ``core.text``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from composer_app.core.text import WS, trim, utf16_len

PLACEHOLDERS = frozenset(
    {
        "",
        "unknown",
        "#unknown",
        "@unknown",
        "(unknown)",
        "unknown channel",
        "unknown user",
        "undefined",
        "null",
        "none",
        "n/a",
    }
)

_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
_SLACK_ID = re.compile(r"[CDGUWB](?=[A-Z0-9]*[0-9])[A-Z0-9]{8,}")
_DIGIT_RUN = re.compile(r"[0-9]{6,}")
_LETTER = re.compile(r"[A-Za-z]")
_DIGIT = re.compile(r"[0-9]")
_WS_CHAR = re.compile(f"[{re.escape(WS)}]")
# RFC 3339 full-date, optionally followed by a time and an offset (the ≥ 20-unit rule exempts them).
_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"(?:[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2})?)?"
)
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_OPAQUE_MIN_CHARS = 20

MetadataValue = str | int | float | bool | list[str]


def is_placeholder(value: str) -> bool:
    """True for a placeholder label (docs/sources.md §5.2), compared after trimming and
    case-folding."""
    return trim(value).casefold() in PLACEHOLDERS


def is_opaque_id(value: str, private_ids: Iterable[str] = ()) -> bool:
    """True when the trimmed ``value`` looks like an opaque identifier (docs/sources.md §5.2)."""
    text = trim(value)
    if _UUID.fullmatch(text) or _SLACK_ID.fullmatch(text) or _DIGIT_RUN.fullmatch(text):
        return True
    if (
        utf16_len(text) >= _OPAQUE_MIN_CHARS
        and _WS_CHAR.search(text) is None
        and _LETTER.search(text) is not None
        and _DIGIT.search(text) is not None
        and _TIMESTAMP.fullmatch(text) is None
        and _EMAIL.fullmatch(text) is None
    ):
        return True
    return any(text == trim(private) and text for private in private_ids)


def is_display_safe(value: object, private_ids: Iterable[str] = ()) -> bool:
    """The display-safety test of docs/sources.md §5.2 for one metadata value or label.

    Strings fail when they are placeholders or opaque ids; numbers and booleans pass; a list passes
    when at least one item passes (``display_safe_value`` keeps only those); anything else fails.
    """
    ids = tuple(private_ids)
    if isinstance(value, bool | int | float):
        return True
    if isinstance(value, str):
        return not is_placeholder(value) and not is_opaque_id(value, ids)
    if isinstance(value, list):
        return any(isinstance(item, str) and is_display_safe(item, ids) for item in value)
    return False


def display_safe_value(
    value: MetadataValue, private_ids: Iterable[str] = ()
) -> MetadataValue | None:
    """``value`` reduced to its display-safe part, or ``None`` when nothing of it is safe."""
    ids = tuple(private_ids)
    if isinstance(value, list):
        kept = [item for item in value if is_display_safe(item, ids)]
        return kept or None
    return value if is_display_safe(value, ids) else None
