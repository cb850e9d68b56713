"""``ChipOpener``: a chip (in the composer or the transcript) opens what it points at.

- ``image``: ``ImageViewer`` with its real bytes (the local copy of a file this computer
  attached, else fetched through the signed asset URL);
- ``file``: ``TextViewer`` with its text (same sources), *Open in editor* for a local copy;
- ``mention``: ``TextViewer`` with the workspace file (``read_file``), *Open in editor* when the
  workspace is on this computer (the embedded server);
- ``thread``: switches to that thread;
- ``review-comment``: its pull request's URL, else ``ReviewCommentViewer``;
- ``terminal``: ``TextViewer`` with the excerpt.

Invariants: ``open_record`` returns False for kinds it does not open (the caller shows its own
details); bytes are fetched off the GUI thread and the viewer opens on the GUI thread; a failure
says why through ``status_message``, never raises; only ``http(s)`` URLs are opened or fetched;
*Open in editor* uses the editor command of the settings as they are when the viewer opens.
"""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtWidgets import QDialog, QWidget

from composer_app.sync.workspace import WorkspaceFile
from composer_app.ui.composer.attachment_uploads import AttachmentUploads
from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.external_open import open_url_externally
from composer_app.ui.viewers.image_viewer import ImageViewer
from composer_app.ui.viewers.review_comment_viewer import ReviewCommentViewer
from composer_app.ui.viewers.text_viewer import TextViewer

__all__ = ["ChipOpener", "fetch_bytes"]

FETCH_LIMIT = 64 * 1024 * 1024
FETCH_TIMEOUT_S = 30.0


def fetch_bytes(url: str) -> bytes:
    """The bytes at a signed asset URL (at most ``FETCH_LIMIT``)."""
    if not url.lower().startswith(("http://", "https://")):
        raise ValueError("not a web address")
    with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT_S) as reply:
        data: bytes = reply.read(FETCH_LIMIT + 1)
    if len(data) > FETCH_LIMIT:
        raise ValueError("the file is too large to show here")
    return data


class ChipOpener(QObject):
    """Opens records for one window; see the module docstring."""

    status_message = Signal(str)
    _fetched = Signal(object, object, str, str)  # record, bytes or None, error, URL

    url_opener: Callable[[str], Any] = staticmethod(open_url_externally)
    fetch: Callable[[str], bytes] = staticmethod(fetch_bytes)

    def __init__(self, window: QWidget, calls: EngineCalls, uploads: AttachmentUploads, *,
                 thread_of: Callable[[], str], workspace_of: Callable[[], str | None],
                 open_thread: Callable[[str], None], local_workspace: bool,
                 editor_command: Callable[[], str] = lambda: "") -> None:
        super().__init__(window)
        self._editor_command = editor_command
        self._window = window
        self._calls = calls
        self._uploads = uploads
        self._thread_of = thread_of
        self._workspace_of = workspace_of
        self._open_thread = open_thread
        self._local_workspace = local_workspace
        self.viewer: QDialog | None = None
        self._fetched.connect(self._on_fetched, Qt.ConnectionType.QueuedConnection)

    def open_record(self, record: Any) -> bool:
        """Open what ``record`` points at; False when this kind has nothing to open here."""
        kind = getattr(record, "kind", "")
        if kind == "thread":
            self._open_thread(record.thread_id)
            return True
        if kind == "review-comment":
            meta = record.pull_request
            url = getattr(meta, "url", "") if meta is not None else ""
            if url.lower().startswith(("https://", "http://")):
                self.url_opener(url)
                return True
            self._show(ReviewCommentViewer(record, self._window))
            return True
        if kind == "terminal":
            self._show(TextViewer(record.text, record.label, self._window,
                                  first_line=record.line_start))
            return True
        if kind == "mention":
            return self._open_mention(record)
        if kind in ("image", "file"):
            return self._open_attachment(record)
        return False

    # -- sources of bytes ------------------------------------------------------------------------
    def _open_mention(self, record: Any) -> bool:
        thread = self._thread_of()
        if not thread:
            return False
        folder = self._workspace_of()
        local = str(Path(folder) / record.path) if folder and self._local_workspace else None

        def then(file: WorkspaceFile | None, error: str) -> None:
            if error or file is None:
                self.status_message.emit(f"Could not read {record.path}: {error or 'no answer'}")
                return
            self._show(TextViewer(file.text, record.path, self._window,
                                  first_line=file.start_line, local_path=local,
                                  editor_command=self._editor_command()))

        self._calls.read_file(thread, record.path, then)
        return True

    def _open_attachment(self, record: Any) -> bool:
        attachment = str(record.attachment_id)
        local = self._uploads.source_path(attachment)
        if local is not None and Path(local).is_file():
            try:
                data = Path(local).read_bytes()
            except OSError as exc:
                self.status_message.emit(f"Could not read {record.name}: {exc}")
                return True
            self._view_bytes(record, data, local, None)
            return True

        def then(url: str | None, error: str) -> None:
            if error or not url:
                self.status_message.emit(f"Could not open {record.name}: {error or 'no URL'}")
                return
            self._start_fetch(record, str(url))

        self._calls.asset_url(attachment, "inline", then)
        return True

    def _start_fetch(self, record: Any, url: str) -> None:
        fetch = self.fetch

        def work() -> None:
            try:
                self._fetched.emit(record, fetch(url), "", url)
            except Exception as exc:  # any failure becomes a message, never a crash
                self._fetched.emit(record, None, str(exc) or type(exc).__name__, url)

        threading.Thread(target=work, name="composer-chip-fetch", daemon=True).start()

    def _on_fetched(self, record: Any, data: bytes | None, error: str, url: str) -> None:
        if data is None:
            self.status_message.emit(f"Could not open {record.name}: {error}")
            return
        self._view_bytes(record, data, None, url)

    def _view_bytes(self, record: Any, data: bytes, local: str | None, url: str | None) -> None:
        if record.kind == "image":
            self._show(ImageViewer(data, record.name, self._window))
            return
        if b"\0" in data[:8192]:  # not text: the desktop's application for it
            self.url_opener(url or QUrl.fromLocalFile(local or "").toString())
            return
        text = data.decode("utf-8", errors="replace")
        self._show(TextViewer(text, record.name, self._window, local_path=local,
                              editor_command=self._editor_command()))

    def _show(self, viewer: QDialog) -> None:
        if self.viewer is not None:
            self.viewer.close()
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.viewer = viewer
        viewer.destroyed.connect(lambda *_: self._forget(viewer))
        viewer.show()
        viewer.raise_()

    def _forget(self, viewer: QDialog) -> None:
        if self.viewer is viewer:
            self.viewer = None
