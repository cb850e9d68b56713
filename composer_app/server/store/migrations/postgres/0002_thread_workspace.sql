-- A thread's project folder on the server machine: {"path": "..."} as JSON, or NULL.
ALTER TABLE threads ADD COLUMN workspace_json TEXT;
