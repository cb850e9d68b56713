"""Open targets of a source entry: the safe-link rule, the shown host and the identity URL.

Invariants (docs/sources.md §8, §11): a link is safe only when it is an absolute ``http``/``https``
URL of at most 2,048 UTF-16 units with a non-empty host and no user-info (and, defensively, no
whitespace, control characters or backslashes); ``open_link`` only ever returns a safe link;
``canonical_link`` is the merge identity of an ``external-link`` entry, never a display value.
This module is a leaf: it imports only ``core.text``.
"""

from __future__ import annotations

import re
from urllib.parse import SplitResult, urlsplit

from composer_app.core.text import WS, utf16_len

LINK_MAX_CHARS = 2_048
SAFE_SCHEMES = frozenset({"http", "https"})
_DEFAULT_PORTS = {"http": 80, "https": 443}
_FORBIDDEN = re.compile(f"[\\x00-\\x1f\\x7f\\\\{re.escape(WS)}]")
_TRACKING_KEYS = frozenset({"fbclid", "gclid"})


def _split(url: object) -> SplitResult | None:
    if not isinstance(url, str) or not url or utf16_len(url) > LINK_MAX_CHARS:
        return None
    if _FORBIDDEN.search(url) is not None:
        return None
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for an invalid port
    except ValueError:
        return None
    if parts.scheme.lower() not in SAFE_SCHEMES or "@" in parts.netloc:
        return None
    if not parts.hostname:
        return None
    return parts


def is_safe_link(url: object) -> bool:
    """The link rule of docs/sources.md §8: absolute http(s), non-empty host, no user-info, at most
    2,048 units."""
    return _split(url) is not None


def link_host(url: str) -> str | None:
    """The full host of a safe link for tooltips and ``host`` metadata; IDNs shown as punycode."""
    parts = _split(url)
    if parts is None or parts.hostname is None:
        return None
    return _punycode_host(parts.hostname)


def _punycode_host(host: str) -> str:
    if host.isascii():
        return host
    labels = []
    for label in host.split("."):
        if label.isascii():
            labels.append(label)
        else:
            labels.append("xn--" + label.encode("punycode").decode("ascii"))
    return ".".join(labels)


def canonical_link(url: str) -> str | None:
    """The docs/sources.md §11 identity of a URL: lower-cased scheme and host, no default port,
    fragment, ``utm_*``/``fbclid``/``gclid`` parameters or trailing slash. ``None`` for an unsafe
    link."""
    parts = _split(url)
    if parts is None or parts.hostname is None:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    netloc = host if port is None or port == _DEFAULT_PORTS[scheme] else f"{host}:{port}"
    kept = [
        pair for pair in parts.query.split("&") if pair and not _is_tracking(pair.split("=", 1)[0])
    ]
    query = "&".join(kept)
    path = parts.path.rstrip("/")
    return f"{scheme}://{netloc}{path}" + (f"?{query}" if query else "")


def _is_tracking(key: str) -> bool:
    lowered = key.lower()
    return lowered.startswith("utm_") or lowered in _TRACKING_KEYS
