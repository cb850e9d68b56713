"""App lifecycle: replies cut off by a crash end as failed on PostgreSQL too, at start-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from composer_app.server.store.postgres import PostgresStore
from composer_app.server.store.sql import SqlQueries
from tests.server.harness import harness, tid, turn_start
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
