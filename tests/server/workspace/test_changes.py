"""Changes against HEAD: statuses, numbered hunk lines, untracked files, non-repositories."""

from __future__ import annotations

from typing import Any

from tests.server.workspace.support import Workspaces, git, write, ws

__all__ = ["ws"]


def changes(ws: Workspaces) -> dict[str, Any]:
    response = ws.get(ws.url("changes"))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_every_status_with_numbered_lines(ws: Workspaces) -> None:
    git(ws.folder, "init", "-q")
    write(ws.folder, {"app.py": "a\nb\nc\n", "old.txt": "same\ncontent\nhere\n",
                      "gone.txt": "bye\n"})
    git(ws.folder, "add", ".")
    git(ws.folder, "commit", "-qm", "init")
    head = git(ws.folder, "rev-parse", "HEAD")
    write(ws.folder, {"app.py": "a\nB\nc\nd\n", "added.txt": "new\n", "untracked.md": "u1\nu2"})
    git(ws.folder, "mv", "old.txt", "renamed.txt")
    git(ws.folder, "add", "added.txt")
    (ws.folder / "gone.txt").unlink()
    body = changes(ws)
    assert body["revision"] == head
    files = {f["path"]: f for f in body["files"]}
    assert {p: f["status"] for p, f in files.items()} == {
        "app.py": "modified", "added.txt": "added", "renamed.txt": "renamed",
        "gone.txt": "deleted", "untracked.md": "untracked"}
    assert files["renamed.txt"]["oldPath"] == "old.txt"
    hunk = files["app.py"]["hunks"][0]
    assert (hunk["oldStart"], hunk["oldLines"], hunk["newStart"], hunk["newLines"]) == (1, 3, 1, 4)
    assert hunk["header"].startswith("@@ -1,3 +1,4 @@")
    assert hunk["lines"] == [
        {"kind": " ", "text": "a", "oldLine": 1, "newLine": 1},
        {"kind": "-", "text": "b", "oldLine": 2, "newLine": None},
        {"kind": "+", "text": "B", "oldLine": None, "newLine": 2},
        {"kind": " ", "text": "c", "oldLine": 3, "newLine": 3},
        {"kind": "+", "text": "d", "oldLine": None, "newLine": 4}]
    untracked = files["untracked.md"]["hunks"][0]["lines"]
    assert [(line["kind"], line["text"], line["newLine"]) for line in untracked] == [
        ("+", "u1", 1), ("+", "u2", 2)]


def test_a_repository_without_commits_has_no_revision(ws: Workspaces) -> None:
    git(ws.folder, "init", "-q")
    write(ws.folder, {"first.txt": "x\n"})
    body = changes(ws)
    assert body["revision"] is None
    assert [f["status"] for f in body["files"]] == ["untracked"]


def test_a_workspace_inside_a_repository_lists_its_own_paths(ws: Workspaces) -> None:
    git(ws.folder, "init", "-q")
    write(ws.folder, {"sub/a.txt": "1\n", "top.txt": "1\n"})
    git(ws.folder, "add", ".")
    git(ws.folder, "commit", "-qm", "init")
    write(ws.folder, {"sub/a.txt": "2\n", "top.txt": "2\n"})
    thread = ws.new_thread(ws.folder / "sub")
    response = ws.get(ws.url("changes", thread))
    assert [f["path"] for f in response.json()["files"]] == ["a.txt"]


def test_a_folder_outside_git_is_409_not_a_repository(ws: Workspaces) -> None:
    write(ws.folder, {"a.txt": "x"})
    response = ws.get(ws.url("changes"))
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_a_repository"
