"""The Composer thread server: FastAPI on uvicorn, an event log in SQLite or PostgreSQL."""

from __future__ import annotations

SERVER_VERSION = "0.1.0"
