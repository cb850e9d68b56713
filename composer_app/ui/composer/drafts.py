"""Draft persistence of a mounted composer: debounced saves, flush on close, thread switching.

Invariants: a change is written at most ``delay_ms`` after the last edit (a crash loses at most that
window); a pending change is flushed before the editor switches thread, when the editor is hidden
(its window closes, hides or is minimized) and when the application quits; when the draft closes
(``close_draft``, run on quit) the uploads of attachments no chip can come back to are released;
files live under the platform's user data directory unless a directory is given.

A debounced save never blocks typing: the GUI thread only takes a snapshot (the Markdown, which the
editor keeps cheap, and a detached copy of the draft) and the encoding and the atomic write run on a
worker. Saves of one thread land in the order they were taken: a save older than one already
written is skipped, and ``flush`` writes synchronously (finishing a save still in flight first).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from pathlib import Path

import platformdirs
import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QTimer

from composer_app.core.document.model import Draft
from composer_app.core.document.store import DraftStore
from composer_app.core.errors import StorageError
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.insertion import ContextInsertionRouter
from composer_app.ui.workers import Runner

_log = logging.getLogger(__name__)
DEBOUNCE_MS = 300


def detached(draft: Draft) -> Draft:
    """A copy of ``draft`` whose containers the editor will not change (records are immutable)."""
    return dataclasses.replace(
        draft, records=dict(draft.records), states=dict(draft.states), shelf=list(draft.shelf),
        stash=list(draft.stash), tombstones=dict(draft.tombstones), order=dict(draft.order))


def default_drafts_dir() -> Path:
    """``<user data dir>/drafts`` for this application."""
    return Path(platformdirs.user_data_dir("Composer", appauthor=False)) / "drafts"


class DraftAutosave(QObject):
    """Binds one editor to the draft store for the thread it shows."""

    def __init__(self, editor: ComposerEditor, store: DraftStore, thread_key: str, *,
                 router: ContextInsertionRouter | None = None, delay_ms: int = DEBOUNCE_MS,
                 runner: Runner | None = None) -> None:
        super().__init__(editor)
        self._editor = editor
        self._store = store
        self._router = router
        self.thread_key = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._delay_ms = delay_ms
        self._runner = runner
        self._write_lock = threading.Lock()
        self._taken = 0
        self._written: dict[str, int] = {}
        self._in_flight: tuple[str, Draft, int] | None = None
        self._timer.timeout.connect(self._save_in_background)
        # Every edit re-arms the timer through a signal-to-slot connection that runs no Python
        # (the editor's draft_changed follows its document's contentsChanged the same way).
        editor.draft_changed.connect(self._timer.start)
        # The editor is hidden when its window closes, hides or is minimized; a signal, because
        # an event filter would run Python for every event (every keystroke, when the editor is
        # a window of its own).
        editor.hidden.connect(self._on_editor_hidden)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.close_draft)
        self.switch_thread(thread_key)

    @property
    def delay_ms(self) -> int:
        """The debounce window: a change is written this long after the last edit."""
        return self._delay_ms

    @property
    def pending(self) -> bool:
        """True while an edit waits for the debounce window to end or for its write to finish."""
        return self._timer.isActive() or self._in_flight is not None

    def switch_thread(self, thread_key: str) -> None:
        """Save the current thread's draft and show ``thread_key``'s."""
        if self.thread_key:
            self.flush()
            if self._router is not None:
                self._router.unmount(self.thread_key, self._editor)
        self.thread_key = thread_key
        self._editor.thread_id = thread_key
        self._editor.load_draft(self._store.load(thread_key))
        self._timer.stop()  # what was just loaded is what is stored
        if self._router is not None:
            self._router.mount(thread_key, self._editor)

    def _take(self, *, due: bool = False) -> tuple[str, Draft, int] | None:
        if not (due or self._timer.isActive()):
            return None
        self._timer.stop()
        self._taken += 1
        return self.thread_key, detached(self._editor.snapshot()), self._taken

    def _write(self, thread_key: str, draft: Draft, taken: int) -> None:
        """Write one snapshot unless a newer one of the thread is on disk (any thread may call)."""
        with self._write_lock:
            if self._written.get(thread_key, 0) >= taken:
                return
            self._store.save(thread_key, draft)
            self._written[thread_key] = taken

    def _save_in_background(self) -> None:
        save = self._take(due=True)
        if save is None:
            return
        self._in_flight = save
        runner = self._runner or self._editor.uploads.files.runner

        def done(result: object) -> None:
            if self._in_flight is save:
                self._in_flight = None
            if isinstance(result, Exception):
                _log.error("could not save the draft of %s: %s", save[0], result)

        runner(lambda: self._write(*save), done)

    def flush(self) -> None:
        """Write the draft now, on this thread, if an edit is pending or a save is in flight."""
        in_flight, self._in_flight = self._in_flight, None
        for save in (in_flight, self._take()):
            if save is None:
                continue
            try:
                self._write(*save)
            except StorageError:
                _log.exception("could not save the draft of %s", save[0])

    def close_draft(self) -> None:
        """The draft closes (window closed, app quitting): save it, then release what undo kept.

        An attachment whose last chip was deleted is only held for undo; after this nothing can
        bring it back, so its upload is released now rather than left to expire on the server.
        """
        if not shiboken6.isValid(self._editor):
            return
        self.flush()
        self._editor.close_draft()

    def _on_editor_hidden(self) -> None:
        if shiboken6.isValid(self._editor):
            self.flush()
