"""A context catalog for tests: answers from lists, now or when the test says so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QTextEdit

from composer_app.ui.context.completion import ContextCompletion


class ListCatalog:
    """Files, skills and threads from lists; ``deferred`` holds answers until ``answer()``."""

    def __init__(self, files: list[str] | None = None,
                 skills: list[tuple[str, str]] | None = None,
                 threads: list[tuple[str, str]] | None = None, *, deferred: bool = False) -> None:
        self.files = files or []
        self.skills = skills or []
        self.threads = threads or []
        self.deferred = deferred
        self.calls: list[tuple[str, Any]] = []
        self.pending: list[tuple[Callable[[Any], None], Any]] = []

    def _reply(self, done: Callable[[Any], None], value: Any) -> None:
        if self.deferred:
            self.pending.append((done, value))
        else:
            done(value)

    def search_files(self, query: str, limit: int, done: Callable[[list[str]], None]) -> None:
        self.calls.append(("files", query))
        self._reply(done, [p for p in self.files if query.lower() in p.lower()][:limit])

    def list_skills(self, done: Callable[[list[tuple[str, str]]], None]) -> None:
        self.calls.append(("skills", None))
        self._reply(done, list(self.skills))

    def list_threads(self, done: Callable[[list[tuple[str, str]]], None]) -> None:
        self.calls.append(("threads", None))
        self._reply(done, list(self.threads))

    def answer(self, index: int) -> None:
        done, value = self.pending.pop(index)
        done(value)


class CompletingEditor(QTextEdit):
    """A text editor that lets the completion see its keys first, as the composer does."""

    def __init__(self) -> None:
        super().__init__()
        self.completion = ContextCompletion(self, environment_id="env_1")
        self.inserted: list[Any] = []
        self.completion.record_chosen.connect(self._insert)

    def _insert(self, record: Any) -> None:
        self.inserted.append(record)
        self.textCursor().insertText(f"[{record.label}] ")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.completion.handle_key(event):
            return
        super().keyPressEvent(event)
