"""Loopback thread servers, a hand-driven clock and an engine event recorder for the sync tests."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from composer_app.server.app import build_app
from composer_app.server.providers.base import Provider
from composer_app.server.providers.echo import EchoProvider
from composer_app.server.settings import ServerSettings
from composer_app.server.store import open_store
from composer_app.sync.backoff import Clock
from composer_app.sync.engine import EngineListener, SyncEngine

WAIT = 20.0


@dataclass
class Fault:
    """Answer matching commands with ``status`` instead of forwarding (or after, when ``lose``)."""

    status: int = 503
    retry_after: str | None = None
    thread_id: str | None = None
    path: str = "/api/commands"
    method: str = "POST"
    prefix: bool = False  # match ``path`` as a prefix
    remaining: int | None = None  # None: forever
    lose: bool = False  # forward first, then lose the answer
    hold: threading.Event | None = None  # keep the request waiting until set, then forward
    fail_after_hold: bool = False  # once ``hold`` is set, answer ``status`` instead
    reached: threading.Event = field(default_factory=threading.Event)  # set once it matched


@dataclass
class Faults:
    """Fault rules consulted per request, plus a log of command bodies that reached the server."""

    rules: list[Fault] = field(default_factory=list)
    forwarded: list[dict[str, Any]] = field(default_factory=list)
    requests: list[tuple[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    ws_garbage: list[str] = field(default_factory=list)  # sent before a socket's first frame

    def match(self, method: str, path: str, body: dict[str, Any] | None) -> Fault | None:
        with self.lock:
            for rule in self.rules:
                if rule.method != method:
                    continue
                if not (path.startswith(rule.path) if rule.prefix else path == rule.path):
                    continue
                if rule.thread_id is not None and (body or {}).get("threadId") != rule.thread_id:
                    continue
                if rule.remaining is not None:
                    if rule.remaining <= 0:
                        continue
                    rule.remaining -= 1
                rule.reached.set()
                return rule
        return None

    def clear(self) -> None:
        with self.lock:
            self.rules.clear()


class FaultyApp:
    """ASGI wrapper injecting ``Faults`` in front of the real server app."""

    def __init__(self, app: Any, faults: Faults) -> None:
        self.app = app
        self.faults = faults

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and self.faults.ws_garbage:
            garbage, first = list(self.faults.ws_garbage), True

            async def send_garbage_first(message: Any) -> None:
                nonlocal first
                if first and message["type"] == "websocket.send":
                    first = False
                    for text in garbage:
                        await send({"type": "websocket.send", "text": text})
                await send(message)
            await self.app(scope, receive, send_garbage_first)
            return
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT"):
            await self.app(scope, receive, send)
            return
        self.faults.requests.append((scope["method"], scope["path"]))
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        if scope["path"] == "/api/commands" and isinstance(body, dict):
            self.faults.forwarded.append(body)
        rule = self.faults.match(scope["method"], scope["path"],
                                 body if isinstance(body, dict) else None)
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if sent:  # then whatever the connection does (a disconnect when it closes)
                return dict(await receive())
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}

        if rule is not None and rule.hold is not None:
            await asyncio.to_thread(rule.hold.wait)
            if not rule.fail_after_hold:
                await self.app(scope, replay, send)
                return
        if rule is not None and rule.lose:
            async def swallow(_message: Any) -> None:
                return None
            await self.app(scope, replay, swallow)
        elif rule is None:
            await self.app(scope, replay, send)
            return
        headers = [(b"content-type", b"application/json")]
        if rule.retry_after is not None:
            headers.append((b"retry-after", rule.retry_after.encode()))
        code = {429: "rate_limited", 410: "url_expired"}.get(rule.status, "unavailable")
        if rule.status < 500 and rule.status not in (410, 429):
            code = "invalid_command"
        payload = json.dumps({"error": {"code": code, "message": "injected",
                                        "retryable": rule.status >= 500 or rule.status == 429}})
        await send({"type": "http.response.start", "status": rule.status, "headers": headers})
        await send({"type": "http.response.body", "body": payload.encode()})


class LoopbackServer:
    """The real thread server on 127.0.0.1 in a background thread (uvicorn), restartable."""

    def __init__(self, data_dir: Path, *, inline_message_context: bool = True,
                 replay_limit: int = 1_000, provider: Provider | None = None,
                 **settings: Any) -> None:
        self.data_dir = data_dir
        self.settings = settings
        self.inline = inline_message_context
        self.replay_limit = replay_limit
        self.provider = provider or EchoProvider()
        self.faults = Faults()
        self.port = 0
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._store: Any = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LoopbackServer:
        store = open_store(self.data_dir)
        store.open()
        self._store = store
        settings = ServerSettings(data_dir=self.data_dir,
                                  inline_message_context=self.inline,
                                  replay_limit=self.replay_limit,
                                  provider=self.provider, **self.settings)
        app = FaultyApp(build_app(settings, store), self.faults)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        sock.listen(128)
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", lifespan="on", ws_ping_interval=None)
        server = uvicorn.Server(config)
        self._server = server
        self._thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                                        daemon=True)
        self._thread.start()
        self._sock = sock
        return self

    def token(self, user: str = "ada", device: str = "laptop") -> str:
        token, _device = self._store.create_token(user, device)
        return str(token)

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(30)
        self._sock.close()
        self._server = None

    def get(self, path: str, token: str, *, missing: Any = ...) -> Any:
        """GET JSON; a 404 gives ``missing`` when one is passed."""
        with httpx.Client(base_url=self.base_url, timeout=WAIT) as client:
            reply = client.get(path, headers={"Authorization": f"Bearer {token}"})
            if reply.status_code == 404 and missing is not ...:
                return missing
            reply.raise_for_status()
            return reply.json()

    def post(self, path: str, token: str, body: Any) -> httpx.Response:
        with httpx.Client(base_url=self.base_url, timeout=WAIT) as client:
            return client.post(path, json=body, headers={"Authorization": f"Bearer {token}"})


class ManualClock(Clock):
    """A clock the test moves by hand; waits end only on explicit wake-ups."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def timeout_until(self, deadline: float) -> float | None:
        return 0.0 if deadline <= self.t else None


