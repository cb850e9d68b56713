-- Thread and message ids are chosen by clients, so they are unique per user only: threads,
-- messages, events and provider choices are keyed by (user_id, id). A thread.message-sent event
-- stores its message once, in the message row (events.message_id), not again in its payload.
CREATE TABLE threads_0006 (
    thread_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    title TEXT,
    created_at TEXT,
    updated_at TEXT,
    last_sequence INTEGER,
    deleted_at TEXT,
    workspace_json TEXT,
    PRIMARY KEY (user_id, thread_id)
);
INSERT INTO threads_0006 (thread_id, user_id, title, created_at, updated_at, last_sequence,
                          deleted_at, workspace_json)
    SELECT thread_id, user_id, title, created_at, updated_at, last_sequence, deleted_at,
           workspace_json FROM threads;
DROP TABLE threads;
ALTER TABLE threads_0006 RENAME TO threads;
CREATE TABLE messages_0006 (
    user_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    turn_id TEXT,
    role TEXT NOT NULL,
    text TEXT NOT NULL,
    is_streaming INTEGER NOT NULL,
    attachments_json TEXT,
    context_json TEXT,
    sources_json TEXT,
    metadata_json TEXT,
    created_at TEXT,
    updated_at TEXT,
    completed_at TEXT,
    created_sequence INTEGER,
    PRIMARY KEY (user_id, message_id)
);
INSERT INTO messages_0006 (user_id, message_id, thread_id, turn_id, role, text, is_streaming,
                           attachments_json, context_json, sources_json, metadata_json,
                           created_at, updated_at, completed_at, created_sequence)
    SELECT COALESCE((SELECT t.user_id FROM threads t WHERE t.thread_id = m.thread_id), ''),
           m.message_id, m.thread_id, m.turn_id, m.role, m.text, m.is_streaming,
           m.attachments_json, m.context_json, m.sources_json, m.metadata_json, m.created_at,
           m.updated_at, m.completed_at, m.created_sequence FROM messages m;
DROP TABLE messages;
ALTER TABLE messages_0006 RENAME TO messages;
CREATE INDEX messages_by_thread ON messages (user_id, thread_id, created_sequence);
CREATE INDEX messages_by_turn ON messages (user_id, turn_id);
CREATE INDEX messages_streaming ON messages (is_streaming) WHERE is_streaming = 1;
CREATE TABLE events_0006 (
    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT UNIQUE NOT NULL,
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    stream_version INTEGER NOT NULL,
    event_type TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    device_id TEXT,
    command_id TEXT,
    message_id TEXT,
    payload_json TEXT NOT NULL,
    UNIQUE (user_id, thread_id, stream_version)
);
INSERT INTO events_0006 (sequence, event_id, user_id, thread_id, stream_version, event_type,
                         occurred_at, device_id, command_id, message_id, payload_json)
    SELECT e.sequence, e.event_id,
           COALESCE((SELECT t.user_id FROM threads t WHERE t.thread_id = e.thread_id), ''),
           e.thread_id, e.stream_version, e.event_type, e.occurred_at, e.device_id, e.command_id,
           NULL, e.payload_json FROM events e ORDER BY e.sequence;
DROP TABLE events;
ALTER TABLE events_0006 RENAME TO events;
UPDATE events SET message_id = json_extract(payload_json, '$.message.messageId'),
                  payload_json = json_remove(payload_json, '$.message')
    WHERE event_type = 'thread.message-sent' AND json_valid(payload_json)
      AND EXISTS (SELECT 1 FROM messages m WHERE m.user_id = events.user_id
                  AND m.message_id = json_extract(events.payload_json, '$.message.messageId')
                  AND m.thread_id = events.thread_id AND m.role = 'user');
CREATE INDEX events_by_thread_sequence ON events (user_id, thread_id, sequence);
CREATE INDEX events_by_user_sequence ON events (user_id, sequence);
CREATE TABLE provider_choices_0006 (
    user_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    provider TEXT NOT NULL,
    PRIMARY KEY (user_id, thread_id)
);
INSERT INTO provider_choices_0006 (user_id, thread_id, provider)
    SELECT t.user_id, p.thread_id, p.provider FROM provider_choices p
    JOIN threads t ON t.thread_id = p.thread_id;
DROP TABLE provider_choices;
ALTER TABLE provider_choices_0006 RENAME TO provider_choices
