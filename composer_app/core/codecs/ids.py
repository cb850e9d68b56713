"""Context ids from producer ids (docs/contract.md §8).

Producers keep their own id grammars; ids are folded into ``ContextId`` form at the record boundary.

Invariants: ``to_context_id`` returns a string that fullmatches ``[A-Za-z0-9_-]{1,128}``; it
returns a valid id unchanged; it is deterministic and hashes the original id as UTF-16 code
units (lone surrogates included), so a JavaScript peer computes the same value.
"""

from __future__ import annotations

import re
import sys
from array import array

from composer_app.core.limits import SLUG_MAX_CHARS

__all__ = [
    "hash16",
    "producer_id_from_context_id",
    "to_context_id",
    "to_kind_scoped_context_id",
]

_CONTEXT_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")
_NOT_ID_RUN = re.compile(r"[^A-Za-z0-9_-]+")

_FNV_PRIME = 0x01000193
_FORWARD_BASIS = 0x811C9DC5
_REVERSE_BASIS = 0x9DC5811C
_MASK = 0xFFFFFFFF


def _utf16_units(value: str) -> array[int]:
    native = "utf-16-be" if sys.byteorder == "big" else "utf-16-le"
    return array("H", value.encode(native, "surrogatepass"))


def _fnv1a(units: array[int], basis: int, *, reverse: bool) -> int:
    h = basis
    for unit in reversed(units) if reverse else units:
        h = ((h ^ unit) * _FNV_PRIME) & _MASK
    return h


def hash16(producer_id: str) -> str:
    """Two 32-bit FNV-1a passes over the UTF-16 code units (forward, then reversed): 16 hex."""
    units = _utf16_units(producer_id)
    forward = _fnv1a(units, _FORWARD_BASIS, reverse=False)
    backward = _fnv1a(units, _REVERSE_BASIS, reverse=True)
    return f"{forward:08x}{backward:08x}"


def to_context_id(producer_id: str) -> str:
    """``producer_id`` if it is a valid ``ContextId`` (untrimmed), else ``slug-<hash16>``."""
    if _CONTEXT_ID.fullmatch(producer_id) is not None:
        return producer_id
    slug = _NOT_ID_RUN.sub("-", producer_id).strip("-")[:SLUG_MAX_CHARS]
    return (slug or "ctx") + "-" + hash16(producer_id)


def to_kind_scoped_context_id(kind: str, producer_id: str) -> str:
    """``to_context_id(kind + "_" + producer_id)``; always scoped, even if already prefixed."""
    return to_context_id(kind + "_" + producer_id)


def producer_id_from_context_id(kind: str, context_id: str) -> str:
    """``context_id`` without one leading ``kind + "_"`` (used when importing records,
    docs/contract.md §10)."""
    prefix = kind + "_"
    if context_id.startswith(prefix):
        return context_id[len(prefix) :]
    return context_id
