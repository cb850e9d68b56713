"""Per-thread provider choice: chosen on thread.create / thread.meta.update, used by turns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from composer_app.server.providers.registry import ProviderOptions, ProviderRouter
from composer_app.server.snapshots import choice_key
from tests.server.harness import Harness, cid, create_thread, harness, tid, turn_start


def reply_text(h: Harness, who: dict[str, str], thread_id: str) -> str:
    h.wait_turns()
    snapshot: dict[str, Any] = h.client.get(f"/api/threads/{thread_id}", headers=who).json()
    replies = [m for m in snapshot["messages"] if m["role"] == "assistant"]
    assert replies, snapshot
    text: str = replies[-1]["text"]
    return text


def test_thread_choice_overrides_the_server_default(tmp_path: Path) -> None:
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path))
    with harness(tmp_path, provider=router) as h:
        local, echo = tid(), tid()
        h.ok(h.alice, create_thread(local, "Local"))
        h.ok(h.alice, {**create_thread(echo, "Echo"), "provider": "echo"})
        h.ok(h.alice, turn_start(local, "What is the capital of Freedonia?"))
        h.ok(h.alice, turn_start(echo, "ping"))
        assert reply_text(h, h.alice, echo).startswith("Echo: ")
        assert "offline retrieval assistant" in reply_text(h, h.alice, local)
        # Switching back to the default on rename keeps the choice persisted by name only.
        h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": echo,
                       "title": "Now local", "provider": "local"})
        assert router.name_for(choice_key(h.user_id(h.alice), echo)) == "local"
    router.close()


def test_unknown_provider_is_a_400_and_creates_nothing(tmp_path: Path) -> None:
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path))
    with harness(tmp_path, provider=router) as h:
        thread = tid()
        response = h.command(h.alice, {**create_thread(thread), "provider": "gpt-9000"})
        assert response.status_code == 400
        assert "Unknown assistant provider" in response.json()["error"]["message"]
        assert h.client.get(f"/api/threads/{thread}", headers=h.alice).status_code == 404
    router.close()


def _shell_providers(h: Harness) -> dict[str, str | None]:
    threads = h.client.get("/api/threads", headers=h.alice).json()["threads"]
    return {t["threadId"]: t.get("provider") for t in threads}


def test_snapshots_and_events_name_each_threads_provider(tmp_path: Path) -> None:
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path))
    with harness(tmp_path, provider=router) as h:
        plain, echo = tid(), tid()
        first = h.ok(h.alice, create_thread(plain, "Plain"))["sequence"]
        h.ok(h.alice, {**create_thread(echo, "Echo"), "provider": "echo"})
        assert _shell_providers(h) == {plain: "local", echo: "echo"}
        h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": plain,
                       "title": "Plain", "provider": "echo"})
        h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": echo,
                       "title": "Renamed only"})
        assert _shell_providers(h) == {plain: "echo", echo: "echo"}
        thread = h.client.get(f"/api/threads/{plain}", headers=h.alice).json()["thread"]
        assert thread["provider"] == "echo"
        with h.client.websocket_connect("/api/ws", headers=h.alice) as ws:
            ws.send_json({"type": "subscribe", "subscriptionId": "s", "stream": {"kind": "shell"},
                          "afterSequence": first - 1})
            events = []
            while (frame := ws.receive_json())["type"] == "event":
                events.append(frame["event"])
        created = [e["payload"]["thread"].get("provider") for e in events
                   if e["type"] == "thread.created"]
        updated = [e["payload"].get("provider") for e in events
                   if e["type"] == "thread.meta-updated"]
        assert created == ["local", "echo"]
        assert updated == ["echo", None]  # a rename alone names no provider
    router.close()


def test_a_single_provider_server_names_no_provider(tmp_path: Path) -> None:
    with harness(tmp_path) as h:  # the EchoProvider alone: no per-thread choice
        thread = tid()
        h.ok(h.alice, {**create_thread(thread, "Echo"), "provider": "echo"})
        h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": thread,
                       "title": "Echo", "provider": "local"})
        assert _shell_providers(h) == {thread: None}
        snapshot = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()
        assert "provider" not in snapshot["thread"]


def test_choices_live_in_the_database_and_an_old_file_is_imported_once(tmp_path: Path) -> None:
    import json

    old_thread, bobs = tid(), tid()
    with harness(tmp_path) as h:  # threads made before choices lived in the database
        h.ok(h.alice, create_thread(old_thread, "Old"))
        h.ok(h.bob, create_thread(bobs, "Bob's"))
    (tmp_path / "provider_choices.json").write_text(json.dumps({old_thread: "echo"}))
    router = ProviderRouter(ProviderOptions(data_dir=tmp_path))
    with harness(tmp_path, provider=router) as h:
        alice, bob = h.user_id(h.alice), h.user_id(h.bob)
        assert router.name_for(choice_key(alice, old_thread)) == "echo"
        assert router.name_for(choice_key(bob, bobs)) == "local"
        chosen = tid()
        h.ok(h.alice, {**create_thread(chosen, "Echo"), "provider": "echo"})
        assert h.store.read_sync(lambda r: r.provider_choices()) == {
            (alice, old_thread): "echo", (alice, chosen): "echo"}
    router.close()
    assert not (tmp_path / "provider_choices.json").exists()  # imported, then retired
    again = ProviderRouter(ProviderOptions(data_dir=tmp_path))
    assert again.name_for(choice_key(alice, chosen)) == "local"  # the database holds it
    with harness(tmp_path, provider=again) as h:
        assert again.name_for(choice_key(alice, chosen)) == "echo"
        assert again.name_for(choice_key(alice, old_thread)) == "echo"
        h.ok(h.alice, {"type": "thread.meta.update", "commandId": cid(), "threadId": chosen,
                       "title": "Back", "provider": "local"})
        assert h.store.read_sync(lambda r: r.provider_choices())[(alice, chosen)] == "local"
    again.close()
    assert not (tmp_path / "provider_choices.json").exists()  # never written again
