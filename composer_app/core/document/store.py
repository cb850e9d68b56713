"""Per-thread draft files, written atomically (temp file + fsync + rename).

Invariants: a save either leaves the previous file untouched or replaces it with a complete new
one (a half-written temp file never replaces a good draft and is ignored on read); a file that
cannot be parsed is moved aside (``*.corrupt``), never silently overwritten; file names are derived
from the thread key with a hash, so any key maps to one safe, distinct name. The caller chooses the
directory (the UI passes the platform's user data directory) and debounces saves.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from composer_app.core.codecs.ids import to_context_id
from composer_app.core.document.draft_file import decode_draft, encode_draft, is_empty
from composer_app.core.document.edits import append_reference
from composer_app.core.document.model import Draft
from composer_app.core.errors import StorageError

_log = logging.getLogger(__name__)


class DraftStore:
    """Reads and writes the drafts of every thread under one directory."""

    def __init__(self, directory: Path, *, keep_shelf_images: bool = False) -> None:
        self.directory = Path(directory)
        self.keep_shelf_images = keep_shelf_images

    def path_for(self, thread_key: str) -> Path:
        """The file of one thread's draft."""
        return self.directory / f"{to_context_id('draft:' + thread_key)}.json"

    def load(self, thread_key: str) -> Draft:
        """The stored draft of ``thread_key`` (an empty draft when none or unreadable)."""
        path = self.path_for(thread_key)
        try:
            raw = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return Draft(keep_shelf_images=self.keep_shelf_images)
        except OSError as exc:
            raise StorageError(f"cannot read draft {path.name}: {exc}") from exc
        try:
            obj: Any = json.loads(raw)
        except ValueError:
            _log.warning("draft %s is damaged; moving it aside", path.name)
            with contextlib.suppress(OSError):
                os.replace(path, path.with_suffix(".corrupt"))
            return Draft(keep_shelf_images=self.keep_shelf_images)
        return decode_draft(obj, keep_shelf_images=self.keep_shelf_images)

    def save(self, thread_key: str, draft: Draft) -> None:
        """Write ``draft`` atomically; an empty draft removes the file."""
        path = self.path_for(thread_key)
        if is_empty(draft):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            return
        data = json.dumps(encode_draft(draft), ensure_ascii=False, separators=(",", ":"))
        write_atomically(path, data.encode("utf-8"))

    def append_reference(self, thread_key: str, record: Any, label: str | None = None) -> Draft:
        """Append a reference (and its record) to a thread's stored draft; returns the draft."""
        draft = self.load(thread_key)
        append_reference(draft, record, label)
        self.save(thread_key, draft)
        return draft


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data``: temp file in the same directory, fsync, rename, fsync dir."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise StorageError(f"cannot write draft {path.name}: {exc}") from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise StorageError(f"cannot write draft {path.name}: {exc}") from exc
    _fsync_directory(path.parent)


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable where directories can be opened (POSIX); elsewhere a no-op."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
