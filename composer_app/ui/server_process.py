"""The embedded server in a process of its own, started by the app and stopped with it.

Why a process: the window and the server then never compete for one interpreter lock. The
server's start-up (its web framework, models and store) runs on the second core while the window
builds itself, and later the local assistant's indexing and answering never stall typing.

Invariants:
- The parent passes the configuration as one JSON line on the child's stdin (``ServerConfig``),
  so nothing of it shows in the process list, and reads exactly one JSON line back from the
  child's stdout: ``{"url": ..., "token": ..., "provider": ..., "knowledge_dir": ...}`` once
  the server accepts connections on loopback (the assistant it actually answers with, and its
  knowledge folder or ``""``), or ``{"error": ...}`` when it cannot start.
- The child's stdout is its stderr from its start, and the answer goes through a handle of its
  own on the pipe: nothing it prints can fill the pipe the parent no longer reads and stall the
  server, and by the time the parent has the answer the redirection is already in place.
- The child serves until its stdin reaches end of file (the parent stopped it, or died: the
  pipe closes with the parent, so the server never outlives the app), then stops the server
  gracefully, closes its providers and exits 0.
- ``ServerProcess.stop`` is idempotent: it closes the pipe, waits ``STOP_TIMEOUT`` seconds, then
  terminates the child, and kills it if it still has not exited.
- A child that ends while the app still wants it (it crashed, or was killed) is started again on
  the same port, with the same data folder and hence the same token, so the sync engines simply
  reconnect; each crash and restart is reported through ``watch``'s callback, and after
  ``MAX_RESTARTS`` crashes within ``RESTART_WINDOW`` seconds it is left stopped with a reason
  instead of restarting in a loop.
- The child imports no Qt; the parent imports nothing of the server.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

from composer_app.ui.settings.settings_logic import DEFAULT_OPENAI_BASE_URL, AppPaths, AppSettings

__all__ = ["CHILD_FLAG", "MAX_RESTARTS", "RESTART_WINDOW", "START_TIMEOUT", "STOP_TIMEOUT",
           "ServerConfig", "ServerProcess", "child_command", "serve_child"]

CHILD_FLAG = "--embedded-server"
START_TIMEOUT = 60.0  # the child's interpreter start plus the server's own start timeout
STOP_TIMEOUT = 10.0
MAX_RESTARTS = 3
RESTART_WINDOW = 60.0

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerConfig:
    """What the child needs to start the embedded server (no secrets: provider keys are read
    per turn from the keyring or the environment the child inherits)."""

    server_dir: str
    provider: str = "local"
    knowledge_dir: str = ""
    openai_base_url: str = DEFAULT_OPENAI_BASE_URL
    openai_model: str = ""
    workspace_roots: tuple[str, ...] = field(default_factory=tuple)
    port: int = 0  # 0: any free port

    @classmethod
    def of(cls, paths: AppPaths, settings: AppSettings,
           workspace_roots: tuple[Path, ...] = ()) -> ServerConfig:
        """The configuration the in-process ``start_embedded_server`` would use."""
        return cls(str(paths.server_dir), settings.provider, settings.knowledge_dir,
                   settings.openai_base_url, settings.openai_model,
                   tuple(str(root) for root in workspace_roots))

    def to_line(self) -> bytes:
        return (json.dumps(asdict(self)) + "\n").encode("utf-8")

    @classmethod
    def from_line(cls, line: bytes) -> ServerConfig:
        """The configuration a parent sent; ``ValueError`` for anything malformed."""
        data = json.loads(line.decode("utf-8"))
        if not isinstance(data, dict) or not isinstance(data.get("server_dir"), str):
            raise ValueError("the server configuration is not an object with a server_dir")
        roots = data.get("workspace_roots", [])
        if not isinstance(roots, list) or not all(isinstance(r, str) for r in roots):
            raise ValueError("workspace_roots must be a list of paths")
        texts = ("provider", "knowledge_dir", "openai_base_url", "openai_model")
        if not all(isinstance(data.get(key, ""), str) for key in texts):
            raise ValueError("the server configuration has a field of the wrong type")
        port = data.get("port", 0)
        if type(port) is not int or not 0 <= port <= 65535:
            raise ValueError("port must be an integer from 0 to 65535")
        return cls(data["server_dir"], **{key: data[key] for key in texts if key in data},
                   workspace_roots=tuple(roots), port=port)


def child_command() -> list[str]:
    """How to run this app's own executable as the server child (the bundle or the source)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, CHILD_FLAG]
    return [sys.executable, "-m", "composer_app", CHILD_FLAG]


