"""The authenticated citation download route: the owner gets the file, anyone else a 404."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from composer_app.core.codecs.sources import download_route
from composer_app.server.providers.local import LocalProvider
from tests.server.harness import Harness, harness, tid, turn_start


def _answer(h: Harness, thread: str) -> dict[str, Any]:
    h.wait_turns()
    snapshot = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()
    return [m for m in snapshot["messages"] if m["role"] == "assistant"][-1]


def _entry(message: dict[str, Any], title: str) -> dict[str, Any]:
    entries = message["sources"]["entries"]
    return next(e for e in entries if e["title"] == title)


def test_download_with_a_valid_token_returns_the_file_and_404_for_anyone_else(tmp_path: Path):
    folder = tmp_path / "knowledge"
    folder.mkdir()
    (folder / "garage.md").write_text("The garage code for visitors is 4711.\n", encoding="utf-8")
    provider = LocalProvider(folder, tmp_path / "index")
    try:
        with harness(tmp_path / "data", provider=provider) as h:
            thread = tid()
            notes = h.upload(h.alice, b"Lunch is served at noon.\n", name="lunch.txt",
                             mime="text/plain")
            h.ok(h.alice, turn_start(thread, "What is the garage code for visitors?",
                                     bootstrap=True, attachments=[{
                                         "attachmentId": notes, "name": "lunch.txt",
                                         "mimeType": "text/plain", "sizeBytes": 25}]))
            message = _answer(h, thread)
            knowledge = _entry(message, "garage.md")
            assert knowledge["sourceUsage"] == "used"
            assert knowledge["availableActions"] == ["download"]
            route = download_route(thread, message["messageId"], knowledge["id"])
            got = h.client.get(route, headers=h.alice)
            assert got.status_code == 200, got.text
            assert got.content == (folder / "garage.md").read_bytes()
            assert "attachment" in got.headers["content-disposition"]
            h.ok(h.alice, turn_start(thread, "When is lunch served?"))  # attached earlier
            later = _answer(h, thread)
            attached = _entry(later, "lunch.txt")
            assert attached["sourceUsage"] == "used"
            route_attached = download_route(thread, later["messageId"], attached["id"])
            got = h.client.get(route_attached, headers=h.alice)
            assert got.status_code == 200 and got.content == b"Lunch is served at noon.\n"
            for url in (route, route_attached):  # another user, or no token at all
                assert h.client.get(url, headers=h.bob).status_code == 404
                assert h.client.get(url).status_code == 401
            wrong = [download_route(thread, message["messageId"], "kb:nope"),
                     download_route(thread, "msg_" + "0" * 32, knowledge["id"]),
                     download_route(tid(), message["messageId"], knowledge["id"])]
            for url in wrong:
                assert h.client.get(url, headers=h.alice).status_code == 404
    finally:
        provider.close()


def test_a_knowledge_file_id_cannot_leave_the_folder(tmp_path: Path):
    folder = tmp_path / "knowledge"
    folder.mkdir()
    (folder / "a.md").write_text("Alpha.\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("secret\n", encoding="utf-8")
    (folder / "link.md").symlink_to(tmp_path / "secret.txt")
    provider = LocalProvider(folder, tmp_path / "index")
    try:
        assert provider.resolve_file("knowledge:a.md") == (folder / "a.md").resolve()
        for bad in ("knowledge:../secret.txt", "knowledge:link.md", "knowledge:" + quote("../x"),
                    "knowledge:/etc/passwd", "a.md"):
            assert provider.resolve_file(bad) is None
    finally:
        provider.close()
