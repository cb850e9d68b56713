"""Optional modules that libraries of the app try to import and the app never uses, kept out of
the process so they cost nothing at start-up.

Invariants: a module is listed only when every library that imports it does so inside
``try/except ImportError`` and falls back to doing without it, and the app never calls what it
provides: ``httpx._main`` (httpx's command-line tool; it loads ``rich``, ``click`` and
``pygments`` whenever those happen to be installed) and ``pydantic.v1`` (FastAPI only imports it
to refuse pydantic v1 models, which the app has none of). ``skip()`` marks them absent in
``sys.modules`` and never touches one that is already loaded; the desktop app and its server
process call it first thing, libraries and tests never do.
"""

from __future__ import annotations

import sys

__all__ = ["UNUSED", "skip"]

UNUSED = ("httpx._main", "pydantic.v1")


def skip() -> None:
    """Make importing the ``UNUSED`` modules fail with ``ImportError`` in this process."""
    for name in UNUSED:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
