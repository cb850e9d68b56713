"""``SourceFileOpener``: the Sources panel's *Open* for a knowledge-folder or workspace file — the
file in the app's ``TextViewer`` at the cited lines, with *Open with default app*.

Where the file comes from:
- the folder on this computer (the embedded server's knowledge folder, a local thread workspace):
  the file itself, found only through ``source_file_logic.resolve_inside`` (never outside the
  folder, symlinks followed and re-checked); *Open with default app* opens that file;
- a knowledge folder on a remote server: a private copy fetched through the authenticated citation
  download route into the app's cache (one folder per source, replaced on every open);
- a workspace on a remote server: its text through the workspace read route (no local path, so
  the viewer's desktop buttons are disabled and say why).

Invariants: documents are shown as the offline assistant reads them (``read_document``: PDF, Word
and HTML as their text; plain text as written, whose lines are the ones it reads), so the cited
line numbers point at the same lines; a file that has no
text (an image, an archive) goes straight to the desktop's default application; a file too large,
missing, outside its folder or unreadable says why through ``status_message`` and never raises;
bytes fetched on the sync engine's thread reach the viewer queued on the GUI thread.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import shutil
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, Qt, Signal
from PySide6.QtWidgets import QDialog, QWidget

from composer_app.core.codecs.sources import download_route
from composer_app.core.contracts.sources import SourceEntry
from composer_app.server.providers.document_text import read_document
from composer_app.sync.workspace import WorkspaceFile
from composer_app.ui.transcript.source_file_logic import (
    FOLDER_LABELS,
    KNOWLEDGE,
    SourceFile,
    resolve_inside,
    source_file,
)
from composer_app.ui.viewers.text_viewer import TextViewer, open_with_desktop

__all__ = ["MAX_VIEW_BYTES", "SourceFileOpener", "cache_folder"]

MAX_VIEW_BYTES = 32 * 1024 * 1024
"""The largest file shown in the viewer (larger ones open in the default application)."""

Fetch = Callable[[str, Path], "concurrent.futures.Future[Path]"]  # route, folder
ReadWorkspace = Callable[[str, str, Callable[[WorkspaceFile | None, str], None]], object]


def cache_folder() -> Path:
    """The app's cache folder for copies of cited files."""
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation)
    return (Path(location) if location else Path.home() / ".cache" / "composer") / "sources"


class SourceFileOpener(QObject):
    """Call with ``(entry, thread id, message id)``, as ``SourcesPanel.file_opener``."""

    status_message = Signal(str)
    _fetched = Signal(object, object, str)  # SourceFile, Path or None, error

    def __init__(self, window: QWidget, *,
                 knowledge_root: Callable[[], Path | None],
                 workspace_root: Callable[[str], Path | None],
                 fetch: Fetch | None = None,
                 read_workspace: ReadWorkspace | None = None,
                 cache: Path | None = None,
                 open_default: Callable[[str], bool] = open_with_desktop) -> None:
        super().__init__(window)
        self._window = window
        self._knowledge_root = knowledge_root
        self._workspace_root = workspace_root
        self._fetch = fetch
        self._read_workspace = read_workspace
        self._cache = cache
        self._open_default = open_default
        self.viewer: TextViewer | None = None
        self._fetched.connect(self._on_fetched, Qt.ConnectionType.QueuedConnection)

    def __call__(self, entry: SourceEntry, thread_id: str, message_id: str) -> bool:
        """Open the file ``entry`` names; False when it names none or it cannot be opened."""
        target = source_file(entry)
        if target is None:
            self.status_message.emit("This source does not name a file that can be opened.")
            return False
        root = (self._knowledge_root() if target.folder == KNOWLEDGE
                else self._workspace_root(thread_id))
        if root is not None:
            path = resolve_inside(root, target.path)
            if path is None:
                self.status_message.emit(
                    f"{target.path} is no longer in the {FOLDER_LABELS[target.folder]}.")
                return False
            return self.show_file(target, path)
        if target.folder == KNOWLEDGE and self._fetch is not None:
            return self._start_fetch(target, download_route(thread_id, message_id, entry.id))
        if self._read_workspace is not None:
            self._read_workspace(thread_id, target.path,
                                 lambda file, error: self._on_workspace_text(target, file, error))
            return True
        self.status_message.emit(f"{target.path} is not on this computer.")
        return False

    # -- where the bytes come from ---------------------------------------------------------------
    def _start_fetch(self, target: SourceFile, route: str) -> bool:
        assert self._fetch is not None
        folder = (self._cache or cache_folder()) / hashlib.sha256(
            route.encode("utf-8")).hexdigest()[:24]
        shutil.rmtree(folder, ignore_errors=True)  # one fresh copy per source
        try:
            future = self._fetch(route, folder)
        except Exception as exc:  # the engine is not running
            self.status_message.emit(f"Could not open {target.path}: {exc}")
            return False
        future.add_done_callback(lambda done: self._fetch_done(target, done))
        return True

    def _fetch_done(self, target: SourceFile, future: concurrent.futures.Future[Path]) -> None:
        try:
            saved = future.result()
        except Exception as exc:  # any failure becomes a message, never a crash
            self._fetched.emit(target, None, getattr(exc, "reason", "") or str(exc))
        else:
            self._fetched.emit(target, saved, "")

    def _on_fetched(self, target: SourceFile, saved: Path | None, error: str) -> None:
        if saved is None:
            self.status_message.emit(f"Could not open {target.path}: {error}")
            return
        self.show_file(target, saved)

    def _on_workspace_text(self, target: SourceFile, file: WorkspaceFile | None,
                           error: str) -> None:
        if error or file is None:
            self.status_message.emit(f"Could not open {target.path}: {error or 'no answer'}")
            return
        self._show(TextViewer(file.text, target.path, self._window,
                              first_line=file.start_line), target)

    # -- showing ---------------------------------------------------------------------------------
    def show_file(self, target: SourceFile, path: Path) -> bool:
        """Show the file at ``path`` (a checked local path) as ``target`` names it."""
        try:
            size = path.stat().st_size
            if size > MAX_VIEW_BYTES:
                return self._open_default(str(path))
            data = path.read_bytes()
        except OSError as exc:
            self.status_message.emit(f"Could not read {target.path}: {exc.strerror or exc}")
            return False
        document = read_document(target.name, data)
        if document.text is None:
            if document.problem:
                self.status_message.emit(f"Could not show {target.path}: {document.problem}")
                return False
            return self._open_default(str(path))
        self._show(TextViewer(document.shown or "", target.path, self._window,
                              local_path=str(path), open_default=self._open_default), target)
        return True

    def _show(self, viewer: TextViewer, target: SourceFile) -> None:
        if self.viewer is not None:
            self.viewer.close()
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if target.where:
            viewer.setWindowTitle(f"{target.path} — {target.where}")
            viewer.title.setText(f"{target.path} · {target.where}")
        self.viewer = viewer
        viewer.destroyed.connect(lambda *_: self._forget(viewer))
        viewer.show()
        viewer.raise_()
        if target.line_start is not None:
            viewer.mark_lines(target.line_start, target.line_end or target.line_start)

    def _forget(self, viewer: QDialog) -> None:
        if self.viewer is viewer:
            self.viewer = None
