"""``FolderWatch``: tells cheaply whether a workspace's listing may have changed (Linux inotify).

The quick-open index asks before every search; with inotify the answer is one non-blocking read of
the watch's descriptor (no per-folder ``stat``), so freshness costs microseconds whatever the size
of the workspace. Only changes that can alter a listing count: an entry created, deleted or moved
in a watched folder, a ``.gitignore`` written (closed after writing), git's ``index`` replaced (in
the git folder only that name counts), a watched folder itself deleted or moved, or a queue
overflow.

Invariants: ``changed`` is True when any such event arrived since the previous call (and then
forgets them); ``add`` returns False when inotify is not available here or its watch limit is
reached (the caller then compares modification times instead); a closed watch answers True (the
caller rebuilds) and never reads a descriptor again; the descriptor is closed by ``close`` or,
at the latest, when the watch is garbage-collected. Pure standard library (``ctypes`` over the C
library); no native dependency.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import struct
import sys
import threading
import weakref
from collections.abc import Iterable

IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_Q_OVERFLOW = 0x00004000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
IN_NONBLOCK = os.O_NONBLOCK
IN_CLOEXEC = os.O_CLOEXEC

ENTRY_EVENTS = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
SELF_EVENTS = IN_DELETE_SELF | IN_MOVE_SELF | IN_Q_OVERFLOW
WATCH_MASK = ENTRY_EVENTS | SELF_EVENTS | IN_CLOSE_WRITE | IN_ONLYDIR | IN_DONT_FOLLOW
IGNORE_FILE = ".gitignore"
GIT_INDEX = "index"
_HEADER = struct.Struct("iIII")
_READ_BYTES = 64 * 1024


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _libc()


def relevant(mask: int, name: str, in_git_dir: bool) -> bool:
    """Whether one inotify event can change a workspace listing (see the module docstring)."""
    if mask & SELF_EVENTS:
        return True
    if in_git_dir:
        return name == GIT_INDEX and bool(mask & (ENTRY_EVENTS | IN_CLOSE_WRITE))
    if mask & ENTRY_EVENTS:
        return True
    return name == IGNORE_FILE and bool(mask & IN_CLOSE_WRITE)


class FolderWatch:
    """An inotify instance watching the folders of one workspace listing (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._fd = -1
        self._git_watches: set[int] = set()
        self._watched: set[str] = set()
        self._changed = False
        self.usable = _LIBC is not None
        if _LIBC is not None:
            fd = _LIBC.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
            if fd < 0:
                self.usable = False
            else:
                self._fd = fd
                self._finalizer = weakref.finalize(self, os.close, fd)  # an index dropped unclosed

    def add(self, folders: Iterable[str], *, git_dir: str | None = None) -> bool:
        """Watch ``folders`` (absolute paths; those already watched cost nothing) and git's
        folder; False when the watch cannot cover them (the caller must poll instead)."""
        with self._lock:
            if not self.usable or _LIBC is None:
                return False
            wanted = [(f, False) for f in folders if f not in self._watched]
            if git_dir is not None and git_dir not in self._watched:
                wanted.append((git_dir, True))
            for folder, is_git in wanted:
                wd = _LIBC.inotify_add_watch(self._fd, os.fsencode(folder), WATCH_MASK)
                if wd < 0:
                    code = ctypes.get_errno()
                    if code in (errno.ENOENT, errno.ENOTDIR, errno.EACCES):
                        self._changed = True  # gone since it was listed: rebuild
                        continue
                    self.usable = False  # ENOSPC (the watch limit) or worse: poll instead
                    return False
                self._watched.add(folder)
                if is_git:
                    self._git_watches.add(wd)
            return True

    def changed(self) -> bool:
        """True when a relevant event arrived since the last call (see the invariants)."""
        with self._lock:
            if self._fd < 0:
                return True
            while True:
                try:
                    data = os.read(self._fd, _READ_BYTES)
                except BlockingIOError:
                    break
                except OSError:
                    self._changed = True
                    break
                if not data:
                    break
                self._changed = self._parse(data) or self._changed
            found, self._changed = self._changed, False
            return found

    def _parse(self, data: bytes) -> bool:
        found = False
        offset = 0
        while offset + _HEADER.size <= len(data):
            wd, mask, _cookie, length = _HEADER.unpack_from(data, offset)
            offset += _HEADER.size
            raw = data[offset:offset + length].split(b"\0", 1)[0]
            offset += length
            if relevant(mask, os.fsdecode(raw), wd in self._git_watches):
                found = True
        return found

    def close(self) -> None:
        """Stop watching (idempotent)."""
        with self._lock:
            if self._fd >= 0:
                self._finalizer()  # closes the descriptor, once
            self._fd = -1
            self.usable = False
