"""End to end: the local assistant answers from a referenced thread and a mentioned workspace
file, lists skills as checked, and reports what it could not read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from composer_app.core.codecs.sources import download_route
from composer_app.server.providers.local import LocalProvider
from composer_app.server.routes.sources import workspace_file
from tests.server.harness import turn_start
from tests.server.workspace.support import STORES, Workspaces, workspaces, write


@pytest.fixture(params=STORES)
def local(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Workspaces]:
    yield from workspaces(request, tmp_path, provider=LocalProvider())


def thread_record(ws: Workspaces, context_id: str, thread: str, title: str) -> dict[str, Any]:
    return {"version": 1, "kind": "thread", "contextId": context_id, "label": title,
            "environmentId": ws.h.store.environment_id, "threadId": thread, "title": title}


def ask(ws: Workspaces, thread: str, text: str, records: list[dict[str, Any]],
        who: dict[str, str] | None = None) -> dict[str, Any]:
    ws.h.ok(who or ws.alice, turn_start(thread, text, context={"version": 1, "records": records}))
    ws.h.wait_turns()
    messages = ws.get(f"/api/threads/{thread}", who).json()["messages"]
    answer: dict[str, Any] = messages[-1]
    assert answer["role"] == "assistant" and not answer["isStreaming"]
    return answer


def entries(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["title"]: e for e in (answer.get("sources") or {}).get("entries", [])}


def test_a_referenced_thread_answers_and_is_used(local: Workspaces) -> None:
    a = local.new_thread(None)
    fact = "Note: the launch codename is Bluefin, shipping March 3."
    local.h.ok(local.alice, turn_start(a, fact))
    local.h.wait_turns()
    b = local.new_thread(None)
    answer = ask(local, b, "What is the launch codename in [Plans](t3-context://v1/thread/t1)?",
                 [thread_record(local, "t1", a, "Plans")])
    assert "Bluefin" in answer["text"]
    entry = entries(answer)["Hello"]  # named by the thread's current title
    assert entry["type"] == "item" and entry["sourceUsage"] == "used"


def test_another_users_or_a_deleted_thread_is_checked_with_a_hint(local: Workspaces) -> None:
    theirs = local.new_thread(None, local.h.bob)
    local.h.ok(local.h.bob, turn_start(theirs, "Bob's secret codename is Redfin."))
    local.h.wait_turns()
    mine = local.new_thread(None)
    answer = ask(local, mine, "What is the codename in [Bob](t3-context://v1/thread/t2)?",
                 [thread_record(local, "t2", theirs, "Bob")])
    assert "Redfin" not in answer["text"]
    entry = entries(answer)["Bob"]
    assert entry["sourceUsage"] == "checked" and "could not be read" in entry["readinessHint"]


def test_a_mentionedworkspace_file_is_a_used_workspace_source(local: Workspaces) -> None:
    write(local.folder, {"docs/deploy.md": "# Deploy\n\nThe deploy window opens every Thursday "
                                           "at noon.\n"})
    answer = ask(local, local.thread,
                 "When does the deploy window open? [deploy.md](t3-context://v1/mention/m1)",
                 [{"version": 1, "kind": "mention", "contextId": "m1", "label": "deploy.md",
                   "path": "docs/deploy.md"}])
    assert "Thursday at noon" in answer["text"]
    entry = entries(answer)["deploy.md"]
    assert (entry["type"], entry["sourceLabel"], entry["sourceUsage"]) == (
        "connector-file", "Workspace", "used")


def test_a_citedworkspace_file_downloads_for_its_owner_only_and_names_its_lines(
        local: Workspaces) -> None:
    text = "# Deploy\n\nThe deploy window opens every Thursday\nat noon.\n"
    write(local.folder, {"docs/deploy.md": text})
    answer = ask(local, local.thread,
                 "When does the deploy window open? [deploy.md](t3-context://v1/mention/m1)",
                 [{"version": 1, "kind": "mention", "contextId": "m1", "label": "deploy.md",
                   "path": "docs/deploy.md"}])
    entry = entries(answer)["deploy.md"]
    assert entry["fileId"] == "workspace:docs/deploy.md"
    assert (entry["metadata"]["lineStart"], entry["metadata"]["lineEnd"]) == (1, 4)
    route = download_route(local.thread, answer["messageId"], entry["id"])
    got = local.get(route)
    assert got.status_code == 200 and got.content == text.encode()
    assert local.get(route, local.h.bob).status_code == 404
    (local.folder / "docs" / "deploy.md").unlink()
    assert local.get(route).status_code == 404  # gone from the workspace


def test_a_workspace_download_never_leaves_the_workspace(local: Workspaces) -> None:
    (local.root / "secret.md").write_text("The vault code is 4711.")
    write(local.folder, {"a.md": "Alpha."})
    (local.folder / "link.md").symlink_to(local.root / "secret.md")
    roots = tuple(local.h.settings.workspace_roots)
    workspace = {"path": str(local.folder)}
    assert workspace_file(workspace, roots, "a.md") == (local.folder / "a.md").resolve()
    for bad in ("../secret.md", "link.md", str(local.root / "secret.md"), "", "a.md\x00",
                "..\\secret.md"):
        assert workspace_file(workspace, roots, bad) is None
    assert workspace_file({"path": str(local.root)}, (local.folder,), "secret.md") is None
    assert workspace_file(None, roots, "a.md") is None


def test_a_mention_outside_the_workspace_is_not_read(local: Workspaces) -> None:
    (local.root / "secret.md").write_text("The vault code is 4711.")
    answer = ask(local, local.thread, "What is the vault code? [s](t3-context://v1/mention/m2)",
                 [{"version": 1, "kind": "mention", "contextId": "m2", "label": "s",
                   "path": "../secret.md"}])
    assert "4711" not in answer["text"]
    assert entries(answer)["secret.md"]["sourceUsage"] == "checked"


def test_skills_are_checked_and_unknown_ones_reported(local: Workspaces) -> None:
    write(local.h.settings.server_skills_dir,
          {"review/SKILL.md": "---\nname: review\ndescription: Review code\n---\nBe strict.\n"})
    answer = ask(local, local.thread,
                 "Use [review](t3-context://v1/skill/s1) and [ghost](t3-context://v1/skill/s2)",
                 [{"version": 1, "kind": "skill", "contextId": "s1", "label": "review",
                   "name": "review"},
                  {"version": 1, "kind": "skill", "contextId": "s2", "label": "ghost",
                   "name": "ghost"}])
    found = entries(answer)
    assert found["review"]["sourceUsage"] == "checked"
    assert found["ghost"]["sourceUsage"] == "checked"
    assert "can't follow skill instructions" in answer["text"]
    assert "couldn't find the skill ghost" in answer["text"]
