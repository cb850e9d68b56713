"""File reading: line ranges, normalization, containment, binary and oversize files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from composer_app.server.workspace.file_reader import MAX_FILE_BYTES, text_lines
from tests.server.workspace.support import Workspaces, write, ws

__all__ = ["ws"]


def read(ws: Workspaces, query: str) -> tuple[int, dict[str, object]]:
    response = ws.get(ws.url(f"file?{query}"))
    return response.status_code, response.json()


def test_a_file_with_a_line_range(ws: Workspaces) -> None:
    write(ws.folder, {"src/app.py": "one\ntwo\nthree\nfour"})
    status, body = read(ws, "path=src/app.py&start=2&end=3")
    assert status == 200
    assert body["path"] == "src/app.py" and body["text"] == "two\nthree\n"
    assert (body["startLine"], body["endLine"], body["lineCount"]) == (2, 3, 4)
    assert str(body["modifiedAt"]).endswith("Z")
    status, whole = read(ws, "path=src/app.py")
    assert whole["text"] == "one\ntwo\nthree\nfour" and whole["endLine"] == 4
    status, past = read(ws, "path=src/app.py&start=3&end=99")
    assert past["text"] == "three\nfour" and past["endLine"] == 4


def test_a_path_is_normalized_before_it_is_checked(ws: Workspaces) -> None:
    write(ws.folder, {"README.md": "hello\n"})
    status, body = read(ws, "path=src/../README.md")
    assert status == 200 and body["path"] == "README.md"
    status, body = read(ws, "path=./README.md")
    assert body["path"] == "README.md"


@pytest.mark.parametrize("path", ["../secret.txt", "..", "a/../../secret.txt", "/etc/passwd",
                                  "%2Fetc%2Fpasswd", "..%2Fsecret.txt", "sub/../../x"])
def test_paths_leaving_the_workspace_are_400(ws: Workspaces, path: str) -> None:
    (ws.root / "secret.txt").write_text("no")
    status, body = read(ws, f"path={path}")
    assert status == 400, path
    assert body["error"]["code"] == "path_outside_workspace"  # type: ignore[index]


def test_a_symlink_pointing_outside_is_400(ws: Workspaces, tmp_path: Path) -> None:
    (tmp_path / "outside.txt").write_text("secret")
    os.symlink(tmp_path / "outside.txt", ws.folder / "link.txt")
    os.symlink(tmp_path, ws.folder / "dir")
    for path in ("link.txt", "dir/outside.txt"):
        status, body = read(ws, f"path={path}")
        assert status == 400 and body["error"]["code"] == "path_outside_workspace"  # type: ignore[index]


def test_binary_oversize_missing_and_folders(ws: Workspaces) -> None:
    write(ws.folder, {"logo.png": b"\x89PNG\r\n\x1a\n\x00\x00", "big.txt": "",
                      "bad.txt": b"caf\xe9\n", "folder/x": ""})
    with open(ws.folder / "big.txt", "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    assert read(ws, "path=logo.png")[0] == 415
    assert read(ws, "path=big.txt")[0] == 413
    assert read(ws, "path=missing.txt")[0] == 404
    assert read(ws, "path=folder")[0] == 400
    assert read(ws, "path=")[0] == 400
    status, body = read(ws, "path=bad.txt")
    assert status == 200 and body["text"] == "caf\ufffd\n"


def test_bad_ranges_are_400(ws: Workspaces) -> None:
    write(ws.folder, {"a.txt": "a\nb\n"})
    for query in ("start=0", "end=0", "start=3&end=2", "start=x", "start=-1"):
        assert read(ws, f"path=a.txt&{query}")[0] == 400, query


def test_text_lines_counts_a_last_line_without_newline() -> None:
    assert text_lines("") == []
    assert text_lines("a") == ["a"]
    assert text_lines("a\n") == ["a\n"]
    assert text_lines("a\nb") == ["a\n", "b"]
    assert text_lines("a\r\nb\x0cc") == ["a\r\n", "b\x0cc"]
