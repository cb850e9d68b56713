"""Environment and attachment wire shapes: ``GET /api/environment``, uploads and asset URLs.

Invariants: the same camelCase models as the rest of the protocol (``WireModel``); the
environment id is stable for a server's data; capabilities default to "not offered", so a peer that
omits one is treated as lacking it (a message is then folded to legacy text).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from composer_app.core.contracts.wire import PROTOCOL_VERSION, Id, NonNegInt
from composer_app.core.contracts.wire_model import WireModel


class UploadLimit(WireModel):
    max_upload_bytes: NonNegInt


class Capabilities(WireModel):
    inline_message_context: bool = False
    attachment_uploads: bool = False
    image_attachments: UploadLimit | None = None
    file_attachments: UploadLimit | None = None
    assistant_sources: bool = False


class Environment(WireModel):
    """``GET /api/environment``; ``environment_id`` is stable for the server's data."""

    environment_id: Id
    server_version: str
    protocol_version: int = PROTOCOL_VERSION
    capabilities: Capabilities


class CreateUploadRequest(WireModel):
    name: Annotated[str, Field(min_length=1, max_length=255)]
    mime_type: Annotated[str, Field(min_length=1, max_length=100)]
    size_bytes: NonNegInt
    sha256: Annotated[str, Field(pattern=r"^[0-9a-fA-F]{64}$")]


class CreateUploadResponse(WireModel):
    attachment_id: Id
    upload_url: str
    expires_at: str


class AssetUrlRequest(WireModel):
    attachment_id: Id
    disposition: Literal["inline", "attachment"] = "inline"


class AssetUrlResponse(WireModel):
    url: str
    expires_at: str
