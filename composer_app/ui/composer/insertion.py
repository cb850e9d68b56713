"""The one entry point other panels use to add context to a thread's composer.

Invariants: when a composer shows the thread, the reference lands at its current or last-known
caret (one undo step); otherwise it is appended to the thread's stored draft (with its record), so
nothing added from a panel is ever lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from composer_app.core.document.store import DraftStore

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor


class ContextInsertionRouter:
    """Routes ``insert(thread_key, record)`` to the mounted composer or the draft store."""

    def __init__(self, store: DraftStore | None = None) -> None:
        self._store = store
        self._mounted: dict[str, ComposerEditor] = {}

    def mount(self, thread_key: str, editor: ComposerEditor) -> None:
        """``editor`` now shows ``thread_key``."""
        self._mounted[thread_key] = editor
        editor.destroyed.connect(lambda *_: self._mounted.pop(thread_key, None))

    def unmount(self, thread_key: str, editor: ComposerEditor | None = None) -> None:
        """The composer of ``thread_key`` went away (or switched thread)."""
        if editor is None or self._mounted.get(thread_key) is editor:
            self._mounted.pop(thread_key, None)

    def editor_for(self, thread_key: str) -> ComposerEditor | None:
        """The mounted composer of a thread, if any."""
        return self._mounted.get(thread_key)

    def insert(self, thread_key: str, record: Any, label: str | None = None) -> str:
        """Insert a reference to ``record``; returns ``"editor"`` or ``"draft"`` (where it went)."""
        editor = self._mounted.get(thread_key)
        if editor is not None:
            editor.insert_context(record, label)
            return "editor"
        if self._store is None:
            raise RuntimeError(f"no composer shows {thread_key!r} and there is no draft store")
        self._store.append_reference(thread_key, record, label)
        return "draft"
