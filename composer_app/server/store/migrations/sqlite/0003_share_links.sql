-- Read-only share links of threads (only the SHA-256 of a link's token is stored).
CREATE TABLE share_links (
    share_id TEXT PRIMARY KEY,
    token_sha256 TEXT UNIQUE NOT NULL,
    thread_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX share_links_by_thread ON share_links (thread_id);
