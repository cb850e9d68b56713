"""``GET /api/environment``: identity and capabilities (no authentication)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from composer_app.core.contracts.wire import PROTOCOL_VERSION
from composer_app.server.services import services_of

router = APIRouter()


@router.get("/api/environment")
async def get_environment(request: Request) -> dict[str, object]:
    svc = services_of(request)
    s = svc.settings
    return {
        "environmentId": svc.store.environment_id,
        "serverVersion": s.server_version,
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {
            "inlineMessageContext": s.inline_message_context,
            "attachmentUploads": True,
            "imageAttachments": {"maxUploadBytes": s.image_max_bytes},
            "fileAttachments": {"maxUploadBytes": s.file_max_bytes},
            "assistantSources": True,
        },
    }
