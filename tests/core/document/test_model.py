"""The draft of one thread: record lookups and what a reconcile reports."""

from __future__ import annotations

from composer_app.core.document.edits import add_record, reconcile
from composer_app.core.document.model import Draft, RecordState
from tests.core.document import sample_records as rec


def test_record_lookup_and_state_of_held_and_unknown_ids() -> None:
    draft = Draft()
    add_record(draft, rec.skill(), RecordState.PENDING)
    assert draft.record("skill_s1") is not None and draft.record("nope") is None
    assert draft.state_of("skill_s1") is RecordState.PENDING
    assert draft.state_of("nope") is RecordState.RESOLVED


def test_a_reconcile_reports_a_change_only_when_a_record_left_or_came_back() -> None:
    draft = Draft()
    add_record(draft, rec.skill())
    assert not reconcile(draft, ["skill_s1"]).changed
    gone = reconcile(draft, [])
    assert gone.changed and [r.context_id for r in gone.removed] == ["skill_s1"]
    back = reconcile(draft, ["skill_s1"])
    assert back.changed and [r.context_id for r in back.restored] == ["skill_s1"]


def test_an_image_brought_back_by_undo_returns_to_the_shelf() -> None:
    draft = Draft()
    add_record(draft, rec.image())
    reconcile(draft, [])
    assert "image_a1" not in draft.shelf
    reconcile(draft, ["image_a1"])
    assert draft.shelf == ["image_a1"] and draft.record("image_a1") is not None
