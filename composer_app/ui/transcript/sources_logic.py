"""The Sources panel model (docs/sources.md §4, §5, §8), Qt-free.

Invariants: the panel shows what ``group_entries`` returns, in that order — ``Used in answer`` (with
inline numbers first, in number order), then ``Checked``, then ``Listed``, each with its count and
only when non-empty; ``Checked`` and ``Listed`` start collapsed when ``Used`` is not empty; a row's
details and snippet start collapsed; a row offers only ``visible_actions`` (so a public thread shows
no download and nothing on private kinds), plus the app's own ``open-file`` for a knowledge-folder
or workspace file (``source_file_logic.source_file``) outside public mode; no row text contains an
entry's ``id``, private ids, raw ``provider`` or raw ``toolName`` — only display-safe values from
the core helpers; a row's ``snippet`` is the entry's snippet as clean text and ``snippet_path`` the
heading breadcrumb it opened with (``snippet_logic.display_snippet``), never raw Markdown markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from composer_app.core.codecs.sources import (
    GROUP_HEADERS,
    account_label,
    account_provenance,
    confidence_band,
    display_metadata,
    group_entries,
    open_tooltip,
    visible_actions,
)
from composer_app.core.contracts.sources import SourceEntry
from composer_app.ui.transcript.snippet_logic import display_snippet
from composer_app.ui.transcript.source_file_logic import FOLDER_LABELS, source_file

GENERAL_KNOWLEDGE_EMPTY = "No sources: this answer is from general knowledge."
NO_SOURCES_EMPTY = "No sources for this answer."
NONE_SUPPORTED = "Sources were checked but none supported the answer."

_DATE_LABELS = {
    "connector-file": "Created",
    "external-link": "Published",
    "email": "Sent",
    "contact": "Added",
    "calendar-event": "Created",
    "item": "Posted",
}
_TOOL_PHRASES = {
    "mail.search": "Found by searching mail",
    "drive.search": "Found by searching files",
    "calendar.search": "Found by searching the calendar",
    "chat.search": "Found by searching chat",
    "web.search": "Found by searching the web",
    "issues.search": "Found by searching work items",
}
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True, slots=True)
class PanelRow:
    """One source row: summary line, collapsed details and the allowed actions."""

    entry_id: str
    usage: str
    number: int | None
    title: str
    source_label: str
    type: str
    provider: str | None
    account: str | None
    date: str | None
    confidence: str | None
    snippet: str | None
    snippet_path: str | None
    details: list[tuple[str, str]]
    coverage: str | None
    freshness: str | None
    provenance: str | None
    actions: list[str]
    open_tooltip: str | None
    accessible_name: str

    @property
    def has_details(self) -> bool:
        """True when the collapsed section has anything to show."""
        return bool(self.snippet or self.details or self.coverage or self.freshness)


@dataclass(frozen=True, slots=True)
class PanelGroup:
    """A usage group with its header text (``Used in answer (2)``) and initial collapse state."""

    usage: str
    header: str
    collapsed: bool
    rows: list[PanelRow]


@dataclass(frozen=True, slots=True)
class SourcesPanelContent:
    """Everything the panel widget renders for one message."""

    groups: list[PanelGroup] = field(default_factory=list)
    empty_text: str | None = None
    notice: str | None = None

    def row(self, entry_id: str) -> PanelRow | None:
        """The row of ``entry_id`` if shown."""
        for group in self.groups:
            for row in group.rows:
                if row.entry_id == entry_id:
                    return row
        return None


def format_date(value: str) -> str:
    """``2026-09-02T08:15:00Z`` → ``2 Sep 2026`` (the date as written, no time-zone shift)."""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return value[:10]
    return f"{moment.day} {_MONTHS[moment.month - 1]} {moment.year}"


def accessible_name(entry: SourceEntry, number: int | None) -> str:
    """``Source 1, used: Q3 budget plan.xlsx`` (``Source, checked: …`` without a number)."""
    head = f"Source {number}" if number is not None else "Source"
    return f"{head}, {entry.source_usage}: {entry.title or entry.source_label}"


def build_row(
    entry: SourceEntry,
    number: int | None,
    *,
    public: bool = False,
    linked_accounts: Mapping[str, str] | None = None,
) -> PanelRow:
    """The row of one entry (docs/sources.md §4 row layout, §5 privacy, §8 actions)."""
    label = None if public else account_label(entry, linked_accounts)
    date = None
    if entry.created_at is not None:
        date = f"{_DATE_LABELS[entry.type]} {format_date(entry.created_at)}"
    confidence = confidence_band(entry.confidence) if entry.confidence is not None else None
    actions = visible_actions(entry, public=public)
    tooltip = open_tooltip(entry) if "open" in actions else None
    local = None if public or "open" in actions else source_file(entry)
    snippet = display_snippet(entry.snippet) if entry.snippet else None
    if local is not None:
        actions = ["open-file", *actions]
        at = f" at {local.where}" if local.where else ""
        tooltip = f"Show {local.path}{at} from the {FOLDER_LABELS[local.folder]}"
    return PanelRow(
        entry_id=entry.id,
        usage=entry.source_usage,
        number=number if entry.source_usage == "used" else None,
        title=entry.title or entry.source_label,
        source_label=entry.source_label,
        type=entry.type,
        provider=entry.provider,
        account=account_provenance(entry, label),
        date=date,
        confidence=confidence,
        snippet=snippet.text if snippet else None,
        snippet_path=snippet.path if snippet else None,
        details=display_metadata(entry),
        coverage=entry.readiness_hint,
        freshness=entry.recency_hint,
        provenance=_TOOL_PHRASES.get(entry.tool_name or ""),
        actions=actions,
        open_tooltip=tooltip,
        accessible_name=accessible_name(entry, number if entry.source_usage == "used" else None),
    )


def build_sources_panel(
    entries: Sequence[SourceEntry],
    numbers: Mapping[str, int],
    grounding_mode: str | None,
    *,
    public: bool = False,
    linked_accounts: Mapping[str, str] | None = None,
) -> SourcesPanelContent:
    """The panel for one message (docs/sources.md §4): groups, collapsed state, empty text and
    notice."""
    if not entries:
        empty = (
            GENERAL_KNOWLEDGE_EMPTY if grounding_mode == "general-knowledge" else NO_SOURCES_EMPTY
        )
        return SourcesPanelContent(empty_text=empty)
    grouped = group_entries(entries, numbers)
    has_used = any(usage == "used" for usage, _ in grouped)
    groups = [
        PanelGroup(
            usage,
            f"{GROUP_HEADERS[usage]} ({len(members)})",
            collapsed=has_used and usage != "used",
            rows=[
                build_row(e, numbers.get(e.id), public=public, linked_accounts=linked_accounts)
                for e in members
            ],
        )
        for usage, members in grouped
    ]
    return SourcesPanelContent(groups=groups, notice=None if has_used else NONE_SUPPORTED)
