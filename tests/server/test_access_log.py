"""Signed upload and asset URLs never reach the access log."""

from __future__ import annotations

import logging

import pytest

from composer_app.server.access_log import install_access_log_redaction, redact


def test_redact_hides_signed_tokens_only() -> None:
    assert redact("GET /api/assets/eyJhIjoi.c2ln HTTP/1.1") == "GET /api/assets/[redacted] HTTP/1.1"
    assert redact("/api/uploads/abc.def?x=1") == "/api/uploads/[redacted]?x=1"
    assert redact("/api/threads/thr_1") == "/api/threads/thr_1"


def test_uvicorn_access_records_are_redacted(caplog: pytest.LogCaptureFixture) -> None:
    install_access_log_redaction()
    install_access_log_redaction()  # once is enough; twice changes nothing
    logger = logging.getLogger("uvicorn.access")
    assert len([f for f in logger.filters if type(f).__name__ == "SignedUrlRedactor"]) == 1
    with caplog.at_level(logging.INFO, logger="uvicorn.access"):
        logger.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET",
                    "/api/assets/eyJwIjoiYXNzZXQifQ.bWFj", "1.1", 200)
    text = caplog.text
    assert "eyJwIjoiYXNzZXQifQ" not in text and "/api/assets/[redacted]" in text
