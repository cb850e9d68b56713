"""``GET /api/openapi.json``: the OpenAPI 3.1 description of the HTTP API (no auth).

Invariants: request bodies are described by the same pydantic wire models the routes validate
with (commands, upload and asset-URL requests), so the description cannot drift from what the
server accepts; every operation documents the spec's error body; the document is built once per
app and holds no secrets.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import TypeAdapter

from composer_app.core.contracts.environment import AssetUrlRequest, CreateUploadRequest
from composer_app.core.contracts.wire import Command

router = APIRouter()
_REF = "#/components/schemas/{model}"
_ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["code", "message", "retryable"],
    "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                   "retryable": {"type": "boolean"}}}}}


def _schema(adapter: TypeAdapter[Any], defs: dict[str, Any]) -> dict[str, Any]:
    schema = adapter.json_schema(by_alias=True, ref_template=_REF)
    defs.update(schema.pop("$defs", {}))
    return schema


def _json_body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _operation(summary: str, ok: str, *, secured: bool = True, body: dict[str, Any] | None = None,
               parameters: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    error = {"description": "The spec's error body",
             "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    operation: dict[str, Any] = {"summary": summary,
                                 "responses": {ok: {"description": "Success"}, "default": error}}
    if secured:
        operation["security"] = [{"bearer": []}]
    if body is not None:
        operation["requestBody"] = body
    if parameters:
        operation["parameters"] = parameters
    return operation


def _path_param(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def _query_int(name: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False,
            "schema": {"type": "integer", "minimum": 0}}


def openapi_document(version: str) -> dict[str, Any]:
    """The API description (server ``version`` as its ``info.version``)."""
    defs: dict[str, Any] = {"Error": _ERROR}
    command = _schema(TypeAdapter(Command), defs)
    upload = _schema(TypeAdapter(CreateUploadRequest), defs)
    asset = _schema(TypeAdapter(AssetUrlRequest), defs)
    raw = {"required": True, "content": {"application/octet-stream": {
        "schema": {"type": "string", "format": "binary"}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Composer thread server", "version": version},
        "paths": {
            "/api/environment": {"get": _operation("Environment and capabilities", "200",
                                                   secured=False)},
            "/api/commands": {"post": _operation("Run one command", "200",
                                                 body=_json_body(command))},
            "/api/threads": {"get": _operation("Shell snapshot", "200")},
            "/api/threads/{threadId}": {"get": _operation(
                "Thread snapshot", "200", parameters=[
                    _path_param("threadId"), _query_int("turnLimit"),
                    _query_int("beforeSequence")])},
            "/api/attachments": {"post": _operation("Create an upload", "201",
                                                    body=_json_body(upload))},
            "/api/attachments/{attachmentId}": {"delete": _operation(
                "Release a pending upload", "204", parameters=[_path_param("attachmentId")])},
            "/api/uploads/{token}": {"put": _operation(
                "Upload bytes to a signed URL", "204", secured=False, body=raw,
                parameters=[_path_param("token")])},
            "/api/assets/url": {"post": _operation("Sign an asset URL", "200",
                                                   body=_json_body(asset))},
            "/api/assets/{token}": {"get": _operation(
                "Download through a signed URL", "200", secured=False,
                parameters=[_path_param("token")])},
        },
        "components": {"schemas": defs,
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    }


@router.get("/api/openapi.json", include_in_schema=False)
async def get_openapi(request: Request) -> dict[str, Any]:
    state = request.app.state
    document: dict[str, Any] | None = getattr(state, "openapi_document", None)
    if document is None:
        document = openapi_document(state.services.settings.server_version)
        state.openapi_document = document
    return document
