"""Running one shell command in a workspace and streaming its output as NDJSON lines.

Invariants: the command runs as ``$SHELL -c`` (else ``/bin/sh -c``) in its own session and process
group, with stdin closed and stderr merged into stdout (one pipe, so the order is the order a
terminal shows); output is sent as it arrives (``{"type": "output", "text"}``, UTF-8 with
replacement, split only at character boundaries) and ends with exactly one ``exit`` line; when the
run ends for any reason (exit, timeout, the caller closing the stream) the whole process group is
killed, so nothing it started is left behind; the exit line's ``text`` is the output with ANSI
escapes removed, its last ``TEXT_MAX_CHARS`` characters (``truncated`` says whether more came).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import re
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

TEXT_MAX_CHARS = 64_000
READ_CHUNK = 65_536
KILL_GRACE_SECONDS = 0.5
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_PARTIAL_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*)?$")


def strip_ansi(text: str) -> str:
    """``text`` without ANSI escape sequences (CSI, OSC and two-character escapes)."""
    return _ANSI.sub("", text)


def shell() -> str:
    return os.environ.get("SHELL") or "/bin/sh"


def kill_group(pid: int, sig: int = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


class _Tail:
    """The ANSI-free output: its last ``TEXT_MAX_CHARS`` characters, total length, line count."""

    def __init__(self) -> None:
        self.tail = ""
        self.carry = ""
        self.total = 0
        self.newlines = 0
        self.last_char = ""

    def add(self, text: str) -> None:
        if not text:
            return
        self.newlines += text.count("\n")
        self.last_char = text[-1]
        text = self.carry + text
        partial = _PARTIAL_ANSI.search(text)
        self.carry = text[partial.start():] if partial is not None else ""
        if partial is not None:
            text = text[: partial.start()]
        clean = strip_ansi(text)
        self.total += len(clean)
        self.tail = (self.tail + clean)[-TEXT_MAX_CHARS:]

    @property
    def line_count(self) -> int:
        return self.newlines + (1 if self.last_char not in ("", "\n") else 0)


async def run_command(workspace: Path, command: str, timeout: float,
                      run_id: str) -> AsyncIterator[dict[str, Any]]:
    """The NDJSON lines of one run (see the module invariants)."""
    process = await asyncio.create_subprocess_exec(
        shell(), "-c", command, cwd=str(workspace), stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        start_new_session=True)
    assert process.stdout is not None
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    tail = _Tail()
    deadline = time.monotonic() + timeout
    timed_out = False
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            try:
                chunk = await asyncio.wait_for(process.stdout.read(READ_CHUNK), remaining)
            except TimeoutError:
                timed_out = True
                break
            if not chunk:
                break
            text = decoder.decode(chunk)
            if text:
                tail.add(text)
                yield {"type": "output", "text": text}
        rest = decoder.decode(b"", final=True)
        if rest:
            tail.add(rest)
            yield {"type": "output", "text": rest}
        exit_code: int | None = None
        if timed_out:
            kill_group(process.pid)
            await process.wait()
        else:
            try:
                code = await asyncio.wait_for(process.wait(), max(0.1, deadline - time.monotonic()))
                exit_code = code if code >= 0 else None
            except TimeoutError:
                timed_out = True
                kill_group(process.pid)
                await process.wait()
        yield {"type": "exit", "runId": run_id, "exitCode": exit_code, "timedOut": timed_out,
               "lineCount": tail.line_count, "text": tail.tail,
               "truncated": tail.total > TEXT_MAX_CHARS}
    finally:
        kill_group(process.pid)
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(process.wait(), KILL_GRACE_SECONDS)
