"""Reading a persisted draft: files no reference points at come back as chips."""

from composer_app.core.codecs.references import collect_references, format_reference
from composer_app.core.document.draft_file import decode_draft
from tests.core.document import sample_records as rec


def link(record):
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
