"""``EngineCatalog`` and ``EngineCommandRunner``: the composer's context data from the sync engine.

``EngineCatalog`` is the ``ContextCatalog`` of a window: files of the open thread's workspace
(``SyncEngine.search_files``), skills (``SyncEngine.skills``, the workspace's included) and the
user's threads with their titles, most recent first (the cached thread list). ``EngineCommandRun``
is the ``CommandRun`` of command mode: ``SyncEngine.run_command`` in the open thread's workspace,
its exit line made a ``terminal`` record by ``terminal_record``.

Invariants: every ``done`` runs on the GUI thread (``EngineCalls`` answers there; command output
arriving on the engine thread is re-posted with a queued signal); a file search answer for a query
that is no longer the newest is dropped, as is any answer that arrives after the thread changed;
an error answers with an empty list (the popup shows nothing), never an exception.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

from composer_app.core.codecs.workspace_records import terminal_record
from composer_app.sync.store import ThreadRow
from composer_app.sync.workspace import SkillInfo, WorkspaceEntry
from composer_app.ui.engine_calls import EngineCalls

__all__ = ["EngineCatalog", "EngineCommandRunner"]


class EngineCatalog:
    """A ``ContextCatalog`` over ``EngineCalls`` for the thread ``thread_of()`` names."""

    def __init__(self, calls: EngineCalls, thread_of: Callable[[], str]) -> None:
        self._calls = calls
        self._thread_of = thread_of
        self._file_request = 0

    def search_files(self, query: str, limit: int, done: Callable[[list[str]], None]) -> None:
        """Workspace files matching ``query`` (best first); older queries' answers are dropped."""
        self._file_request += 1
        request, thread = self._file_request, self._thread_of()
        if not thread:
            done([])
            return

        def then(entries: list[WorkspaceEntry] | None, error: str) -> None:
            if request != self._file_request or thread != self._thread_of():
                return
            done([e.path for e in entries or [] if e.kind == "file"] if not error else [])

        self._calls.search_files(thread, query, limit, then)

    def list_skills(self, done: Callable[[list[tuple[str, str]]], None]) -> None:
        """Every skill as (name, description)."""
        thread = self._thread_of()

        def then(skills: list[SkillInfo] | None, error: str) -> None:
            if thread == self._thread_of():
                done([(s.name, s.description) for s in skills or []] if not error else [])

        self._calls.skills(thread or None, then)

    def list_threads(self, done: Callable[[list[tuple[str, str]]], None]) -> None:
        """The user's other threads as (thread id, title), most recent first."""
        current = self._thread_of()

        def then(rows: list[ThreadRow] | None, error: str) -> None:
            if error:
                done([])
                return
            listed = sorted((r for r in rows or [] if r.thread_id != current
                             and r.local_state is None),
                            key=lambda r: r.updated_at or "", reverse=True)
            done([(r.thread_id, r.title or "Untitled thread") for r in listed])

        self._calls.threads(then)


class EngineCommandRunner(QObject):
    """A ``CommandRun`` over ``EngineCalls`` in the workspace of ``thread_of()``."""

    _output = Signal(int, object, str)

    def __init__(self, calls: EngineCalls, thread_of: Callable[[], str],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._calls = calls
        self._thread_of = thread_of
        self._runs = 0
        self._sinks: dict[int, Callable[[str], None]] = {}
        self._output.connect(self._on_output, Qt.ConnectionType.QueuedConnection)

    def __call__(self, command: str, on_output: Callable[[str], None],
                 on_done: Callable[[object], None]) -> Callable[[], None]:
        """Start ``command``; returns its cancel."""
        self._runs += 1
        run = self._runs
        self._sinks[run] = on_output
        thread = self._thread_of()

        def then(exit_line: dict[str, Any] | None, error: str) -> None:
            if self._sinks.pop(run, None) is None:  # cancelled: on_done was told already
                return
            if error or exit_line is None:
                on_done(error or "The command gave no answer.")
                return
            on_done(terminal_record(uuid.uuid4().hex, command, exit_line))

        cancel = self._calls.run_command(thread, command,
                                         lambda text: self._output.emit(run, None, text), then)

        def cancel_run() -> None:
            if self._sinks.pop(run, None) is not None:
                cancel()
                on_done("The command was cancelled.")

        return cancel_run

    def _on_output(self, run: int, _unused: object, text: str) -> None:
        sink = self._sinks.get(run)
        if sink is not None:
            sink(text)
