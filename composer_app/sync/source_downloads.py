"""Saving a cited file through the authenticated citation download route (sources contract §8).

Invariants: the route is a server path (``/api/threads/.../sources/.../download``), never a
provider URL; the file name comes from the answer's ``Content-Disposition`` reduced to a plain
name (no folder part, no leading dot), and the file is written to a temporary name in the target
folder and renamed to a name not used yet (``report (2).pdf``) only when the transfer completed, so
a failed download leaves nothing behind; every failure raises ``DownloadError`` with a user-facing
reason.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

from composer_app.core.errors import TransportError
from composer_app.sync.transport import DOWNLOAD_TIMEOUT_SECONDS, HttpTransport

NOT_CONNECTED = "The server could not be reached."
NOT_AVAILABLE = "The file is no longer available, or it is not yours to download."
FAILED = "The download failed."
NOT_SAVED = "The file could not be saved in your downloads folder."


class DownloadError(TransportError):
    """A download failed; ``reason`` is the user-facing line."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason} {detail}".strip())
        self.reason = reason


def file_name(disposition: str, fallback: str = "download") -> str:
    """The plain file name of a ``Content-Disposition`` header (``filename*`` preferred)."""
    name = ""
    star = re.search(r"filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)", disposition)
    plain = re.search(r'filename\s*=\s*"([^"]*)"', disposition)
    if star:
        name = unquote(star.group(1).strip())
    elif plain:
        name = plain.group(1)
    name = name.replace("\\", "/").rsplit("/", 1)[-1].strip().lstrip(".")
    name = "".join(c for c in name if c.isprintable() and c not in '<>:"|?*')
    return name[:200] or fallback


def free_path(folder: Path, name: str) -> Path:
    """``folder / name``, or ``name (2)``, ``name (3)``, ... when taken."""
    candidate = folder / name
    stem, suffix = Path(name).stem, Path(name).suffix
    number = 2
    while candidate.exists():
        candidate = folder / f"{stem} ({number}){suffix}"
        number += 1
    return candidate


async def download_source(http: HttpTransport, route: str, folder: Path,
                          progress: Callable[[int, int], object] | None = None) -> Path:
    """Save the file behind ``route`` into ``folder``; returns where it was saved."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor, name = tempfile.mkstemp(dir=folder, prefix=".download-")
    except OSError as exc:
        raise DownloadError(NOT_SAVED, str(exc)) from exc
    temporary = Path(name)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            try:
                status, headers = await http.download(route, handle.write, progress,
                                                      timeout=DOWNLOAD_TIMEOUT_SECONDS)
            except TransportError as exc:
                raise DownloadError(NOT_CONNECTED, str(exc)) from exc
        if status in (401, 403, 404, 410):
            raise DownloadError(NOT_AVAILABLE, f"HTTP {status}")
        if not 200 <= status < 300:
            raise DownloadError(FAILED, f"HTTP {status}")
        target = free_path(folder, file_name(headers.get("content-disposition", "")))
        try:
            os.replace(temporary, target)
        except OSError as exc:
            raise DownloadError(NOT_SAVED, str(exc)) from exc
        return target
    finally:
        temporary.unlink(missing_ok=True)
