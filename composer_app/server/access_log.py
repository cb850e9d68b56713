"""Access-log redaction: signed upload and asset URLs never reach a log.

Invariants: the token segment of ``/api/assets/<token>`` and ``/api/uploads/<token>`` is replaced
by ``[redacted]`` in every record of the ``uvicorn.access`` logger (and of any logger the filter is
added to), in the message arguments and the message itself; installing twice adds one filter.
"""

from __future__ import annotations

import logging
import re

_SIGNED_PATH = re.compile(r"(/api/(?:assets|uploads)/)[^\s?\"'#]+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with the tokens of signed URL paths replaced."""
    return _SIGNED_PATH.sub(rf"\g<1>{REDACTED}", text)


class SignedUrlRedactor(logging.Filter):
    """Rewrites log records so signed URLs lose their tokens."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        return True


def install_access_log_redaction(logger_name: str = "uvicorn.access") -> None:
    """Add the redactor to ``logger_name`` once."""
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, SignedUrlRedactor) for f in logger.filters):
        logger.addFilter(SignedUrlRedactor())
