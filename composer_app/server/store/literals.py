"""SQL literals for statements bound in the client (the PostgreSQL store's hot path).

Invariants: ``bind(sql, params)`` replaces each ``?`` of ``sql`` (left to right) by the literal of
the matching parameter and needs exactly one parameter per ``?``. A literal reads back as the same
value whatever the server's ``standard_conforming_strings``: ``None`` is ``NULL``, an ``int`` its
decimal digits (a negative one in parentheses, so ``- -1`` never becomes a ``--`` comment and a
cast applies to the whole number), a ``bool`` ``true``/``false``, a ``str`` a quoted string with
``'`` doubled (and, when it holds a backslash, the ``E''`` form with ``\\`` doubled too). A
string holding NUL (which PostgreSQL text cannot store and which would cut the statement short) or
a lone surrogate raises ``DataError``; any other type raises ``TypeError`` (the caller binds those
statements with the driver).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg import DataError, ProgrammingError

_SPLITS: dict[str, list[str]] = {}
_SPLITS_LIMIT = 4096


def literal(value: Any) -> str:
    """The SQL literal of ``value`` (see the module invariants)."""
    if isinstance(value, str):
        if "\x00" in value:
            raise DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        if "\\" in value:
            return " E'" + value.replace("\\", "\\\\").replace("'", "''") + "'"
        return "'" + value.replace("'", "''") + "'"
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if value >= 0 else f"({value})"
    raise TypeError(f"no client-side literal for {type(value).__name__}")


def bind(sql: str, params: Sequence[Any]) -> bytes:
    """``sql`` with its ``?`` placeholders replaced by literals, encoded as UTF-8."""
    parts = _SPLITS.get(sql)
    if parts is None:
        parts = sql.split("?")
        if len(_SPLITS) >= _SPLITS_LIMIT:
            _SPLITS.clear()
        _SPLITS[sql] = parts
    if len(parts) != len(params) + 1:
        raise ProgrammingError(
            f"the query has {len(parts) - 1} placeholders but {len(params)} parameters")
    out = [parts[0]]
    for value, part in zip(params, parts[1:], strict=True):
        out.append(literal(value))
        out.append(part)
    try:
        return "".join(out).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise DataError(f"a parameter is not valid text: {exc.reason}") from exc
