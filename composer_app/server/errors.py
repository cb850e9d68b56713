"""HTTP errors with the spec's body ``{"error": {"code", "message", "retryable"}}``.

Invariants: every non-2xx answer of the API has that body (framework errors included); another
user's resource is ``404``, never ``403``; internal failures say ``unavailable`` and never leak
details.
"""

from __future__ import annotations

import errno
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from composer_app.core.contracts.wire import error_body
from composer_app.core.errors import ContractError, StorageError

_log = logging.getLogger(__name__)
DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})

STATUS_CODES = {
    400: "invalid_command",
    401: "unauthorized",
    403: "forbidden",
    404: "unknown_thread",
    405: "invalid_command",
    409: "command_id_reused",
    410: "url_expired",
    413: "too_large",
    422: "unknown_attachment",
    429: "rate_limited",
}


class ApiError(Exception):
    """An answer with the spec's error body."""

    def __init__(self, status: int, code: str, message: str, *, retryable: bool = False,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retryable = retryable
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return error_body(self.code, self.message, retryable=self.retryable)

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)

    @classmethod
    def from_body(cls, status: int, body: dict[str, Any]) -> ApiError:
        detail = body.get("error", {})
        return cls(status, str(detail.get("code", "")), str(detail.get("message", "")),
                   retryable=bool(detail.get("retryable", False)))


def invalid(message: str) -> ApiError:
    return ApiError(400, "invalid_command", message)


def not_found(message: str = "No such thread.", code: str = "unknown_thread") -> ApiError:
    return ApiError(404, code, message)


def too_large(message: str) -> ApiError:
    return ApiError(413, "too_large", message)


def error_response(exc: Exception) -> JSONResponse:
    """The spec's error answer for any exception raised while handling a request."""
    if isinstance(exc, ApiError):
        return exc.response()
    if isinstance(exc, ContractError):
        return invalid(str(exc)).response()
    if isinstance(exc, OSError) and exc.errno in DISK_FULL:
        _log.error("disk full: %s", exc)
        return ApiError(503, "unavailable", "The server's disk is full; try again later.",
                        retryable=True, headers={"Retry-After": "60"}).response()
    if isinstance(exc, StorageError):
        _log.error("storage failure: %s", exc)
        return ApiError(503, "unavailable", "The server is temporarily unavailable.",
                        retryable=True, headers={"Retry-After": "1"}).response()
    _log.exception("unhandled error", exc_info=exc)
    return ApiError(500, "unavailable", "The server failed.", retryable=True).response()


def install_error_handlers(app: FastAPI) -> None:
    """Map every failure to the spec's error body."""

    @app.exception_handler(ApiError)
    async def _api(_: Request, exc: ApiError) -> JSONResponse:
        return exc.response()

    @app.exception_handler(ContractError)
    async def _contract(_: Request, exc: ContractError) -> JSONResponse:
        return invalid(str(exc)).response()

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return invalid("The request is not valid.").response()

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = STATUS_CODES.get(exc.status_code, "unavailable")
        if exc.status_code == 404:
            code = "not_found"
        message = exc.detail if isinstance(exc.detail, str) else "Request failed."
        return ApiError(exc.status_code, code, message).response()

    @app.exception_handler(StorageError)
    async def _storage(_: Request, exc: StorageError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(Exception)
    async def _any(_: Request, exc: Exception) -> JSONResponse:
        return error_response(exc)
