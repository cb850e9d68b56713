"""Reading one text file of a workspace, optionally a 1-based line range.

Invariants: the path is normalized and contained first (``roots.resolve_inside``); only regular
files are read; more than ``MAX_FILE_BYTES`` is ``413 too_large`` and a file with a NUL byte in its
first ``BINARY_SNIFF_BYTES`` is ``415 binary_file``, both before decoding; text is UTF-8 with
replacement characters; ``lineCount`` counts a last line without a newline; a range past the end is
clamped (``startLine > endLine`` then means no lines).
"""

from __future__ import annotations

import os
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from composer_app.core.contracts.wire import format_timestamp
from composer_app.server.errors import ApiError, invalid, too_large
from composer_app.server.workspace.roots import resolve_inside

MAX_FILE_BYTES = 2 * 1024 * 1024
BINARY_SNIFF_BYTES = 8192


def is_binary(head: bytes) -> bool:
    return b"\x00" in head[:BINARY_SNIFF_BYTES]


def text_lines(text: str) -> list[str]:
    """``text`` cut after each ``\n`` (a last line without one counts)."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    if not lines[-1]:
        lines.pop()
    return lines


def read_text_file(workspace: Path, path: str, start: int | None = None,
                   end: int | None = None) -> dict[str, Any]:
    """The ``GET .../workspace/file`` answer (see the module invariants)."""
    if (start is not None and start < 1) or (end is not None and end < 1):
        raise invalid("start and end are 1-based line numbers.")
    if start is not None and end is not None and end < start:
        raise invalid("end must not be before start.")
    relative, resolved = resolve_inside(workspace, path)
    try:
        info = os.stat(resolved)
    except OSError:
        raise ApiError(404, "file_not_found", "No such file in the workspace.") from None
    if not stat.S_ISREG(info.st_mode):
        raise invalid("The path is not a regular file.")
    if info.st_size > MAX_FILE_BYTES:
        raise too_large(f"The file is over {MAX_FILE_BYTES} bytes.")
    try:
        with open(resolved, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        raise ApiError(404, "file_not_found", "The file could not be read.") from None
    if len(data) > MAX_FILE_BYTES:
        raise too_large(f"The file is over {MAX_FILE_BYTES} bytes.")
    if is_binary(data):
        raise ApiError(415, "binary_file", "The file is binary, not text.")
    text = data.decode("utf-8", errors="replace")
    lines = text_lines(text)
    first = start or 1
    last = min(end or len(lines), len(lines))
    return {
        "path": relative,
        "text": "".join(lines[first - 1 : last]),
        "startLine": first,
        "endLine": last,
        "lineCount": len(lines),
        "modifiedAt": format_timestamp(datetime.fromtimestamp(info.st_mtime, UTC)),
    }
