-- Per-thread stream versions live on the thread row: an append updates (and so locks) only its own
-- thread, and no transaction takes a lock shared by every writer.
ALTER TABLE threads ADD COLUMN stream_version BIGINT NOT NULL DEFAULT 0;
UPDATE threads t SET stream_version = COALESCE(
    (SELECT MAX(e.stream_version) FROM events e WHERE e.thread_id = t.thread_id), 0);
CREATE INDEX events_by_thread_sequence ON events (thread_id, sequence);
