"""Skills: SKILL.md front matter, server and workspace folders, malformed files skipped."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from composer_app.server.workspace.skills import parse_skill
from tests.server.workspace.support import Workspaces, write, ws

__all__ = ["ws"]


def skill(name: str, description: str, body: str = "Do it well.") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n{body}\n"


def test_server_and_workspace_skills_with_bad_files_skipped(
        ws: Workspaces, caplog: pytest.LogCaptureFixture) -> None:
    server_dir = ws.h.settings.server_skills_dir
    write(server_dir, {
        "review/SKILL.md": skill("review", "Review a change"),
        "deploy/SKILL.md": skill("deploy", "Server deploy"),
        "broken/SKILL.md": "---\nname: [unclosed\n---\n",
        "nofront/SKILL.md": "# Just a heading\n",
        "nodesc/SKILL.md": "---\nname: lonely\n---\n",
        "listy/SKILL.md": "---\n- a\n- b\n---\n",
        "unterminated/SKILL.md": "---\nname: x\ndescription: y\n",
        "empty/README.md": "no skill here",
    })
    write(ws.folder, {".composer/skills/deploy/SKILL.md": skill("deploy", "Project deploy"),
                      ".composer/skills/test/SKILL.md": skill("test", "Run the tests")})
    with caplog.at_level(logging.WARNING):
        plain = ws.get("/api/skills").json()
    assert plain == {"skills": [{"name": "deploy", "description": "Server deploy"},
                                {"name": "review", "description": "Review a change"}]}
    assert sum("no valid front matter" in r.getMessage() for r in caplog.records) >= 5
    scoped = ws.get(f"/api/skills?threadId={ws.thread}").json()["skills"]
    assert scoped == [{"name": "deploy", "description": "Project deploy"},
                      {"name": "review", "description": "Review a change"},
                      {"name": "test", "description": "Run the tests"}]


def test_skills_need_a_token_and_the_users_thread(ws: Workspaces) -> None:
    assert ws.h.client.get("/api/skills").status_code == 401
    assert ws.get("/api/skills?threadId=thr_missing").status_code == 404
    assert ws.get(f"/api/skills?threadId={ws.thread}", ws.h.bob).status_code == 404


def test_a_workspace_skill_linking_outside_is_skipped(ws: Workspaces, tmp_path: Path) -> None:
    write(tmp_path / "elsewhere", {"evil/SKILL.md": skill("evil", "Outside")})
    (ws.folder / ".composer" / "skills").mkdir(parents=True)
    os.symlink(tmp_path / "elsewhere" / "evil", ws.folder / ".composer" / "skills" / "evil")
    assert ws.get(f"/api/skills?threadId={ws.thread}").json() == {"skills": []}


def test_parse_skill() -> None:
    assert parse_skill(skill("a", "b", "body")) == ("a", "b", "body")
    assert parse_skill("\ufeff" + skill("a", "b")) == ("a", "b", "Do it well.")
    assert parse_skill("---\nname: 3\ndescription: b\n---\n") is None
    assert parse_skill("---\nname: a\ndescription: ''\n---\n") is None
    assert parse_skill("") is None
