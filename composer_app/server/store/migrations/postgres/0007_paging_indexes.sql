-- Reads that stay flat as threads grow. A page of a thread's messages comes straight from an
-- index in its order (created_sequence DESC, role DESC: a backward scan), and a user's thread
-- list in its order (updated_at DESC, thread_id) from an index of the live threads, with no sort.
CREATE INDEX messages_by_thread_page ON messages (user_id, thread_id, created_sequence, role);
DROP INDEX IF EXISTS messages_by_thread;
CREATE INDEX threads_live_by_user ON threads (user_id, updated_at DESC, thread_id)
    WHERE deleted_at IS NULL;
DROP INDEX IF EXISTS threads_by_user;
