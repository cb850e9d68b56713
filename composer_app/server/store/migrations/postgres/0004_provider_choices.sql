-- Each thread's assistant provider choice (a name only), written in the command's transaction.
CREATE TABLE provider_choices (
    thread_id TEXT PRIMARY KEY,
    provider TEXT NOT NULL
);
