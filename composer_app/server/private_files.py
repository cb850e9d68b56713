"""Private server files: directories 0700, files 0600, whatever the process umask.

Invariants: modes are set explicitly after creation (``chmod``/``fchmod``), never left to the
umask; a file is created with 0600 from its first byte (``os.open`` with the mode), so there is no
window in which another user could open it.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) if missing and make it 0700."""
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """Create ``path`` empty if missing; make it 0600."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return path


def open_private(path: Path) -> int:
    """A new file ``path`` (it must not exist) opened for writing with mode 0600."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    os.fchmod(fd, FILE_MODE)
    return fd


def make_private(path: Path) -> None:
    """0600 for an existing file (no-op when it is missing)."""
    with contextlib.suppress(FileNotFoundError):
        os.chmod(path, FILE_MODE)


def write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` atomically with ``data``, mode 0600."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    fd = open_private(tmp)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
