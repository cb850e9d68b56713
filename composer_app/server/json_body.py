"""Request bodies as JSON: size-limited, depth-limited, strict, parsed off the event loop.

Invariants: a body is read only up to its route's limit (``413 too_large`` past it); its nesting
depth is checked before it is parsed; numbers with more than ``MAX_INT_DIGITS`` digits, ``NaN`` and
``Infinity``, malformed UTF-8 and malformed JSON are ``400 invalid_command``; so is any string
(dict keys included) no store can hold: a lone UTF-16 surrogate or a NUL character, on every store.
Bodies over ``INLINE_PARSE_BYTES`` are checked and parsed in a worker thread, so a large body never
stalls other requests.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable

from starlette.requests import Request

from composer_app.core.json_depth import within_depth
from composer_app.core.storable_text import value_problem
from composer_app.server.errors import invalid
from composer_app.server.services import read_limited

MAX_JSON_DEPTH = 64
MAX_INT_DIGITS = 18  # every integer of the API fits a signed 64-bit column
INLINE_PARSE_BYTES = 64 * 1024
_SUSPECT_ESCAPE = re.compile(rb"\\u(?:[dD][89a-fA-F]|0000)")


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError("number too large")
    return int(text)


def parse_json(body: bytes) -> object:
    """Strict, bounded JSON of a request body; ``400 invalid_command`` when it is not."""
    if not within_depth(body, MAX_JSON_DEPTH):
        raise invalid(f"The request body nests deeper than {MAX_JSON_DEPTH} levels.")
    try:
        value: object = json.loads(body.decode("utf-8"), parse_constant=_reject_constant,
                                   parse_int=_bounded_int)
    except RecursionError:
        raise invalid(f"The request body nests deeper than {MAX_JSON_DEPTH} levels.") from None
    except ValueError as exc:
        if "number too large" in str(exc):
            raise invalid(f"A number in the request has more than {MAX_INT_DIGITS} digits."
                          ) from None
        raise invalid("The request body is not valid JSON.") from None
    if _SUSPECT_ESCAPE.search(body):  # only escapes can smuggle surrogates and NUL into JSON
        problem = value_problem(value)
        if problem is not None:
            raise invalid(f"The request has {problem}; it cannot be stored.")
    return value


async def off_loop[T](body: bytes, work: Callable[[bytes], T]) -> T:
    """``work(body)``, in a worker thread when the body is large."""
    if len(body) <= INLINE_PARSE_BYTES:
        return work(body)
    return await asyncio.to_thread(work, body)


async def read_json(request: Request, limit: int) -> object:
    """The request's JSON body (at most ``limit`` bytes), parsed as ``parse_json`` does."""
    return await off_loop(await read_limited(request, limit), parse_json)
