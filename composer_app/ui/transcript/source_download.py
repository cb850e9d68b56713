"""``SourceDownloader``: the Sources panel's downloader — saves a cited file into the user's
downloads folder through the sync engine, with progress that always ends.

Invariants: every download started ends with exactly one ``DownloadProgress.finished`` (``True``
and ``Saved as <name>`` or ``False`` and the reason), so a row's progress bar never stays;
progress and the end are signalled from the engine thread and reach the row queued on the Qt
thread (``DownloadProgress`` is safe to signal from any thread).
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QStandardPaths

from composer_app.sync.source_downloads import FAILED, DownloadError
from composer_app.ui.transcript.sources_panel import DownloadProgress


class DownloadService(Protocol):
    def download_source(self, route: str, folder: Path,
                        progress: Callable[[int, int], object] | None = None
                        ) -> concurrent.futures.Future[Path]: ...


def downloads_folder() -> Path:
    """The desktop's downloads folder (the home folder when there is none)."""
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DownloadLocation)
    return Path(location) if location else Path.home()


class SourceDownloader:
    """Call with ``(route, progress)``, as ``SourcesPanel.downloader``."""

    def __init__(self, service: DownloadService, folder: Path | None = None) -> None:
        self.service = service
        self.folder = folder

    def __call__(self, route: str, progress: DownloadProgress) -> None:
        try:
            future = self.service.download_source(
                route, self.folder or downloads_folder(),
                lambda received, total: progress.progressed.emit(received, total))
        except Exception:  # the engine is not running
            progress.finished.emit(False, FAILED)
            return
        future.add_done_callback(lambda done: _finish(done, progress))


def _finish(future: concurrent.futures.Future[Path], progress: DownloadProgress) -> None:
    try:
        saved = future.result()
    except DownloadError as exc:
        progress.finished.emit(False, exc.reason)
    except Exception:
        progress.finished.emit(False, FAILED)
    else:
        where = saved.parent.name or str(saved.parent)
        progress.finished.emit(True, f"Saved as {saved.name} in {where}")
