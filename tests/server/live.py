"""Real server processes on loopback for crash, restart and multi-process tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

READY_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cli(*args: str) -> str:
    """Run ``python -m composer_app.server`` and return its stdout."""
    done = subprocess.run([sys.executable, "-m", "composer_app.server", *args], check=True,
                          capture_output=True, text=True, timeout=60)
    return done.stdout.strip()


@dataclass
class ServerProcess:
    """``composer-server serve`` in a child process."""

    args: list[str]
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "composer_app.server", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--log-level", "warning", "--provider", "echo",
             *self.args],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + READY_TIMEOUT
        while True:  # wait for the listening socket (a condition, not a fixed sleep)
            assert self.process.poll() is None, "server exited during start"
            try:
                if httpx.get(self.url + "/api/environment", timeout=1.0).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.05)

    def kill9(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()


def data_args(data_dir: Path) -> list[str]:
    return ["--data-dir", str(data_dir)]
