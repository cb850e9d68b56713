"""The persisted draft shape: current files round-trip, damaged parts are skipped."""

from __future__ import annotations

from composer_app.core.codecs.references import format_reference
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
