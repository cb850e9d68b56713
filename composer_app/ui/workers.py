"""Background work for the UI: run a plain function off the GUI thread, get its outcome back on
the GUI thread. The one runner for this in the package (pasted images, thumbnails, any slow read).

Invariants: a job runs on Qt's global thread pool and must not touch any ``QObject`` (it gets and
returns plain values; ``QImage`` is safe there, ``QPixmap`` is not); its result or exception comes
back through a queued signal of the runner, which lives on the GUI thread, so every callback runs
there; each job has a fresh id and its callbacks run at most once; an exception is handed over,
never lost; the sync engine is not run here (it has its own loop and thread).

Two ways in: ``run(fn, *args, on_done=..., on_error=...)`` with separate callbacks, and calling the
runner as a ``Runner`` — ``runner(job, done)`` — where ``done`` receives the result or the
exception (``inline_runner`` is the same contract, run at once on the calling thread).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QThreadPool, Signal, Slot

__all__ = ["BackgroundRunner", "Done", "Job", "Runner", "inline_runner"]

Job = Callable[[], Any]
Done = Callable[[Any], None]
Runner = Callable[[Job, Done], None]
"""Runs ``job`` somewhere and calls ``done(result)`` on the GUI thread (an exception is passed
as the result)."""

_Callbacks = tuple[Callable[[Any], None] | None, Callable[[BaseException], None] | None]


def inline_runner(job: Job, done: Done) -> None:
    """Run ``job`` now on this thread (tests, tiny jobs); ``done`` gets the result or exception."""
    try:
        result = job()
    except Exception as exc:  # delivered like the background runner does
        result = exc
    done(result)


class BackgroundRunner(QObject):
    """Runs functions off the GUI thread and reports back on it."""

    finished = Signal(int, object)
    failed = Signal(int, object)
    _posted = Signal(int, bool, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._callbacks: dict[int, _Callbacks] = {}
        self._posted.connect(self._on_posted, Qt.ConnectionType.QueuedConnection)

    def run(self, fn: Callable[..., Any], *args: Any,
            on_done: Callable[[Any], None] | None = None,
            on_error: Callable[[BaseException], None] | None = None) -> int:
        """Start ``fn(*args)`` on a worker thread; returns the job id."""
        job = next(self._ids)
        with self._lock:
            self._callbacks[job] = (on_done, on_error)
        posted = self._posted

        def work() -> None:
            try:
                result = fn(*args)
            except BaseException as exc:  # handed to the GUI thread, never lost
                posted.emit(job, False, exc)
            else:
                posted.emit(job, True, result)

        QThreadPool.globalInstance().start(work)
        return job

    def __call__(self, job: Job, done: Done) -> None:
        """The ``Runner`` contract: ``done`` gets ``job()``'s result, or its exception."""
        self.run(job, on_done=done, on_error=done)

    @property
    def pending(self) -> int:
        """Jobs whose outcome has not been delivered yet."""
        with self._lock:
            return len(self._callbacks)

    @Slot(int, bool, object)
    def _on_posted(self, job: int, ok: bool, value: Any) -> None:
        with self._lock:
            on_done, on_error = self._callbacks.pop(job, (None, None))
        if ok:
            self.finished.emit(job, value)
            if on_done is not None:
                on_done(value)
        else:
            self.failed.emit(job, value)
            if on_error is not None:
                on_error(value)
