"""Pasted images and folded text on disk, written off the GUI thread.

Invariants: original PNG/JPEG bytes are stored as they came; any other image data is encoded as
PNG in a worker thread (``QImage`` is safe off the GUI thread, ``QPixmap`` is not); files land
under ``<user cache dir>/pasted/`` with neutral generated names (``pasted-image-<n>.png``,
``pasted-text-<n>.txt``) that never reuse a name on disk; writes go through ``QSaveFile`` so a
reader never sees half a file; a job's completion is delivered on the GUI thread.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from platformdirs import PlatformDirs
from PySide6.QtCore import QBuffer, QIODevice, QSaveFile
from PySide6.QtGui import QImage

from composer_app.sync.engine import APP_DIR_NAME
from composer_app.ui.workers import BackgroundRunner, Runner


def default_pasted_dir() -> Path:
    """``<user cache dir>/pasted`` of the app (honours ``XDG_CACHE_HOME``)."""
    return Path(PlatformDirs(appname=APP_DIR_NAME, appauthor=False).user_cache_dir) / "pasted"


@dataclass(frozen=True)
class StoredFile:
    """A file written for the composer: where, under which name, its type and size."""

    path: Path
    name: str
    mime_type: str
    size: int


def encode_png(image: QImage) -> bytes:
    """``image`` encoded as PNG (safe on a worker thread)."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if image.isNull() or not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise OSError("the pasted image could not be encoded")
    return bytes(buffer.data().data())


def save_file(path: Path, data: bytes) -> None:
    """Write ``data`` atomically (``QSaveFile``)."""
    target = QSaveFile(str(path))
    if not target.open(QIODevice.OpenModeFlag.WriteOnly):
        raise OSError(f"cannot write {path.name}: {target.errorString()}")
    if target.write(data) != len(data) or not target.commit():
        target.cancelWriting()
        raise OSError(f"cannot write {path.name}: {target.errorString()}")


class PastedFiles:
    """Names and writes pasted images and folded text under one directory."""

    def __init__(self, directory: Path | None = None, runner: Runner | None = None) -> None:
        self.directory = directory or default_pasted_dir()
        self.runner: Runner = runner or BackgroundRunner()
        self._counter = itertools.count(1)
        self._reserved: set[Path] = set()

    def reserve(self, stem: str, suffix: str) -> Path:
        """A fresh ``<stem>-<n><suffix>`` path nobody uses (GUI thread)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        while True:
            path = self.directory / f"{stem}-{next(self._counter)}{suffix}"
            if path not in self._reserved and not path.exists():
                self._reserved.add(path)
                return path

    def image_path(self, data: bytes | None, mime_type: str) -> Path:
        """Reserve the file a pasted image will be written to (``.jpg`` for original JPEG)."""
        original = data is not None and mime_type == "image/jpeg"
        return self.reserve("pasted-image", ".jpg" if original else ".png")

    def store_image(self, path: Path, data: bytes | None, mime_type: str, image: QImage | None,
                    done: Callable[[StoredFile | Exception], None]) -> None:
        """Store a pasted image: ``data`` as it came, else ``image`` encoded as PNG; off-thread."""
        original = data is not None and mime_type in ("image/png", "image/jpeg")
        mime = mime_type if original else "image/png"
        frozen = None if original or image is None else image.copy()

        def job() -> StoredFile:
            payload = data if original and data is not None else encode_png(
                frozen if frozen is not None else QImage())
            save_file(path, payload)
            return StoredFile(path, path.name, mime, len(payload))

        self.runner(job, done)

    def store_text(self, text: str, name: str,
                   done: Callable[[StoredFile | Exception], None]) -> Path:
        """Store folded text as UTF-8 (the record is called ``name``); off-thread."""
        path = self.reserve(Path(name).stem, Path(name).suffix or ".txt")

        def job() -> StoredFile:
            data = text.encode("utf-8", "surrogatepass")
            save_file(path, data)
            return StoredFile(path, name, "text/plain", len(data))

        self.runner(job, done)
        return path

    def owns(self, path: str | Path) -> bool:
        """True for a file this store wrote (safe to delete when its attachment goes)."""
        try:
            return Path(path).resolve().parent == self.directory.resolve()
        except OSError:
            return False
