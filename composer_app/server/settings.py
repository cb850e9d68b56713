"""Server settings: one immutable object handed to ``build_app`` (no globals).

Invariants: size limits are what ``GET /api/environment`` advertises; URL lifetimes are in seconds;
``storage_dir`` holds attachment bytes under server-chosen names only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from composer_app.core.limits import FILE_MAX_BYTES_DEFAULT, IMAGE_MAX_BYTES
from composer_app.server import SERVER_VERSION
from composer_app.server.providers.base import Provider
from composer_app.server.providers.echo import EchoProvider


@dataclass(frozen=True)
class ServerSettings:
    data_dir: Path
    database_url: str | None = None
    storage_dir: Path | None = None
    server_version: str = SERVER_VERSION
    image_max_bytes: int = IMAGE_MAX_BYTES
    file_max_bytes: int = FILE_MAX_BYTES_DEFAULT
    max_command_bytes: int = 20_000_000  # a message's context may hold 16,000,000 characters
    max_json_bytes: int = 1_000_000
    upload_url_ttl: float = 600.0
    asset_url_ttl: float = 300.0
    pending_upload_ttl: float = 24 * 3600.0
    replay_limit: int = 1_000
    subscriber_backlog: int = 1_000  # events buffered per subscription before a resync
    max_subscriptions_per_socket: int = 2_000  # clients subscribe to every cached thread
    max_sockets_per_user: int = 20
    max_ws_frame_bytes: int = 64 * 1024
    ws_send_timeout: float = 30.0  # a socket that accepts nothing for this long is closed
    ws_auth_recheck: float = 15.0  # an open socket of a revoked token closes within this time
    rate_limit_per_second: float = 100.0  # sustained requests per user
    rate_limit_burst: int = 1_000
    delta_interval: float = 0.05
    delta_chars: int = 256
    inline_message_context: bool = True
    provider: Provider = field(default_factory=EchoProvider)
    workspace_roots: tuple[Path, ...] = ()
    """Folders a thread's workspace must lie in (``--workspace-root``); none: no workspaces."""
    allow_commands: bool = False
    """Whether ``POST .../workspace/run`` may run shell commands (``--allow-commands``)."""
    skills_dir: Path | None = None
    """Where the server's skills live (``--skills-dir``; default ``<data_dir>/skills``)."""
    settle_heap: bool = False
    """Whether startup ends by freezing the process's heap (``heap.settle``): only where the
    server has the process to itself (``composer-server serve``, the app's server process)."""

    @property
    def attachments_dir(self) -> Path:
        """Where attachment bytes live (shared by all processes of one deployment)."""
        return self.storage_dir or (self.data_dir / "attachments")

    @property
    def server_skills_dir(self) -> Path:
        """The server-wide skills folder."""
        return self.skills_dir or (self.data_dir / "skills")

    def max_upload_bytes(self, mime_type: str) -> int:
        """The size limit for an upload of ``mime_type``."""
        if mime_type.lower().startswith("image/"):
            return self.image_max_bytes
        return self.file_max_bytes
