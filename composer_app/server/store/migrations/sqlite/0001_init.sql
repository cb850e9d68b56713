-- Composer thread server schema, version 1 (SQLite).
CREATE TABLE events (
    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT UNIQUE NOT NULL,
    thread_id TEXT NOT NULL,
    stream_version INTEGER NOT NULL,
    event_type TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    device_id TEXT,
    command_id TEXT,
    payload_json TEXT NOT NULL,
    UNIQUE (thread_id, stream_version)
);
CREATE TABLE command_receipts (
    device_id TEXT NOT NULL,
    command_id TEXT NOT NULL,
    command_type TEXT NOT NULL,
    thread_id TEXT,
    request_hash TEXT NOT NULL,
    status TEXT NOT NULL,
    result_sequence INTEGER,
    error_json TEXT,
    accepted_at TEXT NOT NULL,
    PRIMARY KEY (device_id, command_id)
);
CREATE TABLE threads (
    thread_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    title TEXT,
    created_at TEXT,
    updated_at TEXT,
    last_sequence INTEGER,
    deleted_at TEXT
);
CREATE INDEX threads_by_user ON threads (user_id);
CREATE TABLE messages (
    message_id TEXT PRIMARY KEY,
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
    created_sequence INTEGER
);
CREATE INDEX messages_by_thread ON messages (thread_id, created_sequence);
CREATE INDEX messages_by_turn ON messages (turn_id);
CREATE TABLE attachments (
    attachment_id TEXT PRIMARY KEY,
    device_id TEXT,
    state TEXT,
    name TEXT,
    mime_type TEXT,
    size_bytes INTEGER,
    sha256 TEXT,
    storage_path TEXT,
    message_id TEXT,
    created_at TEXT,
    expires_at TEXT
);
CREATE TABLE users (
    user_id TEXT PRIMARY KEY,
    name TEXT UNIQUE NOT NULL,
    created_at TEXT
);
CREATE TABLE devices (
    token_sha256 TEXT PRIMARY KEY,
    device_id TEXT UNIQUE,
    user_id TEXT NOT NULL,
    name TEXT,
    created_at TEXT,
    revoked_at TEXT
);
CREATE TABLE server_state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
