"""Draft persistence of a mounted composer: debounced saves, flush on close, thread switching.

Invariants: a change is written at most ``delay_ms`` after the last edit (a crash loses at most that
window); a pending change is flushed before the editor switches thread, when its window closes and
when the application quits; when the draft closes (``close_draft``, run on quit) the uploads of
attachments no chip can come back to are released; files live under the platform's user data
directory unless a directory is given.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import platformdirs
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer

from composer_app.core.document.store import DraftStore
from composer_app.core.errors import StorageError
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.insertion import ContextInsertionRouter

_log = logging.getLogger(__name__)
DEBOUNCE_MS = 300
_CLOSING = (QEvent.Type.Close, QEvent.Type.Hide)


def default_drafts_dir() -> Path:
    """``<user data dir>/drafts`` for this application."""
    return Path(platformdirs.user_data_dir("Composer", appauthor=False)) / "drafts"


class DraftAutosave(QObject):
    """Binds one editor to the draft store for the thread it shows."""

    def __init__(self, editor: ComposerEditor, store: DraftStore, thread_key: str, *,
                 router: ContextInsertionRouter | None = None, delay_ms: int = DEBOUNCE_MS) -> None:
        super().__init__(editor)
        self._editor = editor
        self._store = store
        self._router = router
        self.thread_key = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._delay_ms = delay_ms
        self._last_edit = 0.0
        self._dirty = False
        self._timer.timeout.connect(self._on_timer_timeout)
        editor.draft_changed.connect(self._on_editor_draft_changed)
        # Watch the window, not the editor: an editor filter would run on every keystroke.
        self._window = editor.window()
        self._window.installEventFilter(self)
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
        """True while an edit waits for the debounce window to end."""
        return self._dirty

    def _on_editor_draft_changed(self) -> None:
        # Runs on every keystroke: note the time and arm the timer once (re-arming a timer per
        # key costs more than the rest of this); the timeout re-arms for what is left.
        if not self._loading:
            self._dirty = True
            self._last_edit = time.monotonic()
            if not self._timer.isActive():
                self._timer.start(self._delay_ms)

    def _on_timer_timeout(self) -> None:
        quiet_ms = (time.monotonic() - self._last_edit) * 1000
        if quiet_ms + 1 < self._delay_ms:
            self._timer.start(max(1, round(self._delay_ms - quiet_ms)))
            return
        self.flush()

    _loading = False

    def switch_thread(self, thread_key: str) -> None:
        """Save the current thread's draft and show ``thread_key``'s."""
        if self.thread_key:
            self.flush()
            if self._router is not None:
                self._router.unmount(self.thread_key, self._editor)
        self.thread_key = thread_key
        self._editor.thread_id = thread_key
        self._loading = True
        try:
            self._editor.load_draft(self._store.load(thread_key))
        finally:
            self._loading = False
        if self._router is not None:
            self._router.mount(thread_key, self._editor)

    def flush(self) -> None:
        """Write the draft now if an edit is pending."""
        if not self._dirty:
            return
        self._timer.stop()
        self._dirty = False
        try:
            self._store.save(self.thread_key, self._editor.snapshot())
        except StorageError:
            _log.exception("could not save the draft of %s", self.thread_key)

    def close_draft(self) -> None:
        """The draft closes (window closed, app quitting): save it, then release what undo kept.

        An attachment whose last chip was deleted is only held for undo; after this nothing can
        bring it back, so its upload is released now rather than left to expire on the server.
        """
        if not shiboken6.isValid(self._editor):
            return
        self.flush()
        self._editor.close_draft()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _CLOSING and shiboken6.isValid(self._editor):
            self.flush()
        return False
