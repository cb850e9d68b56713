"""Draft persistence of a mounted composer: debounced saves, flush on close, thread switching.

Invariants: a change is written at most ``delay_ms`` after the last edit (a crash loses at most that
window); a pending change is flushed before the editor switches thread, when its window closes and
when the application quits; files live under the platform's user data directory unless a directory
is given.
"""

from __future__ import annotations

import logging
from pathlib import Path

import platformdirs
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer

from composer_app.core.document.store import DraftStore
from composer_app.core.errors import StorageError
from composer_app.ui.composer.editor import ComposerEditor
from composer_app.ui.composer.insertion import ContextInsertionRouter

_log = logging.getLogger(__name__)
DEBOUNCE_MS = 300


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
        self._dirty = False
        self._timer.timeout.connect(self.flush)
        editor.draft_changed.connect(self._on_editor_draft_changed)
        editor.installEventFilter(self)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.flush)
        self.switch_thread(thread_key)

    @property
    def pending(self) -> bool:
        """True while an edit waits for the debounce window to end."""
        return self._dirty

    def _on_editor_draft_changed(self) -> None:
        if not self._loading:
            self._dirty = True
            self._timer.start()

    _loading = False

    def switch_thread(self, thread_key: str) -> None:
        """Save the current thread's draft and show ``thread_key``'s."""
        if self.thread_key:
            self.flush()
            if self._router is not None:
                self._router.unmount(self.thread_key, self._editor)
        self.thread_key = thread_key
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

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Close, QEvent.Type.Hide):
            self.flush()
        return False
