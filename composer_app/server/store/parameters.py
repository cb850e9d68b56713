"""Parameters of server-side prepared statements in text format (the PostgreSQL store's hot path).

Invariants: ``numbered(sql)`` is ``sql`` with each ``?`` (left to right) replaced by ``$1``,
``$2``, … and encoded as UTF-8; ``count(sql)`` is its number of ``?``. ``encode(params)`` gives one
type OID and one text value per parameter, which the server reads back as the same value: ``None``
is NULL of type 0; an ``int`` within ``bigint`` is its decimal digits typed ``int8``; a ``bool``
``t``/``f`` typed ``bool``; a ``str`` its UTF-8 bytes of type 0, so the server infers its type
from the statement the way it types a quoted literal (a column, a function's argument). A string
holding NUL (which a text parameter cannot carry: libpq would cut it short there) or a lone
surrogate raises ``DataError``; any other value (an ``int`` beyond ``bigint`` too) raises
``TypeError``, and the caller lets the driver encode that statement's parameters. A statement
prepared for one list of types serves every later call with the same types.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg import DataError

UNKNOWN = 0
BOOL = 16
INT8 = 20
_INT8_RANGE = range(-(2**63), 2**63)

_NUMBERED: dict[str, tuple[bytes, int]] = {}
_NUMBERED_LIMIT = 4096


def _numbering(sql: str) -> tuple[bytes, int]:
    known = _NUMBERED.get(sql)
    if known is None:
        parts = sql.split("?")
        out = [parts[0]]
        for i, part in enumerate(parts[1:], 1):
            out.append(f"${i}")
            out.append(part)
        known = ("".join(out).encode("utf-8"), len(parts) - 1)
        if len(_NUMBERED) >= _NUMBERED_LIMIT:
            _NUMBERED.clear()
        _NUMBERED[sql] = known
    return known


def numbered(sql: str) -> bytes:
    """``sql`` with ``$n`` placeholders, as UTF-8."""
    return _numbering(sql)[0]


def count(sql: str) -> int:
    """How many ``?`` placeholders ``sql`` holds."""
    return _numbering(sql)[1]


def encode(params: Sequence[Any]) -> tuple[tuple[int, ...], list[bytes | None]]:
    """The type OIDs and text values of ``params`` (see the module invariants)."""
    types: list[int] = []
    values: list[bytes | None] = []
    for value in params:
        if isinstance(value, str):
            if "\x00" in value:
                raise DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
            try:
                values.append(value.encode("utf-8"))
            except UnicodeEncodeError as exc:
                raise DataError(f"a parameter is not valid text: {exc.reason}") from exc
            types.append(UNKNOWN)
        elif value is None:
            values.append(None)
            types.append(UNKNOWN)
        elif isinstance(value, bool):
            values.append(b"t" if value else b"f")
            types.append(BOOL)
        elif isinstance(value, int) and value in _INT8_RANGE:
            values.append(str(value).encode("ascii"))
            types.append(INT8)
        else:
            raise TypeError(f"no text parameter for {type(value).__name__}")
    return tuple(types), values