class ServerProcess:
    """A started child serving the embedded server (see the module invariants)."""

    def __init__(self, process: subprocess.Popen[bytes], config: ServerConfig, answer: _Answer,
                 ) -> None:
        self._process = process
        self._config = config
        self.url = answer.url
        self.token = answer.token
        self.provider = answer.provider
        self.knowledge_dir = answer.knowledge_dir
        self._lock = threading.Lock()
        self._stopped = False
        self._watcher: threading.Thread | None = None

    @property
    def pid(self) -> int:
        return self._process.pid

    @classmethod
    def start(cls, config: ServerConfig, timeout: float = START_TIMEOUT) -> ServerProcess:
        """Start the child and wait for its answer; ``RuntimeError`` says why it did not start."""
        process, answer = _spawn(config, timeout)
        return cls(process, config, answer)

    def exit_code(self) -> int | None:
        """The current child's exit code once it has ended, else None."""
        return self._process.poll()

    def watch(self, on_change: Callable[[str], None]) -> None:
        """Restart the child whenever it ends unasked, telling ``on_change`` (from another
        thread) what happened; at most one watch runs."""
        with self._lock:
            if self._watcher is not None or self._stopped:
                return
            self._watcher = threading.Thread(target=self._watch, args=(on_change,),
                                             name="composer-server-watch", daemon=True)
            self._watcher.start()

    def stop(self) -> None:
        """Ask the child to stop, then make sure it has (idempotent)."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
            process = self._process
        _end(process)

    def _watch(self, on_change: Callable[[str], None]) -> None:
        crashes: list[float] = []
        port = urlsplit(self.url).port or 0
        while True:
            with self._lock:
                process = self._process
            code = process.wait()
            with self._lock:
                if self._stopped:
                    return
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
            now = time.monotonic()
            crashes = [t for t in crashes if now - t < RESTART_WINDOW] + [now]
            if len(crashes) > MAX_RESTARTS:
                on_change(f"The embedded server stopped again (exit code {code}) and was not "
                          f"restarted: it stopped {len(crashes)} times within a minute. "
                          "Restart the app; the log folder may say why.")
                return
            on_change(f"The embedded server stopped unexpectedly (exit code {code}); "
                      "restarting it…")
            try:
                fresh, _answer = _spawn(replace(self._config, port=port), START_TIMEOUT)
            except RuntimeError as exc:
                on_change(f"The embedded server could not be restarted: {exc}")
                return
            with self._lock:
                if self._stopped:
                    stale = fresh
                else:
                    stale, self._process = None, fresh
            if stale is not None:
                _end(stale)
                return
            on_change("The embedded server was restarted.")


@dataclass(frozen=True)
class _Answer:
    url: str
    token: str
    provider: str
    knowledge_dir: str


def _spawn(config: ServerConfig, timeout: float) -> tuple[subprocess.Popen[bytes], _Answer]:
    """A started child and its answer; ``RuntimeError`` says why it did not start."""
    process = subprocess.Popen(
        child_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None,
        close_fds=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(config.to_line())
        process.stdin.flush()
        answer = _read_answer(process.stdout, timeout)
    except BaseException:
        _end(process)
        raise
    if answer is None:
        code = _end(process)
        raise RuntimeError(f"the server process ended before it was ready (exit code {code})"
                           if code is not None else
                           f"the server process did not answer within {timeout:.0f} s")
    error = answer.get("error")
    url, token = answer.get("url"), answer.get("token")
    if isinstance(error, str) or not isinstance(url, str) or not isinstance(token, str):
        _end(process)
        raise RuntimeError(error if isinstance(error, str) else "the server process answered "
                           "something that is not a server address")
    provider, knowledge = answer.get("provider", ""), answer.get("knowledge_dir", "")
    return process, _Answer(url, token, provider if isinstance(provider, str) else "",
                            knowledge if isinstance(knowledge, str) else "")


def _read_answer(stream: IO[bytes], timeout: float) -> dict[str, object] | None:
    """The child's one JSON line, or None when it closed its stdout or took too long."""
    lines: list[bytes] = []
    reader = threading.Thread(target=lambda: lines.append(stream.readline()),
                              name="composer-server-answer", daemon=True)
    reader.start()
    reader.join(timeout)
    if not lines or not lines[0]:
        return None
    try:
        answer = json.loads(lines[0].decode("utf-8"))
    except ValueError:
        return {"error": "the server process answered something that is not JSON"}
    return answer if isinstance(answer, dict) else {"error": "the server process answered "
                                                              "something that is not an object"}


