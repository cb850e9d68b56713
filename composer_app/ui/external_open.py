"""Open URLs in external programs (browser, file manager) without leaking the bundle's libraries.

Invariants: the frozen (PyInstaller) bootloader prepends the bundle to ``LD_LIBRARY_PATH`` and keeps
the user's value in ``LD_LIBRARY_PATH_ORIG``, and the Qt runtime hook points ``QT_PLUGIN_PATH`` and
``QML2_IMPORT_PATH`` into the bundle. A child program must never load the bundle's libraries or
plugins, so ``child_environment`` restores the original library path (or removes the variable when
there was none), drops the bootloader's private ``_PYI_*`` variables, and removes every path entry
that lies inside the bundle folder (dropping a variable left empty).

``open_url_externally`` is the one way the app opens a URL outside itself: when frozen on Linux it
starts ``xdg-open`` detached with that environment; otherwise it defers to
``QDesktopServices.openUrl``. ``install_url_handlers`` routes Qt's own URL opening
(``QDesktopServices.openUrl``, links in labels) through the same path in a frozen app.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QUrl, Slot
from PySide6.QtGui import QDesktopServices

LIBRARY_PATH = "LD_LIBRARY_PATH"
ORIGINAL_SUFFIX = "_ORIG"
BOOTLOADER_PREFIX = "_PYI_"
OPENER = "xdg-open"
HANDLED_SCHEMES = ("http", "https", "file", "mailto")


def child_environment(env: Mapping[str, str], bundle_dir: str | None = None) -> dict[str, str]:
    """``env`` as an external program must see it: the user's library path, no bootloader state,
    and (when ``bundle_dir`` is given) no path into the bundle."""
    child = {key: value for key, value in env.items() if not key.startswith(BOOTLOADER_PREFIX)}
    original = child.pop(LIBRARY_PATH + ORIGINAL_SUFFIX, None)
    if original is None:
        child.pop(LIBRARY_PATH, None)
    else:
        child[LIBRARY_PATH] = original
    if bundle_dir:
        for key, value in list(child.items()):
            entries = value.split(os.pathsep)
            kept = [entry for entry in entries if not _inside(entry, bundle_dir)]
            if len(kept) == len(entries):
                continue
            if any(kept):
                child[key] = os.pathsep.join(kept)
            else:
                del child[key]
    return child


def _inside(path: str, folder: str) -> bool:
    folder = folder.rstrip("/")
    return path == folder or path.startswith(folder + "/")


def bundle_dir() -> str | None:
    """The folder of the frozen executable (which holds ``_internal``), or None from source."""
    return os.path.dirname(os.path.abspath(sys.executable)) if is_frozen() else None


def is_frozen() -> bool:
    """True inside the PyInstaller bundle."""
    return bool(getattr(sys, "frozen", False))


def open_url_externally(url: str) -> bool:
    """Open ``url`` with the desktop's handler; False when it could not be started."""
    target = QUrl(url)
    if not target.isValid() or target.isEmpty():
        return False
    if is_frozen() and sys.platform.startswith("linux"):
        return _start_opener(target)
    return QDesktopServices.openUrl(target)


def _start_opener(target: QUrl) -> bool:
    env = child_environment(os.environ, bundle_dir())
    program = shutil.which(OPENER, path=env.get("PATH", os.defpath))
    if program is None:
        return False
    process = QProcess()
    process.setProgram(program)
    process.setArguments([target.toString(QUrl.ComponentFormattingOption.FullyEncoded)])
    process.setProcessEnvironment(_qt_environment(env))
    process.setStandardInputFile(QProcess.nullDevice())
    process.setStandardOutputFile(QProcess.nullDevice())
    process.setStandardErrorFile(QProcess.nullDevice())
    started = process.startDetached()  # bool here; some PySide6 builds return (bool, pid)
    return bool(started[0] if isinstance(started, tuple) else started)


def _qt_environment(env: Mapping[str, str]) -> QProcessEnvironment:
    result = QProcessEnvironment()
    for key, value in env.items():
        result.insert(key, value)
    return result


class _ExternalOpener(QObject):
    """Receives the URLs Qt would open itself and opens them with ``open_url_externally``."""

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        _start_opener(url)


_opener: _ExternalOpener | None = None


def install_url_handlers() -> bool:
    """In a frozen Linux app, send Qt's URL opening through ``xdg-open`` with a clean environment.

    Returns True when handlers were installed; call ``remove_url_handlers`` before the application
    quits. Outside the bundle Qt's own handling is already correct and nothing is installed.
    """
    global _opener
    if not (is_frozen() and sys.platform.startswith("linux")) or _opener is not None:
        return False
    _opener = _ExternalOpener()
    for scheme in HANDLED_SCHEMES:
        QDesktopServices.setUrlHandler(scheme, _opener, "open")  # type: ignore[arg-type]
    return True


def remove_url_handlers() -> None:
    """Undo ``install_url_handlers``."""
    global _opener
    if _opener is None:
        return
    for scheme in HANDLED_SCHEMES:
        QDesktopServices.unsetUrlHandler(scheme)
    _opener.deleteLater()
    _opener = None
