-- A thread stream's replay reads its own events in sequence order, however long the log is.
CREATE INDEX events_by_thread_sequence ON events (thread_id, sequence);
