"""A thread's workspace: allowed roots, symlink escapes, snapshots and events carry it."""

from __future__ import annotations

import os
from pathlib import Path

from tests.server.harness import create_thread, tid
from tests.server.workspace.support import Workspaces, ws

__all__ = ["ws"]


def test_create_with_a_workspace_shows_it_in_snapshots_and_the_list(ws: Workspaces) -> None:
    snapshot = ws.get(f"/api/threads/{ws.thread}").json()
    assert snapshot["thread"]["workspace"] == {"path": str(ws.folder)}
    listed = {t["threadId"]: t for t in ws.get("/api/threads").json()["threads"]}
    assert listed[ws.thread]["workspace"] == {"path": str(ws.folder)}
    plain = ws.new_thread(None)
    assert ws.get(f"/api/threads/{plain}").json()["thread"]["workspace"] is None


def test_meta_update_sets_and_removes_the_workspace_with_an_event(ws: Workspaces) -> None:
    other = ws.root / "other"
    other.mkdir()
    assert ws.set_workspace(ws.thread, other).status_code == 200
    assert ws.get(f"/api/threads/{ws.thread}").json()["thread"]["workspace"] == {
        "path": str(other)}
    assert ws.set_workspace(ws.thread, None).status_code == 200
    thread = ws.get(f"/api/threads/{ws.thread}").json()["thread"]
    assert thread["workspace"] is None and thread["title"] == "Hello"  # the title is kept
    user = ws.h.user_id(ws.alice)
    events = ws.h.store.read_sync(lambda r: r.events_after(0, user, thread_id=ws.thread))
    updates = [e.payload for e in events if e.event_type == "thread.meta-updated"]
    assert updates == [{"title": "Hello", "workspace": {"path": str(other)}},
                       {"title": "Hello", "workspace": None}]
    assert ws.get(ws.url("files")).json()["error"]["code"] == "no_workspace"


def test_folders_outside_the_roots_are_refused_and_change_nothing(ws: Workspaces,
                                                                  tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    escape = ws.root / "escape"
    os.symlink(outside, escape)
    (ws.root / "file.txt").write_text("x")
    for path in (str(outside), str(escape), str(ws.root / "missing"), "relative/dir",
                 str(ws.root / "file.txt"), str(ws.root / ".." / "outside"), "/"):
        thread = tid()
        body = create_thread(thread)
        body["workspace"] = {"path": path}
        response = ws.h.command(ws.alice, body)
        assert response.status_code == 400, path
        assert response.json()["error"]["code"] == "workspace_not_allowed"
        assert ws.get(f"/api/threads/{thread}").status_code == 404  # nothing was created
        update = ws.set_workspace(ws.thread, path)
        assert update.json()["error"]["code"] == "workspace_not_allowed"
    assert ws.get(f"/api/threads/{ws.thread}").json()["thread"]["workspace"] == {
        "path": str(ws.folder)}


def test_a_symlink_inside_the_roots_to_a_folder_inside_them_is_allowed(ws: Workspaces) -> None:
    link = ws.root / "link"
    os.symlink(ws.folder, link)
    assert ws.new_thread(link)


def test_a_meta_update_without_title_or_workspace_is_400(ws: Workspaces) -> None:
    response = ws.h.command(ws.alice, {"type": "thread.meta.update", "commandId": "cmd_x",
                                        "threadId": ws.thread})
    assert response.status_code == 400


def test_another_users_thread_is_404_on_every_route(ws: Workspaces) -> None:
    for tail in ("files?q=a", "file?path=a", "changes"):
        assert ws.get(ws.url(tail), ws.h.bob).status_code == 404
    response = ws.h.client.post(ws.url("run"), headers=ws.h.bob, json={"command": "true"})
    assert response.status_code == 404
    assert ws.get(f"/api/skills?threadId={ws.thread}", ws.h.bob).status_code == 404
    assert ws.set_workspace(ws.thread, ws.folder).status_code == 200  # alice still can


def test_dot_dot_in_the_thread_id_never_reaches_another_route(ws: Workspaces) -> None:
    for thread in ("..", "%2E%2E", "..%2F..%2Fetc"):
        response = ws.get(f"/api/threads/{thread}/workspace/files?q=a")
        assert response.status_code == 404, thread


def test_a_thread_without_workspace_is_409_no_workspace(ws: Workspaces) -> None:
    plain = ws.new_thread(None)
    for tail in ("files", "file?path=a", "changes"):
        response = ws.get(ws.url(tail, plain))
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "no_workspace"
    response = ws.h.client.post(ws.url("run", plain), headers=ws.alice, json={"command": "true"})
    assert response.json()["error"]["code"] == "no_workspace"
