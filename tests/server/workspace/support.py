"""Fixtures of the workspace tests: an app on SQLite or PostgreSQL with an allowed root."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from composer_app.server.store.executor import ExecutorStore
from composer_app.server.store.postgres import PostgresStore
from tests.server.harness import Harness, cid, create_thread, harness, tid

STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@dataclass
class Workspaces:
    """A running app whose workspace root is ``root``; alice owns ``thread`` on ``folder``."""

    h: Harness
    root: Path
    folder: Path
    thread: str

    def get(self, path: str, who: dict[str, str] | None = None) -> Any:
        return self.h.client.get(path, headers=self.alice if who is None else who)

    @property
    def alice(self) -> dict[str, str]:
        return self.h.alice

    def url(self, tail: str, thread: str | None = None) -> str:
        return f"/api/threads/{thread or self.thread}/workspace/{tail}"

    def new_thread(self, folder: Path | str | None, who: dict[str, str] | None = None) -> str:
        thread = tid()
        body = create_thread(thread)
        if folder is not None:
            body["workspace"] = {"path": str(folder)}
        self.h.ok(who or self.alice, body)
        return thread

    def set_workspace(self, thread: str, folder: Path | str | None) -> Any:
        return self.h.command(self.alice, {
            "type": "thread.meta.update", "commandId": cid(), "threadId": thread,
            "workspace": None if folder is None else {"path": str(folder)}})


def write(folder: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.com",
                           "-c", "init.defaultBranch=main", "-C", str(folder), *args],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def workspaces(request: pytest.FixtureRequest, tmp_path: Path,
               **overrides: Any) -> Iterator[Workspaces]:
    root = tmp_path / "root"
    folder = root / "project"
    folder.mkdir(parents=True)
    store: ExecutorStore | None = None
    if request.param == "postgres":
        store = PostgresStore(request.getfixturevalue("postgres_dsn"))
    settings: dict[str, Any] = {"workspace_roots": (root,), "allow_commands": True}
    settings.update(overrides)
    with harness(tmp_path / "data", store, **settings) as h:
        w = Workspaces(h, root, folder, "")
        w.thread = w.new_thread(folder)
        yield w


@pytest.fixture(params=STORES)
def ws(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Workspaces]:
    """Each workspace test runs on SQLite and on PostgreSQL."""
    yield from workspaces(request, tmp_path)