class Recorder(EngineListener):
    """Collects engine callbacks and lets the test wait for a condition on them."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.threads: set[str] = set()
        self._cond = threading.Condition()

    def _add(self, *item: Any) -> None:
        with self._cond:
            self.calls.append(item)
            self.threads.add(threading.current_thread().name)
            self._cond.notify_all()

    def thread_list_changed(self) -> None:
        self._add("thread_list_changed")

    def thread_changed(self, thread_id: str) -> None:
        self._add("thread_changed", thread_id)

    def message_upserted(self, thread_id: str, message_id: str) -> None:
        self._add("message_upserted", thread_id, message_id)

    def message_removed(self, thread_id: str, message_id: str) -> None:
        self._add("message_removed", thread_id, message_id)

    def outbox_item_changed(self, thread_id: str, message_id: str, state: str) -> None:
        self._add("outbox", thread_id, message_id, state)

    def upload_changed(self, local_id: str, state: str, sent_bytes: int) -> None:
        self._add("upload", local_id, state, sent_bytes)

    def connection_state_changed(self, state: str, next_try_seconds: int) -> None:
        self._add("state", state, next_try_seconds)

    def toast_requested(self, level: str, title: str, body: str) -> None:
        self._add("toast", level, title, body)

    def wait(self, check: Callable[[], Any], timeout: float = WAIT) -> Any:
        """Wait until ``check()`` is truthy, re-checking after every callback; return its value.

        ``check`` runs without the recorder's lock, so it may query the engine.
        """
        deadline = time.monotonic() + timeout
        while True:
            with self._cond:
                seen = len(self.calls)
            result = check()
            if result:
                return result
            with self._cond:
                remaining = deadline - time.monotonic()
                assert remaining > 0, f"condition not reached; last calls: {self.calls[-8:]}"
                self._cond.wait_for(lambda n=seen: len(self.calls) > n, remaining)

    def saw(self, *item: Any) -> bool:
        return item in self.calls


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LoopbackServer]:
    srv = LoopbackServer(tmp_path / "server").start()
    yield srv
    srv.stop()


@pytest.fixture
def make_engine(tmp_path: Path) -> Iterator[Callable[..., tuple[SyncEngine, Recorder]]]:
    engines: list[SyncEngine] = []

    def make(base_url: str, token: str, name: str = "client", **kw: Any
             ) -> tuple[SyncEngine, Recorder]:
        engine = SyncEngine(base_url, token, tmp_path / name, **kw)
        recorder = Recorder()
        engine.add_listener(recorder)
        engine.start()
        engines.append(engine)
        return engine, recorder

    yield make
    for engine in engines:
        engine.stop()


def run(coro: Any) -> Any:
    """Run a coroutine to completion on a fresh loop (for direct async checks)."""
    return asyncio.run(coro)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m composer_app.server serve`` as a real child process (killable with SIGKILL)."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.data_dir = data_dir
        self.port = port
        self.proc: subprocess.Popen[str] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def create_token(self, user: str = "ada", device: str = "laptop") -> str:
        out = subprocess.run(
            [sys.executable, "-m", "composer_app.server", "create-token", "--user", user,
             "--name", device, "--data-dir", str(self.data_dir)],
            capture_output=True, text=True, check=True, timeout=60)
        return out.stdout.splitlines()[0].strip()

    def start(self) -> ServerProcess:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "composer_app.server", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--data-dir", str(self.data_dir), "--log-level", "info",
             "--provider", "echo"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert self.proc.stderr is not None
        for line in self.proc.stderr:  # blocks until uvicorn reports it is serving
            if "Uvicorn running on" in line or "Application startup complete" in line:
                break
        else:
            raise RuntimeError("server process exited before serving")
        threading.Thread(target=self._drain, args=(self.proc,), daemon=True).start()
        return self

    @staticmethod
    def _drain(proc: subprocess.Popen[str]) -> None:
        assert proc.stderr is not None
        with proc.stderr:
            for _line in proc.stderr:
                pass

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
