"""The presentation registry: three surfaces per kind, no duplicates, unresolved fallback."""

from __future__ import annotations

import pytest

from composer_app.core.contracts.records import KNOWN_KINDS, decode_record
from composer_app.ui.transcript.presentation import (
    DuplicatePresentationError,
    PresentationRegistry,
    default_registry,
)
from composer_app.ui.transcript.samples import RECORDS


def _record(context_id: str) -> object:
    return decode_record(next(r for r in RECORDS if r["contextId"] == context_id))


def test_every_known_kind_declares_all_three_surfaces() -> None:
    registry = default_registry()
    for kind in KNOWN_KINDS:
        assert all(registry.has(kind, s) for s in ("compact", "details", "expanded"))


def test_a_second_handler_for_a_surface_is_rejected() -> None:
    registry = default_registry()
    with pytest.raises(DuplicatePresentationError):
        registry.register("terminal", "compact", lambda label, record: None)
    with pytest.raises(ValueError, match="unknown surface"):
        PresentationRegistry().register("terminal", "sidebar", lambda label, record: None)


def test_unknown_kind_and_missing_record_fall_back_to_unresolved() -> None:
    registry = default_registry()
    look = registry.compact("sketch", "whiteboard", None)
    assert look.state == "unresolved" and "Context unavailable" in look.tooltip
    assert registry.compact("file", "old.log", None).state == "unresolved"
    assert registry.details("file", "old.log", None).tone == "unresolved"
    # a record of another kind never borrows that kind's presentation
    assert registry.compact("file", "x", _record("ctx_term")).state == "unresolved"


def test_pull_request_chip_has_state_tone_and_opens_its_url() -> None:
    registry = default_registry()
    record = _record("ctx_pr")
    look = registry.compact("review-comment", "#42", record)
    assert look.tone == "pr-open" and "Trim travel budget rows" in look.tooltip
    expanded = registry.expanded("review-comment", "#42", record)
    assert (expanded.action, expanded.url) == ("url", "https://github.com/acme/budget/pull/42")


@pytest.mark.parametrize(
    ("state", "draft", "tone"),
    [
        ("open", False, "pr-open"),
        ("open", True, "pr-draft"),
        ("merged", False, "pr-merged"),
        ("closed", False, "pr-closed"),
    ],
)
def test_pull_request_tones(state: str, draft: bool, tone: str) -> None:
    raw = dict(next(r for r in RECORDS if r["contextId"] == "ctx_pr"))
    raw["pullRequest"] = dict(raw["pullRequest"], state=state, isDraft=draft)
    assert default_registry().compact("review-comment", "#42", decode_record(raw)).tone == tone


def test_review_comment_without_metadata_is_neutral_and_opens_a_popover() -> None:
    raw = dict(next(r for r in RECORDS if r["contextId"] == "ctx_pr"))
    del raw["pullRequest"]
    record = decode_record(raw)
    registry = default_registry()
    assert registry.compact("review-comment", "#42", record).tone == "pr-neutral"
    assert registry.expanded("review-comment", "#42", record).action == "popover"


@pytest.mark.parametrize(
    ("context_id", "kind", "action", "needle"),
    [
        ("ctx_term", "terminal", "popover", "unresolved import"),
        ("ctx_el", "element", "popover", '<button class="save">'),
        ("ctx_rev", "review-comment", "popover", "Use the Q3 figure"),
        ("ctx_note", "preview-annotation", "popover", "Make this wider"),
        ("ctx_img", "image", "media", ""),
        ("ctx_file", "file", "asset", ""),
    ],
)
def test_activation_surfaces(context_id: str, kind: str, action: str, needle: str) -> None:
    registry = default_registry()
    record = _record(context_id)
    assert registry.expanded(kind, "label", record).action == action
    assert needle in registry.details(kind, "label", record).body


def test_videos_open_the_media_viewer() -> None:
    raw = dict(next(r for r in RECORDS if r["contextId"] == "ctx_file"), mimeType="video/mp4")
    assert default_registry().expanded("file", "clip", decode_record(raw)).action == "media"
