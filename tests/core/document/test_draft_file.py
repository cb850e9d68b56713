"""The persisted draft shape: current files round-trip, damaged parts are skipped."""

from __future__ import annotations

from composer_app.core.codecs.references import collect_references, format_reference
from composer_app.core.document.draft_file import decode_draft, encode_draft
from composer_app.core.document.edits import add_record
from composer_app.core.document.model import Draft, StashEntry
from tests.core.document import sample_records as rec


def test_a_draft_round_trips_with_its_stash() -> None:
    draft = Draft()
    add_record(draft, rec.skill())
    draft.prompt = "hi " + format_reference("skill", "skill_s1", "deploy")
    draft.stash.append(StashEntry("parked", (rec.mention(),)))
    back = decode_draft(encode_draft(draft))
    assert back.prompt == draft.prompt and list(back.records) == ["skill_s1"]
    assert [(e.prompt, [r.context_id for r in e.records]) for e in back.stash] == [
        ("parked", ["mention_m1"])]


def test_unusable_stash_entries_and_non_objects_are_skipped() -> None:
    obj = encode_draft(Draft())
    obj["stash"] = ["not an entry", {"prompt": 3}, {"prompt": "kept", "records": []}]
    assert [e.prompt for e in decode_draft(obj).stash] == ["kept"]
    assert decode_draft(["not", "a", "draft"]).prompt == ""
    assert decode_draft(None).records == {}


def link(record):  # type: ignore[no-untyped-def]
    return format_reference(record.kind, record.context_id, record.label)


def test_saved_draft_without_the_file_reference_appends_its_chip():
    kept = rec.file()
    data = {"version": 2, "prompt": f"see {link(rec.mention())}",
            "records": [r.to_wire() for r in (rec.mention(), kept, rec.skill())]}
    draft = decode_draft(data)
    assert draft.prompt == f"see {link(rec.mention())} {link(kept)} "
    assert draft.records[kept.context_id] == kept  # same attachment id: its upload stays bound
    assert "skill_" not in " ".join(draft.records)  # other unreferenced records still go


def test_a_referenced_file_is_not_appended_twice():
    data = {"version": 2, "prompt": f"a {link(rec.file())} b",
            "records": [rec.file().to_wire()]}
    draft = decode_draft(data)
    assert [r.context_id for r in collect_references(draft.prompt)] == [rec.file().context_id]
