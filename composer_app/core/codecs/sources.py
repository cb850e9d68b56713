"""Pure rules over decoded sources: panel grouping, labels and the public rule names
(docs/sources.md §4, §8).

Invariants: groups come in the order ``used``, ``checked``, ``listed`` and only when non-empty;
inside ``used`` numbered entries come first in number order, then the rest in wire order; other
groups keep wire order. Display text built here (account labels, metadata rows, hosts) contains only
display-safe values and never an entry's private ids, raw provider or raw tool name
(docs/sources.md §5).

This module is the public face of the sources rules; the focused siblings hold the details:
``sources_privacy`` (display safety), ``sources_links`` (safe links), ``sources_actions`` (action
gating), ``sources_blocks`` (blocks, numbering, section labels), ``sources_normalization`` (server
pipeline) and ``sources_share`` (shared snapshots and exports).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from composer_app.core.codecs.sources_actions import (
    can_download,
    download_route,
    open_link,
    open_tooltip,
    visible_actions,
)
from composer_app.core.codecs.sources_blocks import (
    Block,
    assign_citation_numbers,
    citation_tokens,
    closed_blocks,
    enumerate_blocks,
    place_entries,
    section_labels,
)
from composer_app.core.codecs.sources_links import canonical_link, is_safe_link, link_host
from composer_app.core.codecs.sources_normalization import merge_duplicates, normalize_sources
from composer_app.core.codecs.sources_privacy import (
    display_safe_value,
    is_display_safe,
    is_opaque_id,
    is_placeholder,
)
from composer_app.core.codecs.sources_share import export_html, export_markdown, strip_for_share
from composer_app.core.contracts.sources import SourceEntry
from composer_app.core.text import trim

__all__ = [
    "Block",
    "account_label",
    "account_provenance",
    "assign_citation_numbers",
    "can_download",
    "canonical_link",
    "citation_tokens",
    "closed_blocks",
    "confidence_band",
    "display_metadata",
    "display_safe_value",
    "download_route",
    "enumerate_blocks",
    "export_html",
    "export_markdown",
    "group_entries",
    "is_display_safe",
    "is_opaque_id",
    "is_placeholder",
    "is_safe_link",
    "link_host",
    "merge_duplicates",
    "normalize_sources",
    "open_link",
    "open_tooltip",
    "place_entries",
    "readable_date",
    "section_labels",
    "sources_action_text",
    "strip_for_share",
    "usage_counts",
    "visible_actions",
]

USAGES = ("used", "checked", "listed")
GROUP_HEADERS = {"used": "Used in answer", "checked": "Checked", "listed": "Listed"}

# docs/sources.md §5.2: the keys the client renders per type, with their fixed labels, in display
# order.
METADATA_LABELS: dict[str, dict[str, str]] = {
    "connector-file": {
        "folderPath": "Folder",
        "mimeType": "Type",
        "modifiedAt": "Modified",
        "pages": "Pages",
        "sheet": "Sheet",
    },
    "email": {"from": "From", "to": "To", "subject": "Subject", "sentAt": "Sent"},
    "calendar-event": {
        "start": "Starts",
        "end": "Ends",
        "organizer": "Organizer",
        "attendees": "Attendees",
        "responseStatus": "Response",
        "visibility": "Visibility",
    },
    "item": {
        "channelName": "Channel",
        "conversationLabel": "Conversation",
        "author": "Author",
        "key": "Key",
        "status": "Status",
        "assignee": "Assignee",
        "priority": "Priority",
        "project": "Project",
    },
    "contact": {
        "name": "Name",
        "email": "Email",
        "jobTitle": "Job title",
        "organization": "Organization",
    },
    "external-link": {"host": "Site", "publishedAt": "Published"},
}
_VISIBILITY = {"limited-detail": "Limited details", "private": "Private event"}


def group_entries(
    entries: Sequence[SourceEntry], numbers: Mapping[str, int]
) -> list[tuple[str, list[SourceEntry]]]:
    """The non-empty panel groups in ``used``, ``checked``, ``listed`` order
    (docs/sources.md §4)."""
    groups: list[tuple[str, list[SourceEntry]]] = []
    for usage in USAGES:
        members = [entry for entry in entries if entry.source_usage == usage]
        if usage == "used":
            numbered = sorted((e for e in members if e.id in numbers), key=lambda e: numbers[e.id])
            members = numbered + [e for e in members if e.id not in numbers]
        if members:
            groups.append((usage, members))
    return groups


def usage_counts(entries: Sequence[SourceEntry]) -> dict[str, int]:
    """How many entries carry each usage label, in panel order."""
    return {usage: sum(1 for e in entries if e.source_usage == usage) for usage in USAGES}


def sources_action_text(entries: Sequence[SourceEntry]) -> str | None:
    """``Sources · 2 used · 1 checked``; ``None`` when there is no entry (no action,
    docs/sources.md §1)."""
    if not entries:
        return None
    counts = usage_counts(entries)
    return "Sources" + "".join(f" · {n} {usage}" for usage, n in counts.items() if n)


def confidence_band(value: float) -> str:
    """``strong`` (≥ 0.75), ``partial`` (≥ 0.4) or ``check this``; never a percentage
    (docs/sources.md §3)."""
    if value >= 0.75:
        return "strong"
    if value >= 0.4:
        return "partial"
    return "check this"


def account_label(
    entry: SourceEntry, linked_accounts: Mapping[str, str] | None = None
) -> str | None:
    """The account provenance label of docs/sources.md §5.3, or ``None`` when no meaningful value
    qualifies.

    ``linked_accounts`` maps the connector ids of the user's currently linked accounts to their
    profile label (email, username or name); it is consulted only without a ``sourceAccountLabel``.
    """
    if entry.source_account_label is not None:
        return entry.source_account_label
    if entry.connector_id is None or not linked_accounts:
        return None
    label = linked_accounts.get(entry.connector_id)
    if label is None or not is_display_safe(label, entry.private_ids):
        return None
    return trim(label)


def account_provenance(entry: SourceEntry, label: str | None) -> str | None:
    """``From alice@example.com's Google Drive`` — provenance only, never participation
    (docs/sources.md §5.3)."""
    if label is None:
        return None
    return f"From {label}'s {entry.source_label}"


_TIMESTAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                        r"(?:[Zz]|[+-]\d{2}:\d{2})?)?")
_DATE_KEYS = frozenset({"modifiedAt"})  # a file's date: the day is what matters, not the time
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                "Dec")


def readable_date(value: str) -> str | None:
    """``2026-09-02T08:15:00Z`` → ``2 Sep 2026`` (the date as written); ``None`` for anything
    that is not an RFC 3339 date or timestamp."""
    match = _TIMESTAMP.fullmatch(value.strip())
    if match is None or not 1 <= int(match.group(2)) <= 12 or not 1 <= int(match.group(3)) <= 31:
        return None
    return f"{int(match.group(3))} {_MONTH_NAMES[int(match.group(2)) - 1]} {match.group(1)}"


def _format_value(value: object, key: str = "") -> str:
    if key in _DATE_KEYS and isinstance(value, str) and (date := readable_date(value)):
        return date
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)


def display_metadata(entry: SourceEntry) -> list[tuple[str, str]]:
    """``(label, text)`` rows of the keys known for the entry's type (docs/sources.md §5.2); unknown
    keys and unsafe values are not rendered; an ``external-link`` host is derived from its link."""
    labels = METADATA_LABELS[entry.type]
    metadata = dict(entry.metadata or {})
    if entry.type == "external-link":
        link = open_link(entry)
        host = link_host(link) if link else None
        metadata.pop("host", None)
        if host:
            metadata["host"] = host
    rows: list[tuple[str, str]] = []
    for key, label in labels.items():
        value = metadata.get(key)
        if value is None or display_safe_value(value, entry.private_ids) is None:
            continue
        if key == "visibility":
            if value not in _VISIBILITY:
                continue
            value = _VISIBILITY[str(value)]
        rows.append((label, _format_value(value, key)))
    return rows
