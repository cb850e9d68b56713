"""The embedded server's own process: its one-line handshake, its end with the pipe (and with
the app), and what a malformed configuration gets."""

from __future__ import annotations

import gc
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.ui.server_process import ServerConfig, ServerProcess, serve_child
from composer_app.ui.settings.settings_logic import AppSettings, app_paths

texts = st.text(max_size=40)


@given(st.builds(ServerConfig, texts, texts, texts, texts, texts,
                 st.lists(texts, max_size=3).map(tuple), st.integers(0, 65535)))
def test_the_configuration_line_round_trips(config: ServerConfig) -> None:
    line = config.to_line()
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert ServerConfig.from_line(line) == config


@pytest.mark.parametrize("line", [b"", b"not json\n", b"[]\n", b"{}\n", b'{"server_dir": 3}\n',
                                  b'{"server_dir": "x", "workspace_roots": "/"}\n',
                                  b'{"server_dir": "x", "provider": null}\n', b"\xff\n",
                                  b'{"server_dir": "x", "port": 70000}\n',
                                  b'{"server_dir": "x", "port": true}\n'])
def test_a_malformed_configuration_gets_an_error_line(line: bytes) -> None:
    out = io.BytesIO()
    assert serve_child(io.BytesIO(line), out) == 2
    answer = json.loads(out.getvalue())
    assert answer["error"].startswith("the server configuration is malformed")


def test_the_configuration_follows_the_settings(tmp_path: Path) -> None:
    paths = app_paths(tmp_path)
    settings = AppSettings(provider="echo", knowledge_dir="~/notes", openai_model="m")
    config = ServerConfig.of(paths, settings, (tmp_path,))
    assert config.server_dir == str(paths.server_dir)
    assert (config.provider, config.knowledge_dir, config.openai_model) == ("echo", "~/notes", "m")
    assert config.openai_base_url == settings.openai_base_url
    assert config.workspace_roots == (str(tmp_path),)


def _serving(url: str, token: str) -> bool:
    try:
        reply = httpx.get(f"{url}/api/environment", timeout=2,
                          headers={"Authorization": f"Bearer {token}"})
    except httpx.TransportError:
        return False
    return reply.status_code == 200


def _gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_sigterm_stops_the_server_cleanly(tmp_path: Path) -> None:
    server = ServerProcess.start(ServerConfig(str(tmp_path / "server")))
    try:
        assert _serving(server.url, server.token)
        os.kill(server.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while server.exit_code() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.exit_code() == 0
    finally:
        server.stop()
    assert not _serving(server.url, server.token)


def test_the_server_ends_with_the_app_that_started_it(tmp_path: Path) -> None:
    """An app killed outright (no chance to stop anything) takes its server with it."""
    script = (
        "import sys\n"
        "from composer_app.ui.server_process import ServerConfig, ServerProcess\n"
        f"s = ServerProcess.start(ServerConfig({str(tmp_path / 'server')!r}))\n"
        "print(s.pid, s.url, s.token, flush=True)\n"
        "import os, signal\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    app = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=90,
                         check=False)
    assert app.returncode == -signal.SIGKILL
    pid, url, token = app.stdout.decode().split()
    assert _gone(int(pid), within=15)
    assert not _serving(url, token)


def test_a_server_that_cannot_start_answers_with_its_reason(tmp_path: Path) -> None:
    blocker = tmp_path / "server"
    blocker.write_text("a file, not a folder")
    with pytest.raises(RuntimeError) as raised:
        ServerProcess.start(ServerConfig(str(blocker)))
    assert str(raised.value)


def test_a_crashed_server_comes_back_on_the_same_address(tmp_path: Path) -> None:
    """Killed outright while the app runs: restarted on the same port with the same token (so
    the sync engines just reconnect), and the user is told both things."""
    server = ServerProcess.start(ServerConfig(str(tmp_path / "server")))
    said: list[str] = []
    try:
        server.watch(said.append)
        first = server.pid
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while "The embedded server was restarted." not in said and time.monotonic() < deadline:
            time.sleep(0.05)
        assert said[0].startswith("The embedded server stopped unexpectedly (exit code -9)")
        assert said[-1] == "The embedded server was restarted."
        assert server.pid != first
        assert _serving(server.url, server.token)
    finally:
        server.stop()
    assert not _serving(server.url, server.token)
    assert _gone(server.pid, within=15)


def test_a_server_that_keeps_crashing_is_left_stopped_with_a_reason(tmp_path: Path) -> None:
    server = ServerProcess.start(ServerConfig(str(tmp_path / "server")))
    said: list[str] = []
    try:
        server.watch(said.append)
        deadline = time.monotonic() + 120
        while not any("was not restarted" in s for s in said) and time.monotonic() < deadline:
            if server.exit_code() is None:
                os.kill(server.pid, signal.SIGKILL)
            time.sleep(0.05)
        assert "was not restarted" in said[-1]
        assert said.count("The embedded server was restarted.") == 3
        time.sleep(0.5)
        assert server.exit_code() is not None  # no fourth restart
    finally:
        server.stop()


def test_after_its_answer_the_server_writes_nothing_into_the_pipe(tmp_path: Path) -> None:
    """Output after the handshake goes to stderr: the parent stops reading the pipe, and a full
    pipe would block the server."""
    server = ServerProcess.start(ServerConfig(str(tmp_path / "server")))
    try:
        fd = Path(f"/proc/{server.pid}/fd")
        assert os.readlink(fd / "1") == os.readlink(fd / "2")
        assert _serving(server.url, server.token)
    finally:
        server.stop()


def test_an_app_gone_before_the_answer_leaves_a_quiet_server(tmp_path: Path) -> None:
    """The app quit (or failed to open its window) before reading the handshake: the server
    stops by itself, with no traceback in its output."""
    child = subprocess.Popen(
        [sys.executable, "-m", "composer_app", "--embedded-server"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    child.stdout.close()  # nobody will ever read the answer
    child.stdin.write(ServerConfig(str(tmp_path / "server")).to_line())
    child.stdin.flush()
    try:
        code = child.wait(90)
    finally:
        child.kill()
        child.stdin.close()
    errors = child.stderr.read().decode()
    child.stderr.close()
    assert code == 1
    assert "Traceback" not in errors and "BrokenPipe" not in errors


def test_the_server_process_freezes_what_its_startup_built(tmp_path: Path) -> None:
    gc.unfreeze()
    try:
        out = io.BytesIO()
        line = ServerConfig(str(tmp_path / "server"), provider="echo").to_line()
        assert serve_child(io.BytesIO(line), out) == 0  # serves until end of file, then stops
        assert "url" in json.loads(out.getvalue())
        assert gc.get_freeze_count() > 0  # the process is the server's own
    finally:
        gc.unfreeze()
