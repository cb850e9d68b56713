"""Server-sent events, decoded line by line into the ``data`` of each event.

Invariants: an event's data is its ``data:`` lines joined with ``\\n`` (one optional space after the
colon removed), dispatched at the blank line that ends it or at ``close``; comments (``:``) and
other fields (``event``, ``id``, ``retry``) are ignored; an event without data yields nothing.
"""

from __future__ import annotations


class SseDecoder:
    """Feed lines (without their line ending); get back the data of each completed event."""

    def __init__(self) -> None:
        self._data: list[str] = []

    def feed(self, line: str) -> list[str]:
        """The data of the event this line completes, if any."""
        line = line.rstrip("\r\n")
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return []
        field, _, value = line.partition(":")
        if field == "data":
            self._data.append(value.removeprefix(" "))
        return []

    def close(self) -> list[str]:
        """The data of an event left open when the stream ended."""
        return self._dispatch()

    def _dispatch(self) -> list[str]:
        if not self._data:
            return []
        data, self._data = "\n".join(self._data), []
        return [data]
