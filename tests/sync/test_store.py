"""The client cache on a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from composer_app.core.errors import StorageError
from composer_app.sync.store import ClientStore, MessageRow, OutboxRow, ThreadRow, UploadRow


@pytest.fixture
def store(tmp_path: Path) -> ClientStore:
    s = ClientStore(tmp_path / "client.sqlite3")
    yield s
    s.close()


def test_opens_in_wal_mode(tmp_path: Path, store: ClientStore) -> None:
    db = sqlite3.connect(tmp_path / "client.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_server_copy_replaces_the_echo_in_place(store: ClientStore) -> None:
    store.upsert_message(MessageRow("msg_1", "thr_1", "user", "hi", local_state="sending"))
    store.upsert_message(MessageRow("msg_0", "thr_1", "user", "older", sequence=3))
    store.upsert_message(MessageRow("msg_1", "thr_1", "user", "hi", sequence=9,
                                    attachments=({"attachmentId": "att_9"},)))
    rows = store.messages("thr_1")
    assert [r.message_id for r in rows] == ["msg_0", "msg_1"]
    assert rows[1].local_state is None and rows[1].attachments == ({"attachmentId": "att_9"},)


def test_snapshot_keeps_local_echoes_on_top(store: ClientStore) -> None:
    store.upsert_message(MessageRow("msg_old", "thr_1", "user", "gone", sequence=1))
    store.upsert_message(MessageRow("msg_local", "thr_1", "user", "mine", local_state="sending"))
    store.replace_messages("thr_1", [MessageRow("msg_a", "thr_1", "user", "a", sequence=0),
                                     MessageRow("msg_b", "thr_1", "assistant", "b", sequence=0)])
    assert [r.message_id for r in store.messages("thr_1")] == ["msg_a", "msg_b", "msg_local"]


def test_outbox_and_echo_are_written_together(store: ClientStore) -> None:
    row = OutboxRow("cmd_1", "thr_1", "thread.turn.start", {"a": 1}, "sending",
                    message_id="msg_1", depends_on_uploads=("upl_1",))
    store.add_outbox(row, MessageRow("msg_1", "thr_1", "user", "x", local_state="sending"))
    assert store.outbox() == [row]
    with pytest.raises(StorageError):  # same command id twice: the whole unit is refused
        store.add_outbox(row, MessageRow("msg_2", "thr_1", "user", "y", local_state="sending"))
    assert store.message("msg_2") is None


def test_failed_transaction_rolls_back(store: ClientStore) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        store.upsert_thread(ThreadRow("thr_1", "t"))
        raise RuntimeError
    assert store.threads() == []


def test_shell_snapshot_keeps_threads_being_created(store: ClientStore) -> None:
    store.upsert_thread(ThreadRow("thr_gone", "old"))
    store.upsert_thread(ThreadRow("thr_new", "mine", local_state="creating"))
    store.set_cursor("thread:thr_gone", 4)
    store.replace_threads([ThreadRow("thr_srv", "srv", "2026-11-30T00:00:00Z", 5)])
    assert {t.thread_id for t in store.threads()} == {"thr_new", "thr_srv"}
    assert store.cursor("thread:thr_gone") is None


def test_cursor_uploads_and_environments_round_trip(tmp_path: Path, store: ClientStore) -> None:
    store.set_cursor("shell", 12)
    upload = UploadRow("upl_1", "/x", "a.png", "image/png", "0" * 64, 3, "queued")
    store.save_upload(upload)
    store.save_environment("env_1", "http://h", {"inlineMessageContext": True}, 1.0)
    store.close()
    again = ClientStore(tmp_path / "client.sqlite3")
    assert again.cursor("shell") == 12
    assert again.upload("upl_1") == upload
    assert again.environment_capabilities("http://h") == {"inlineMessageContext": True}
    again.close()


def test_a_database_from_before_thread_providers_gains_the_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE threads(thread_id TEXT PRIMARY KEY, environment_id TEXT, "
               "title TEXT, updated_at TEXT, last_sequence INTEGER, local_state TEXT)")
    db.execute("INSERT INTO threads VALUES('thr_old', NULL, 'Old', '2026-01-01', 3, NULL)")
    db.commit()
    db.close()
    store = ClientStore(path)
    try:
        assert store.thread("thr_old") == ThreadRow("thr_old", "Old", "2026-01-01", 3)
        store.upsert_thread(ThreadRow("thr_new", "New", "2026-01-02", provider="openai"))
        assert store.thread("thr_new") is not None
        assert store.thread("thr_new").provider == "openai"  # type: ignore[union-attr]
        assert [t.provider for t in store.threads()] == ["openai", None]
    finally:
        store.close()


def test_a_database_from_before_send_reasons_gains_the_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE messages(message_id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, "
               "role TEXT NOT NULL, text TEXT NOT NULL, is_streaming INTEGER NOT NULL DEFAULT 0, "
               "attachments_json TEXT, context_json TEXT, sources_json TEXT, metadata_json TEXT, "
               "local_state TEXT, created_at TEXT, sequence INTEGER)")
    db.execute("CREATE TABLE outbox(command_id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, "
               "kind TEXT NOT NULL, message_id TEXT, payload_json TEXT NOT NULL, "
               "state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, "
               "next_attempt_at REAL NOT NULL DEFAULT 0, first_attempt_at REAL, last_error TEXT, "
               "depends_on_uploads_json TEXT NOT NULL DEFAULT '[]')")
    db.execute("INSERT INTO messages VALUES('msg_old', 'thr', 'user', 'hi', 0, '[]', NULL, NULL, "
               "NULL, 'unsent', NULL, NULL)")
    db.execute("INSERT INTO outbox VALUES('cmd_old', 'thr', 'thread.turn.start', 'msg_old', '{}', "
               "'unsent', 1, 0, 0, 'HTTP 400', '[]')")
    db.commit()
    db.close()
    store = ClientStore(path)
    try:
        old = store.message("msg_old")
        assert old is not None and old.local_state == "unsent" and old.reason is None
        [item] = store.outbox()
        assert item.last_error == "HTTP 400" and item.reason is None and not item.for_good
        reason = "The file a.pdf is no longer on the server and its copy is gone."
        store.upsert_message(MessageRow("msg_new", "thr", "user", "x", local_state="unsent",
                                        reason=reason))
        store.update_outbox(OutboxRow("cmd_old", "thr", "thread.turn.start", {}, "unsent",
                                      "msg_old", reason=reason, for_good=True))
        assert store.message("msg_new").reason == reason  # type: ignore[union-attr]
        [item] = store.outbox()
        assert item.reason == reason and item.for_good
        store.renumber_outbox("cmd_old", OutboxRow("cmd_new", "thr", "thread.turn.start", {},
                                                   "sending", "msg_old"))
        assert [(r.command_id, r.state, r.for_good) for r in store.outbox()] == [
            ("cmd_new", "sending", False)]
    finally:
        store.close()


def test_an_older_cache_gains_the_workspace_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE threads(thread_id TEXT PRIMARY KEY, environment_id TEXT, "
               "title TEXT, updated_at TEXT, last_sequence INTEGER, local_state TEXT)")
    db.execute("INSERT INTO threads(thread_id, title) VALUES('thr_1', 'Old')")
    db.commit()
    db.close()
    store = ClientStore(path)
    try:
        assert store.thread("thr_1") == ThreadRow("thr_1", "Old")
        store.upsert_thread(ThreadRow("thr_2", "New", workspace="/srv/project"))
        assert store.thread("thr_2") is not None
        assert store.thread("thr_2").workspace == "/srv/project"  # type: ignore[union-attr]
    finally:
        store.close()
def test_last_messages_gives_each_threads_last_one_echoes_after_server_copies(
        store: ClientStore) -> None:
    store.upsert_message(MessageRow("msg_b", "thr_1", "assistant", "second", sequence=5))
    store.upsert_message(MessageRow("msg_a", "thr_1", "user", "first", sequence=2))
    store.upsert_message(MessageRow("msg_x", "thr_2", "user", "only", sequence=1))
    last = store.last_messages()
    assert {t: m.message_id for t, m in last.items()} == {"thr_1": "msg_b", "thr_2": "msg_x"}
    store.upsert_message(MessageRow("msg_c", "thr_1", "user", "queued", local_state="sending"))
    assert store.last_messages()["thr_1"].text == "queued"
