"""Test harness for the thread server: in-process apps, two users, and command builders."""

from __future__ import annotations

import hashlib
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from composer_app.server.app import build_app
from composer_app.server.settings import ServerSettings
from composer_app.server.store.executor import ExecutorStore, token_hash
from composer_app.server.store.sqlite import SqliteStore


def cid() -> str:
    return f"cmd_{uuid.uuid4().hex}"


def tid() -> str:
    return f"thr_{uuid.uuid4().hex}"


def mid() -> str:
    return f"msg_{uuid.uuid4().hex}"


def create_thread(thread_id: str, title: str | None = "Hello", command_id: str | None = None
                  ) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "thread.create", "commandId": command_id or cid(),
                            "threadId": thread_id, "createdAt": "2026-11-30T14:02:11Z"}
    if title is not None:
        body["title"] = title
    return body


def turn_start(thread_id: str, text: str, *, message_id: str | None = None,
               context: dict[str, Any] | None = None,
               attachments: list[dict[str, Any]] | None = None,
               command_id: str | None = None, bootstrap: bool = False) -> dict[str, Any]:
    message: dict[str, Any] = {"messageId": message_id or mid(), "role": "user", "text": text,
                               "attachments": attachments or []}
    if context is not None:
        message["context"] = context
    body: dict[str, Any] = {"type": "thread.turn.start", "commandId": command_id or cid(),
                            "threadId": thread_id, "createdAt": "2026-11-30T14:02:11Z",
                            "message": message}
    if bootstrap:
        body["bootstrap"] = {"createThread": {"title": "New"}}
    return body


def skill(context_id: str, name: str = "review") -> dict[str, Any]:
    return {"version": 1, "kind": "skill", "contextId": context_id, "label": name, "name": name}


def image(context_id: str, attachment_id: str, name: str = "shot.png") -> dict[str, Any]:
    return {"version": 1, "kind": "image", "contextId": context_id, "label": name,
            "attachmentId": attachment_id, "name": name, "mimeType": "image/png",
            "sizeBytes": 4}


@dataclass
class Harness:
    """An in-process app with two users (alice, bob); alice has two devices."""

    client: TestClient
    store: ExecutorStore
    settings: ServerSettings
    alice: dict[str, str]
    alice2: dict[str, str]
    bob: dict[str, str]

    def command(self, who: dict[str, str], body: dict[str, Any]) -> Any:
        return self.client.post("/api/commands", headers=who, json=body)

    def ok(self, who: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
        response = self.command(who, body)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def upload(self, who: dict[str, str], data: bytes, *, name: str = "shot.png",
               mime: str = "image/png") -> str:
        created = self.client.post("/api/attachments", headers=who, json={
            "name": name, "mimeType": mime, "sizeBytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest()})
        assert created.status_code == 201, created.text
        put = self.client.put(created.json()["uploadUrl"], content=data)
        assert put.status_code == 204, put.text
        attachment_id: str = created.json()["attachmentId"]
        return attachment_id

    def user_id(self, who: dict[str, str]) -> str:
        digest = token_hash(who["Authorization"].split()[1])
        device = self.store.read_sync(lambda r: r.device_by_token_hash(digest))
        assert device is not None
        return device.user_id

    def wait_turns(self) -> None:
        """Block until every provider turn of the app has finished."""
        runner = self.client.app.state.services.runner  # type: ignore[attr-defined]
        self.client.portal.call(runner.wait_idle)  # type: ignore[union-attr]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextmanager
def harness(data_dir: Path, store: ExecutorStore | None = None, **overrides: Any
            ) -> Iterator[Harness]:
    """A running in-process app over ``store`` (SQLite in ``data_dir`` by default)."""
    settings = replace(ServerSettings(data_dir), **overrides)
    store = store or SqliteStore.in_dir(data_dir)
    store.open()
    tokens = [store.create_token("alice", "laptop")[0], store.create_token("alice", "phone")[0],
              store.create_token("bob", "laptop")[0]]
    app = build_app(settings, store)
    with TestClient(app) as client:
        yield Harness(client, store, settings, *(bearer(t) for t in tokens))
