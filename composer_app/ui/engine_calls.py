"""``EngineCalls``: the window's one way to ask the sync engine for something.

Invariants: every engine method runs off the GUI thread through ``SyncBridge.request``, and its
``then(result, error)`` callback runs on the GUI thread at most once — at once, with the error, when
the engine is not running; a closed window makes no more calls (the engine may already be
stopped); a failed command shows its error in the status bar.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Slot


class EngineCalls:
    """Mixin of ``MainWindow``; expects ``bridge``, ``_callbacks``, ``_closed`` and ``status``."""

    def call(self, method: str, *args: Any, then: Callable[[Any, str], None] | None = None,
             **kwargs: Any) -> int:
        """Call an engine method off the GUI thread; ``then(result, error)`` runs on it.

        A closed window makes no more calls (the engine may already be stopped)."""
        if self._closed:
            return -1
        try:
            request_id = self.bridge.request(method, *args, **kwargs)
        except RuntimeError as exc:  # the engine is not running
            if then is not None:
                then(None, str(exc))
            return -1
        if then is not None:
            self._callbacks[request_id] = then
        return request_id

    @Slot(int, object, str)
    def _on_bridge_request_finished(self, request_id: int, result: Any, error: str) -> None:
        then = self._callbacks.pop(request_id, None)
        if then is not None:
            then(result, error)

    def _on_command_done(self, _result: Any, error: str) -> None:
        if error:
            self.status.showMessage(error, 8000)
