"""The serving process's heap once startup is done: what startup built is kept out of the way of
the garbage collector.

Invariants: ``settle()`` runs one full collection first, so no garbage cycle left by startup is
kept, then freezes every object that survived it (``gc.freeze``). A full collection stops the whole
event loop for as long as it takes to traverse every object it tracks, and startup leaves hundreds
of thousands of them (modules, the store, the provider, the app's routes): a serving process's
full collections took 70-90 ms, every in-flight request waiting through them at once. Frozen
objects are no longer traversed, so a later full collection costs only what was allocated since.
Frozen objects are still freed by reference counting; only a cycle among them would never be
collected. Only a server that has its process to itself settles its heap (``composer-server
serve``, the desktop app's server process); a server sharing a process with something else (a
test, a server on a thread of another program) leaves that process's heap alone.
"""

from __future__ import annotations

import gc


def settle() -> int:
    """Collect, then freeze what survived; the number of objects frozen in all."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
