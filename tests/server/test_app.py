"""App lifecycle: replies cut off by a crash end as failed on PostgreSQL too, at start-up, and a
full disk never keeps the server from starting."""

from __future__ import annotations

import gc
import sqlite3
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from composer_app.server import __main__ as server_main
from composer_app.server.app import build_app, sweep_once
from composer_app.server.settings import ServerSettings
from composer_app.server.store.postgres import PostgresStore
from composer_app.server.store.sql import SqlQueries
from composer_app.server.store.sqlite import SqliteStore
from composer_app.server.turns import TurnRunner
from tests.server.harness import harness, tid, turn_start

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from tests.server.test_turns import GatedProvider


@pytest.mark.postgres
def test_orphaned_replies_end_on_postgres_when_idle_and_not_owned(tmp_path: Path,
                                                                  postgres_dsn: str) -> None:
    provider = GatedProvider()
    old, fresh = tid(), tid()
    with harness(tmp_path / "a", PostgresStore(postgres_dsn), provider=provider,
                 database_url="postgresql://test", delta_interval=0.0) as a:
        for thread in (old, fresh):
            assert a.command(a.alice, turn_start(thread, "hi", bootstrap=True)).status_code == 200
        a.client.portal.call(provider.wait_started)  # type: ignore[union-attr]
        deadline = time.monotonic() + 30  # both replies hold their first delta (no more writes)
        while any(a.client.get(f"/api/threads/{t}", headers=a.alice).json()["messages"][-1][
                "text"] != "first " for t in (old, fresh)):
            assert time.monotonic() < deadline
            time.sleep(0.02)

        def age(tx: object) -> None:  # the process died long ago for one of them
            assert isinstance(tx, SqlQueries)
            tx._x("UPDATE messages SET updated_at = ? WHERE is_streaming = 1 AND thread_id = ?",
                  ("2000-01-01T00:00:00.000Z", old))
        a.store.write_sync(age)  # type: ignore[arg-type]
    # "a" stopped without ending its turns (a crash); another process starts on the database
    with harness(tmp_path / "b", PostgresStore(postgres_dsn),
                 database_url="postgresql://test") as b:
        replies = {}
        for thread in (old, fresh):
            snapshot = b.client.get(f"/api/threads/{thread}", headers=b.alice).json()
            replies[thread] = snapshot["messages"][-1]
        assert replies[old]["isStreaming"] is False
        assert replies[fresh]["isStreaming"] is True  # may still belong to a live process


def test_the_sweep_on_sqlite_never_ends_a_reply_a_request_has_just_started(
        tmp_path: Path) -> None:
    """A reply committed by its request but not yet taken by the runner (the sweep's first pass
    runs as the server starts, when the first message may arrive) streams on to its end, rather
    than failing as if the server had restarted."""
    provider = GatedProvider()
    with harness(tmp_path, provider=provider, delta_interval=0.0) as h:
        thread = tid()
        h.ok(h.alice, turn_start(thread, "hi", bootstrap=True))
        h.client.portal.call(provider.wait_started)  # type: ignore[union-attr]
        not_yet_taken = TurnRunner(h.store, provider, h.settings.attachments_dir)
        h.client.portal.call(sweep_once, h.store, h.settings, not_yet_taken)  # type: ignore[union-attr]
        reply = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()["messages"][-1]
        assert reply["isStreaming"] is True
        assert provider.gate is not None
        h.client.portal.call(provider.gate.set)  # type: ignore[union-attr]
        h.wait_turns()
        reply = h.client.get(f"/api/threads/{thread}", headers=h.alice).json()["messages"][-1]
        assert (reply["isStreaming"], reply["text"]) == (False, "first second")


class FullDiskStore(SqliteStore):
    """SQLite on a disk with no space left: the database may not grow by one page, and the free
    space inside its event pages is used up (so any new event needs a page it cannot get)."""

    def _connect(self, *, writer: bool) -> Any:
        conn = super()._connect(writer=writer)
        if writer:
            raw: sqlite3.Connection = conn.raw
            raw.execute(f"PRAGMA max_page_count = {raw.execute('PRAGMA page_count').fetchone()[0]}")
            version = 0
            for size in (4000, 1000, 100, 1):
                while True:
                    version += 1
                    try:
                        raw.execute(
                            "INSERT INTO events (event_id, user_id, thread_id, stream_version, "
                            "event_type, occurred_at, payload_json) "
                            "VALUES (?, 'nobody', 'filler', ?, 'filler', '', ?)",
                            (f"evt_filler_{version}", version, "x" * size))
                    except sqlite3.OperationalError as exc:
                        assert "full" in str(exc)
                        break
        return conn


def test_the_server_starts_on_a_full_disk_with_a_reply_left_streaming(tmp_path: Path) -> None:
    provider = GatedProvider()
    thread = tid()
    with harness(tmp_path, provider=provider, delta_interval=0.0) as a:
        assert a.command(a.alice, turn_start(thread, "hi", bootstrap=True)).status_code == 200
        a.client.portal.call(provider.wait_started)  # type: ignore[union-attr]
        alice = a.alice
    # "a" stopped without ending its turn (a crash); the disk is full when the server starts.
    app = build_app(ServerSettings(tmp_path), FullDiskStore.in_dir(tmp_path))
    with TestClient(app) as client:
        snapshot = client.get(f"/api/threads/{thread}", headers=alice)
        assert snapshot.status_code == 200  # started, and serving reads
        assert snapshot.json()["messages"][-1]["isStreaming"] is True  # could not be ended yet
        full = client.post("/api/commands", headers=alice, json=turn_start(thread, "more"))
        assert full.status_code == 503 and full.json()["error"]["retryable"] is True
    # With space again, the next start ends the reply as failed.
    with harness(tmp_path) as b:
        reply = b.client.get(f"/api/threads/{thread}", headers=alice).json()["messages"][-1]
        assert reply["isStreaming"] is False and reply["role"] == "assistant"


@pytest.mark.parametrize("settle", [False, True])
def test_only_a_server_process_of_its_own_freezes_its_heap_after_startup(
        tmp_path: Path, settle: bool) -> None:
    gc.unfreeze()
    try:
        with harness(tmp_path, settle_heap=settle) as h:
            assert h.client.get("/api/environment", headers=h.alice).status_code == 200
            assert (gc.get_freeze_count() > 0) is settle
    finally:
        gc.unfreeze()


def test_the_serve_command_settles_its_heap(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    served: list[ServerSettings] = []

    def run(self: uvicorn.Server) -> None:
        app: Any = self.config.app
        served.append(app.state.services.settings)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    assert server_main.main(["serve", "--data-dir", str(tmp_path), "--port", "0"]) == 0
    assert [s.settle_heap for s in served] == [True]
    assert ServerSettings(tmp_path).settle_heap is False  # the embedded server's default
