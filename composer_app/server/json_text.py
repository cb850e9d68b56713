"""Compact JSON text on the server's hot paths, from encoders made once instead of per call.

Invariants: ``compact(value)`` is the text of ``json.dumps(value, ensure_ascii=False,
separators=(",", ":"))``, ``canonical(value)`` the same with ``sort_keys=True``, and
``strict(value)`` the same as ``compact`` but raising ``ValueError`` for NaN and infinities (what
Starlette's ``JSONResponse`` writes), for every JSON value (dicts with string keys, lists, strings,
numbers, booleans, None); anything else raises ``TypeError``. ``json.dumps`` builds a new encoder
on every call; these reuse one each, and do not look for reference cycles (the values are trees
the server built or parsed: a cycle would raise ``RecursionError`` instead of ``ValueError``).
"""

from __future__ import annotations

import json.encoder
from collections.abc import Callable
from json.encoder import JSONEncoder, encode_basestring
from typing import Any

_C_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)  # None without the accelerator


def _encoder(*, sort_keys: bool, allow_nan: bool) -> Callable[[Any], str]:
    default = JSONEncoder().default  # raises TypeError for what JSON cannot hold
    if _C_ENCODER is None:
        return JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys,
                           allow_nan=allow_nan, check_circular=False).encode
    made = _C_ENCODER(None, default, encode_basestring, None, ":", ",", sort_keys, False,
                      allow_nan)

    def encode(value: Any) -> str:
        return "".join(made(value, 0))

    return encode


compact = _encoder(sort_keys=False, allow_nan=True)
canonical = _encoder(sort_keys=True, allow_nan=True)
strict = _encoder(sort_keys=False, allow_nan=False)
