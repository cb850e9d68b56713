"""The presentation registry: how each context kind is shown in the transcript (Qt-free).

Invariants: each kind declares three surfaces — ``compact`` (the chip), ``details`` (the popover
content) and ``expanded`` (what activation opens); a surface has at most one handler per kind and
registering a second one raises ``DuplicatePresentationError``; a kind without a handler, a missing
record, or a record of another kind gets the **unresolved** fallback (dashed chip, "Context
unavailable"), never an exception and never a vanished chip. Handlers read records only; they never
perform I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from composer_app.core.codecs.labels import (
    format_style_change,
    pull_request_display_state,
    pull_request_kind_label,
)
from composer_app.core.contracts.records import KNOWN_KINDS
from composer_app.ui.composer.editor_logic import ChipLook, chip_look, kind_name

SURFACES = ("compact", "details", "expanded")
UNAVAILABLE = "Context unavailable"


class DuplicatePresentationError(ValueError):
    """A second handler was registered for the same kind and surface."""


@dataclass(frozen=True, slots=True)
class Details:
    """The content of a details popover: a title, labelled rows and an optional body."""

    title: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    body: str = ""
    monospace: bool = False
    tone: str = "neutral"
    link: str | None = None


@dataclass(frozen=True, slots=True)
class Expanded:
    """What activating a chip does: ``popover``, ``media``, ``asset``, ``url`` or ``none``."""

    action: str
    url: str | None = None


Handler = Callable[[str, Any], Any]


def _compact(label: str, record: Any) -> ChipLook:
    return chip_look(record.kind, label, record, None)


def unresolved_look(kind: str, label: str) -> ChipLook:
    """The fallback chip: label, dashed outline, tooltip ``Context unavailable``."""
    return ChipLook(
        "unresolved",
        "unresolved",
        kind if kind else "?",
        f"{label}\n{UNAVAILABLE}",
        f"{label} (unavailable context)",
    )


def _terminal(label: str, r: Any) -> Details:
    return Details(
        f"Terminal output · {r.terminal_label}",
        [("Lines", f"{r.line_start}–{r.line_end}")],
        r.text,
        True,
        "terminal",
    )


def _element_rows(r: Any) -> list[tuple[str, str]]:
    rows = [("Page", r.page_title or r.page_url), ("Element", f"<{r.tag_name}>")]
    if r.selector:
        rows.append(("Selector", r.selector))
    if r.component_name:
        rows.append(("Component", r.component_name))
    src = r.source
    if src is not None and src.file_name:
        line = f":{src.line_number}" if src.line_number is not None else ""
        rows.append(("Source", f"{src.file_name}{line}"))
    return rows


def _element(label: str, r: Any) -> Details:
    return Details(f"Page element · {label}", _element_rows(r), r.html_preview, True, "element")


def _review(label: str, r: Any) -> Details:
    meta = r.pull_request
    if meta is not None:
        state = pull_request_display_state(meta)
        rows = [
            ("State", state.capitalize()),
            ("Branches", f"{meta.head_branch} → {meta.base_branch}"),
        ]
        return Details(
            f"{pull_request_kind_label(meta)} #{meta.number} · {meta.title}",
            rows,
            r.text,
            False,
            f"pr-{state}",
            meta.url,
        )
    rows = [("File", r.file_path), ("Lines", r.range_label), ("Section", r.section_title)]
    body = r.text + (f"\n\n{r.diff}" if r.diff else "")
    return Details(f"Review comment · {label}", rows, body, True, "review-comment")


def _preview(label: str, r: Any) -> Details:
    rows = [("Page", r.page_title or r.page_url)]
    if r.target_summary:
        rows.append(("Targets", r.target_summary))
    changes = [
        format_style_change(d.property, d.previous_value, d.value)
        for d in (r.style_change_details or [])
    ] or list(r.style_changes)
    body = r.comment + ("\n\n" + "\n".join(changes) if changes else "")
    return Details(f"Preview annotation · {label}", rows, body, False, "preview-annotation")


def _generic(label: str, r: Any) -> Details:
    look = chip_look(r.kind, label, r, None)
    lines = look.tooltip.split("\n")
    return Details(lines[0], [], "\n".join(lines[1:]), False, look.tone)


def _popover(_label: str, _r: Any) -> Expanded:
    return Expanded("popover")


def _review_expanded(_label: str, r: Any) -> Expanded:
    meta = r.pull_request
    return Expanded("url", meta.url) if meta is not None else Expanded("popover")


def _file_expanded(_label: str, r: Any) -> Expanded:
    return Expanded("media") if r.mime_type.startswith("video/") else Expanded("asset")


class PresentationRegistry:
    """Handlers per ``(kind, surface)``; lookups fall back to the unresolved presentation."""

    def __init__(self) -> None:
        self._handlers: dict[tuple[str, str], Handler] = {}

    def register(self, kind: str, surface: str, handler: Handler) -> None:
        """Declare ``handler(label, record)`` for one surface of ``kind``."""
        if surface not in SURFACES:
            raise ValueError(f"unknown surface {surface!r}; expected one of {SURFACES}")
        if (kind, surface) in self._handlers:
            raise DuplicatePresentationError(f"{kind!r} already has a {surface} handler")
        self._handlers[(kind, surface)] = handler

    def has(self, kind: str, surface: str) -> bool:
        """True when ``kind`` declares ``surface``."""
        return (kind, surface) in self._handlers

    def _resolve(self, kind: str, surface: str, record: Any) -> Handler | None:
        if record is None or getattr(record, "kind", None) != kind:
            return None
        return self._handlers.get((kind, surface))

    def compact(self, kind: str, label: str, record: Any) -> ChipLook:
        """The chip look of one reference."""
        handler = self._resolve(kind, "compact", record)
        return handler(label, record) if handler else unresolved_look(kind, label)

    def details(self, kind: str, label: str, record: Any) -> Details:
        """The details popover content of one reference."""
        handler = self._resolve(kind, "details", record)
        if handler is None:
            return Details(
                label,
                [],
                f"{UNAVAILABLE}: this {kind_name(kind)} is not part of this message.",
                False,
                "unresolved",
            )
        details: Details = handler(label, record)
        return details

    def expanded(self, kind: str, label: str, record: Any) -> Expanded:
        """What activating one reference opens."""
        handler = self._resolve(kind, "expanded", record)
        return handler(label, record) if handler else Expanded("popover")


def default_registry() -> PresentationRegistry:
    """Every known kind with its three surfaces."""
    registry = PresentationRegistry()
    details: dict[str, Handler] = {
        "terminal": _terminal,
        "element": _element,
        "review-comment": _review,
        "preview-annotation": _preview,
    }
    expanded: dict[str, Handler] = {
        "terminal": _popover,
        "element": _popover,
        "preview-annotation": _popover,
        "review-comment": _review_expanded,
        "image": lambda _l, _r: Expanded("media"),
        "file": _file_expanded,
    }
    for kind in KNOWN_KINDS:
        registry.register(kind, "compact", _compact)
        registry.register(kind, "details", details.get(kind, _generic))
        registry.register(kind, "expanded", expanded.get(kind, _popover))
    return registry
