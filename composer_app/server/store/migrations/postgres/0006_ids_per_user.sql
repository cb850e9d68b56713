-- Thread and message ids are chosen by clients, so they are unique per user only: threads,
-- messages, events and provider choices are keyed by (user_id, id). A thread.message-sent event
-- stores its message once, in the message row (events.message_id), not again in its payload.
ALTER TABLE threads DROP CONSTRAINT threads_pkey;
ALTER TABLE threads ADD PRIMARY KEY (user_id, thread_id);
DROP INDEX threads_by_user;
ALTER TABLE messages ADD COLUMN user_id TEXT;
UPDATE messages m SET user_id = t.user_id FROM threads t WHERE t.thread_id = m.thread_id;
UPDATE messages SET user_id = '' WHERE user_id IS NULL;
ALTER TABLE messages ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE messages DROP CONSTRAINT messages_pkey;
ALTER TABLE messages ADD PRIMARY KEY (user_id, message_id);
DROP INDEX messages_by_thread;
DROP INDEX messages_by_turn;
CREATE INDEX messages_by_thread ON messages (user_id, thread_id, created_sequence);
CREATE INDEX messages_by_turn ON messages (user_id, turn_id);
CREATE INDEX messages_streaming ON messages (is_streaming) WHERE is_streaming = 1;
ALTER TABLE events ADD COLUMN user_id TEXT;
ALTER TABLE events ADD COLUMN message_id TEXT;
UPDATE events e SET user_id = t.user_id FROM threads t WHERE t.thread_id = e.thread_id;
UPDATE events SET user_id = '' WHERE user_id IS NULL;
ALTER TABLE events ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE events DROP CONSTRAINT events_thread_id_stream_version_key;
ALTER TABLE events ADD CONSTRAINT events_thread_stream_version
    UNIQUE (user_id, thread_id, stream_version);
-- Only thread.message-sent payloads are parsed (OFFSET 0 keeps the filter before the casts).
UPDATE events e SET message_id = s.message_id, payload_json = s.rest
    FROM (SELECT x.sequence, x.user_id, x.thread_id,
                 (x.payload_json::json) -> 'message' ->> 'messageId' AS message_id,
                 ((x.payload_json::jsonb) - 'message')::text AS rest
          FROM events x WHERE x.event_type = 'thread.message-sent' OFFSET 0) s
    JOIN messages m ON m.user_id = s.user_id AND m.message_id = s.message_id
    WHERE e.sequence = s.sequence AND m.thread_id = s.thread_id AND m.role = 'user';
DROP INDEX events_by_thread_sequence;
CREATE INDEX events_by_thread_sequence ON events (user_id, thread_id, sequence);
CREATE INDEX events_by_user_sequence ON events (user_id, sequence);
ALTER TABLE provider_choices ADD COLUMN user_id TEXT;
UPDATE provider_choices p SET user_id = t.user_id FROM threads t WHERE t.thread_id = p.thread_id;
DELETE FROM provider_choices WHERE user_id IS NULL;
ALTER TABLE provider_choices ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE provider_choices DROP CONSTRAINT provider_choices_pkey;
ALTER TABLE provider_choices ADD PRIMARY KEY (user_id, thread_id)