def _end(process: subprocess.Popen[bytes]) -> int | None:
    """Close the child's stdin (its signal to stop), wait, then terminate or kill it; the exit
    code, or None when it had to be killed."""
    if process.stdin is not None:
        with contextlib.suppress(OSError):
            process.stdin.close()
    code: int | None = None
    try:
        code = process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        _log.warning("the embedded server did not stop within %.0f s; terminating it",
                     STOP_TIMEOUT)
        process.terminate()
        try:
            process.wait(2.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stdout is not None:
        process.stdout.close()
    return code


def serve_child(stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """The child's whole life: read the configuration, start the server, answer, serve until
    stdin closes, stop. Returns the exit code."""
    from composer_app.ui.backend import start_embedded_server
    from composer_app.ui.settings.settings_logic import app_paths

    source = stdin if stdin is not None else sys.stdin.buffer
    if stdout is None:  # the real process: the parent reads no more than the answer, so the
        sys.stdout.flush()  # answer goes through a handle of its own and everything printed
        sink: IO[bytes] = os.fdopen(os.dup(sys.stdout.fileno()), "wb")  # goes to stderr from
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # the start, never into a full pipe
    else:
        sink = stdout

    def answer(message: dict[str, str]) -> bool:
        """Writes the one-line answer; False when the app has gone (its end of the pipe is
        closed), so the child stops quietly instead of dying with a traceback."""
        try:
            sink.write((json.dumps(message) + "\n").encode("utf-8"))
            sink.flush()
        except (BrokenPipeError, ValueError):
            if stdout is None:  # interpreter shutdown must not flush into the broken pipe
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sink.fileno())
                os.close(devnull)
            _log.info("the app went away before the embedded server answered; stopping")
            return False
        return True

    try:
        config = ServerConfig.from_line(source.readline())
    except (ValueError, UnicodeDecodeError) as exc:
        answer({"error": f"the server configuration is malformed: {exc}"})
        return 2
    settings = AppSettings(provider=config.provider, knowledge_dir=config.knowledge_dir,
                           openai_base_url=config.openai_base_url,
                           openai_model=config.openai_model)
    server_dir = Path(config.server_dir)
    roots = tuple(Path(root) for root in config.workspace_roots) or None
    try:
        server = start_embedded_server(app_paths(server_dir.parent), settings,
                                       server_dir=server_dir, workspace_roots=roots,
                                       port=config.port, settle_heap=True)
    except Exception as exc:
        _log.exception("the embedded server did not start")
        answer({"error": str(exc) or type(exc).__name__})
        return 1
    try:
        options = server.router.options
        if not answer({"url": server.url, "token": server.token,
                       "provider": options.provider,
                       "knowledge_dir": str(options.knowledge_dir or "")}):
            return 1
        while source.readline():  # anything before end of file is ignored
            pass
    finally:
        server.stop()
    return 0
