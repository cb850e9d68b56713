"""``ReadOrder``: answers to repeated reads of the same data applied in the order asked.

Invariant: once the answer to read *n* was applied, the answer to any read before *n* is dropped
(it was read earlier and could only take the view back to an older state); answers to later reads
still apply as they come, so a slow read never hides a faster, newer one. Qt-free.
"""

from __future__ import annotations

__all__ = ["ReadOrder"]


class ReadOrder:
    """Numbers the reads of one view and says which answers may still be applied."""

    def __init__(self) -> None:
        self._asked = 0
        self._applied = 0

    def ask(self) -> int:
        """The number of a new read."""
        self._asked += 1
        return self._asked

    def applies(self, read: int) -> bool:
        """True (and remembered) unless an answer to a later read was applied already."""
        if read <= self._applied:
            return False
        self._applied = read
        return True
