"""Background work for the UI: run a plain function off the GUI thread, get its outcome back as a
queued signal.

Invariants: the function runs on a daemon Python thread and must not touch any ``QObject`` (it
gets and returns plain values); its result or exception comes back through ``finished`` /
``failed`` of the runner, which lives on the GUI thread, so every callback runs there; each job
has a fresh id and its callbacks run at most once; the sync engine is not run here (it has its own
loop and thread).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot


class BackgroundRunner(QObject):
    """Runs functions off the GUI thread and reports back on it."""

    finished = Signal(int, object)
    failed = Signal(int, object)
    _posted = Signal(int, bool, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ids = itertools.count(1)
        self._callbacks: dict[int, tuple[Callable[[Any], None] | None,
                                         Callable[[BaseException], None] | None]] = {}
        self._posted.connect(self._on_posted, Qt.ConnectionType.QueuedConnection)

    def run(self, fn: Callable[..., Any], *args: Any,
            on_done: Callable[[Any], None] | None = None,
            on_error: Callable[[BaseException], None] | None = None,
            name: str = "composer-worker") -> int:
        """Start ``fn(*args)`` on a worker thread; returns the job id."""
        job = next(self._ids)
        self._callbacks[job] = (on_done, on_error)

        def work() -> None:
            try:
                result = fn(*args)
            except BaseException as exc:  # handed to the GUI thread, never lost
                self._posted.emit(job, False, exc)
            else:
                self._posted.emit(job, True, result)

        threading.Thread(target=work, name=name, daemon=True).start()
        return job

    @property
    def pending(self) -> int:
        """Jobs whose outcome has not been delivered yet."""
        return len(self._callbacks)

    @Slot(int, bool, object)
    def _on_posted(self, job: int, ok: bool, value: Any) -> None:
        on_done, on_error = self._callbacks.pop(job, (None, None))
        if ok:
            self.finished.emit(job, value)
            if on_done is not None:
                on_done(value)
        else:
            self.failed.emit(job, value)
            if on_error is not None:
                on_error(value)
