"""Which source actions may be shown, and where they lead (docs/sources.md §8, §10).

Invariants: an action is shown only when ``availableActions`` lists it **and** the entry carries
the data the action needs — ``open`` a safe ``webViewLink``/``itemLink`` (``webViewLink``
preferred), ``download`` a ``connector-file`` with a ``fileId`` — nothing is inferred from ids,
titles or labels.
A public thread shows actions only on ``external-link`` entries and never ``download``. Downloads go
only through the authenticated server route, never a provider URL built from ``fileId``.
"""

from __future__ import annotations

from urllib.parse import quote

from composer_app.core.codecs.sources_links import is_safe_link, link_host
from composer_app.core.contracts.sources import SourceEntry


def open_link(entry: SourceEntry) -> str | None:
    """The link ``open`` uses: a safe ``webViewLink``, else a safe ``itemLink``, else ``None``."""
    for link in (entry.web_view_link, entry.item_link):
        if link is not None and is_safe_link(link):
            return link
    return None


def can_download(entry: SourceEntry) -> bool:
    """True for a ``connector-file`` with its canonical ``fileId``."""
    return entry.type == "connector-file" and entry.file_id is not None


def visible_actions(entry: SourceEntry, *, public: bool = False) -> list[str]:
    """``availableActions`` in wire order minus the actions the entry cannot support
    (docs/sources.md §8)."""
    if public and entry.type != "external-link":
        return []
    shown: list[str] = []
    for action in entry.available_actions:
        if action == "open" and open_link(entry) is None:
            continue
        if action == "download" and (public or not can_download(entry)):
            continue
        shown.append(action)
    return shown


def open_tooltip(entry: SourceEntry) -> str | None:
    """The tooltip of the Open action: the full host first (punycode for IDNs), then the link."""
    link = open_link(entry)
    if link is None:
        return None
    host = link_host(link)
    return f"{host} — {link}" if host else link


def needs_open_confirmation(link: str) -> bool:
    """``http`` links ask for confirmation (once per host, which the caller remembers)."""
    return link.lower().startswith("http:")


def download_route(thread_id: str, message_id: str, source_id: str) -> str:
    """The authenticated citation download route of docs/sources.md §8 (path segments
    percent-encoded)."""
    parts = (quote(part, safe="") for part in (thread_id, message_id, source_id))
    thread, message, source = parts
    return f"/api/threads/{thread}/messages/{message}/sources/{source}/download"
