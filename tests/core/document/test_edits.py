from composer_app.core.codecs.references import format_reference
from composer_app.core.document.edits import (
    add_record,
    append_reference,
    forget_tombstones,
    reconcile,
    referenced_ids,
)
from composer_app.core.document.model import Draft, RecordState
from tests.core.document import sample_records as rec


def link(record):
    return format_reference(record.kind, record.context_id, record.label)


def test_referenced_ids_are_unique_in_first_appearance_order():
    t, m = rec.terminal(), rec.mention()
    assert referenced_ids(f"{link(m)} x {link(t)} {link(m)}") == [m.context_id, t.context_id]


def test_add_record_keeps_the_first_record_for_an_id():
    draft = Draft()
    assert add_record(draft, rec.mention(path="a.py"))
    assert not add_record(draft, rec.mention(path="b.py"))
    assert draft.records["mention_m1"].path == "a.py"


def test_unreferenced_records_leave_and_come_back_in_their_place():
    draft = Draft()
    records = [rec.terminal(), rec.file(), rec.mention()]
    for r in records:
        add_record(draft, r)
    result = reconcile(draft, ["terminal_t1", "mention_m1"])
    assert [r.context_id for r in result.removed] == ["file_f1"]
    assert list(draft.records) == ["terminal_t1", "mention_m1"]
    result = reconcile(draft, ["terminal_t1", "mention_m1", "file_f1"])
    assert [r.context_id for r in result.restored] == ["file_f1"]
    assert list(draft.records) == ["terminal_t1", "file_f1", "mention_m1"]


def test_images_stay_on_the_shelf_only_when_the_draft_keeps_one():
    shelf = Draft(keep_shelf_images=True)
    plain = Draft()
    for draft in (shelf, plain):
        add_record(draft, rec.image())
        reconcile(draft, [])
    assert list(shelf.records) == ["image_a1"] and shelf.shelf == ["image_a1"]
    assert plain.records == {} and plain.shelf == []


def test_forget_tombstones_returns_the_records_whose_uploads_may_go():
    draft = Draft()
    add_record(draft, rec.file(), RecordState.PENDING)
    reconcile(draft, [])
    assert [r.context_id for r in forget_tombstones(draft)] == ["file_f1"]
    assert draft.tombstones == {} and draft.states == {}
    assert reconcile(draft, ["file_f1"]).restored == ()


def test_append_reference_adds_record_and_link_with_spacing():
    draft = Draft(prompt="hello")
    append_reference(draft, rec.mention(), label="app")
    assert draft.prompt == "hello [app](t3-context://v1/mention/mention_m1) "
    assert draft.records["mention_m1"].label == "src/app.py"
