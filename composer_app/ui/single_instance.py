"""``SingleInstance``: one running app per data folder; a second start brings the first forward.

Two processes on one data folder would run two embedded servers and two sync clients against the
same SQLite stores. So the app claims its data folder before it opens anything there: a
``QLockFile`` (``instance.lock`` in the data folder) decides who runs, and the instance that holds
it listens on a ``QLocalServer`` named after the folder. A second start does not get the lock,
connects to that server, asks it to ``activate`` and exits; the first raises its window. While the
owner is still starting (locked, not listening yet) a second start keeps asking for a few seconds.

Invariants: at most one live process holds a data folder's lock; a lock left by a crashed process
(its process is gone) is taken over at once, and so is the socket file it left; the server's name
depends only on the resolved data folder (two folders never share one); a malformed or unknown
message on the socket is ignored; ``release`` is idempotent and frees both lock and name.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

_log = logging.getLogger(__name__)

LOCK_FILE = "instance.lock"
ACTIVATE = b"activate\n"
CONNECT_ATTEMPTS = 20
CONNECT_WAIT_MS = 250
MESSAGE_MAX_BYTES = 64


def server_name(data_dir: Path) -> str:
    """The local server's name for ``data_dir`` (short: a socket path has a small limit)."""
    resolved = os.path.realpath(data_dir)
    digest = hashlib.sha256(os.fsencode(resolved)).hexdigest()[:20]
    return f"composer-{os.getuid() if hasattr(os, 'getuid') else 0}-{digest}"


class SingleInstance(QObject):
    """The claim of one data folder by this process."""

    activation_requested = Signal()
    """Another start on the same data folder asked this instance to come to the front."""

    def __init__(self, data_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.data_dir = data_dir
        self.name = server_name(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        self._lock = QLockFile(str(data_dir / LOCK_FILE))
        self._lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
        self._server: QLocalServer | None = None
        self._clients: list[QLocalSocket] = []
        self.primary = False

    def claim(self) -> bool:
        """True when this process now owns the data folder (``listen`` then answers later
        starts); False when another live instance owns it (it has been asked to come forward).
        Needs no ``QCoreApplication`` (a second start asks and exits before making one)."""
        for _ in range(CONNECT_ATTEMPTS):
            if self._lock.tryLock(0):
                self.primary = True
                return True
            if self._lock.error() != QLockFile.LockError.LockFailedError:
                # no live owner but a lock that cannot be read or written: run, do not refuse
                _log.warning("the instance lock in %s could not be used (%s); starting anyway",
                             self.data_dir, self._lock.error())
                return True
            if self._ask_to_activate():
                return False
            time.sleep(CONNECT_WAIT_MS / 1000)  # the owner is starting: not listening yet
        _log.warning("another instance holds %s but does not answer", self.data_dir)
        return False

    def _ask_to_activate(self) -> bool:
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(CONNECT_WAIT_MS):
            return False
        socket.write(ACTIVATE)
        sent = socket.waitForBytesWritten(CONNECT_WAIT_MS * 4)
        socket.disconnectFromServer()
        return sent

    def listen(self) -> None:
        """Answer later starts (once a ``QCoreApplication`` exists; only when ``claim`` won)."""
        if not self.primary or self._server is not None:
            return
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        QLocalServer.removeServer(self.name)  # a socket file a crashed owner left behind
        if not server.listen(self.name):
            _log.warning("later starts cannot reach this instance: %s", server.errorString())
            return
        server.newConnection.connect(self._on_connection)
        self._server = server

    def _on_connection(self) -> None:
        assert self._server is not None
        while (socket := self._server.nextPendingConnection()) is not None:
            self._clients.append(socket)
            socket.readyRead.connect(self._on_ready_read)
            socket.disconnected.connect(self._on_disconnected)
            if socket.bytesAvailable():
                self._read(socket)

    def _on_ready_read(self) -> None:
        socket = self.sender()
        if isinstance(socket, QLocalSocket):
            self._read(socket)

    def _read(self, socket: QLocalSocket) -> None:
        data = bytes(socket.read(MESSAGE_MAX_BYTES).data())
        if data.startswith(ACTIVATE):
            self.activation_requested.emit()

    def _on_disconnected(self) -> None:
        socket = self.sender()
        if isinstance(socket, QLocalSocket) and socket in self._clients:
            self._clients.remove(socket)
            socket.deleteLater()

    def release(self) -> None:
        """Give up the folder (idempotent)."""
        for socket in self._clients:
            socket.abort()
        self._clients.clear()
        if self._server is not None:
            self._server.close()
            self._server = None
        if self.primary:
            self._lock.unlock()
            self.primary = False
