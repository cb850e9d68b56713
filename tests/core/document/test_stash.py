import itertools

from composer_app.core.codecs.references import collect_references, format_reference
from composer_app.core.document.edits import add_record
from composer_app.core.document.model import STASH_MAX_ENTRIES, Draft
from composer_app.core.document.stash import (
    joined_after_blank_line,
    restore_stash,
    stash_preview,
    stash_prompt,
)
from tests.core.document import sample_records as rec


def link(record):
    return format_reference(record.kind, record.context_id, record.label)


def ids():
    counter = itertools.count()
    return lambda: f"n{next(counter)}"


def test_stash_moves_prompt_and_its_records_but_images_out_of_the_draft():
    draft = Draft()
    for r in (rec.terminal(), rec.review(), rec.file(), rec.image()):
        add_record(draft, r)
    prompt = (f"a {link(rec.terminal())} {link(rec.review())} {link(rec.file())} "
              f"{link(rec.image())}")
    outcome = stash_prompt(draft, prompt)
    assert outcome is not None and outcome.evicted is None
    assert [r.kind for r in outcome.entry.records] == ["terminal", "review-comment", "file"]
    assert [r.kind for r in draft.records.values()] == ["image"] and draft.prompt == ""
    assert stash_prompt(draft, "   ") is None


def test_stash_keeps_file_uploads():
    draft = Draft()
    add_record(draft, rec.file())
    stash_prompt(draft, f"see {link(rec.file())}")
    text = restore_stash(draft, environment_id="env", new_id=ids())
    assert text == f"see {link(rec.file())}"
    assert draft.records[rec.file().context_id] == rec.file()  # same attachment id: same upload


def test_restored_file_whose_id_the_draft_uses_for_another_file_gets_a_fresh_id():
    draft = Draft()
    add_record(draft, rec.file())
    stash_prompt(draft, f"see {link(rec.file())}")
    other = rec.file().model_copy(update={"attachment_id": "local_other"})
    add_record(draft, other)
    text = restore_stash(draft, environment_id="env", new_id=ids())
    [restored] = [r for r in collect_references(text)]
    assert restored.context_id != rec.file().context_id
    assert draft.records[restored.context_id].attachment_id == rec.file().attachment_id
    assert draft.records[rec.file().context_id].attachment_id == "local_other"


def test_stash_keeps_twenty_entries_and_reports_the_evicted_one():
    draft = Draft()
    outcomes = [stash_prompt(draft, f"prompt {n}") for n in range(STASH_MAX_ENTRIES + 1)]
    assert len(draft.stash) == STASH_MAX_ENTRIES
    assert outcomes[-1].evicted.prompt == "prompt 0"
    assert draft.stash[0].prompt == "prompt 1"
    assert stash_preview(draft.stash[0]) == "prompt 1"


def test_restore_appends_after_a_blank_line_and_reimports_records():
    draft = Draft()
    add_record(draft, rec.terminal())
    stash_prompt(draft, f"look {link(rec.terminal())}")
    draft.prompt = "now  "
    assert restore_stash(draft, environment_id="env", new_id=ids()) == (
        f"now\n\nlook {link(rec.terminal())}"
    )
    assert list(draft.records) == ["terminal_t1"] and draft.stash == []


def test_restore_dedupes_by_payload_not_by_id_or_label():
    draft = Draft()
    add_record(draft, rec.terminal())
    stash_prompt(draft, f"x {link(rec.terminal())}")
    same_payload = rec.terminal("terminal_other").model_copy(update={"label": "Other"})
    add_record(draft, same_payload)
    text = restore_stash(draft, environment_id="env", new_id=ids())
    assert list(draft.records) == ["terminal_other"]
    assert [r.context_id for r in collect_references(text)] == ["terminal_other"]


def test_restore_renames_a_record_whose_id_is_taken_by_another_payload():
    draft = Draft()
    add_record(draft, rec.terminal())
    stash_prompt(draft, f"x {link(rec.terminal())}")
    add_record(draft, rec.terminal(text="different output"))
    text = restore_stash(draft, environment_id="env", new_id=ids())
    new_ids = [r.context_id for r in collect_references(text)]
    assert new_ids[0] != "terminal_t1" and set(draft.records) == {"terminal_t1", new_ids[0]}


def test_restore_with_an_empty_stash_and_joining_rules():
    assert restore_stash(Draft(), environment_id="env", new_id=ids()) is None
    assert joined_after_blank_line("", "b") == "b"
    assert joined_after_blank_line("a\n", "b") == "a\n\nb"


def test_restored_file_the_draft_still_holds_is_not_added_twice():
    draft = Draft()
    add_record(draft, rec.file())
    stash_prompt(draft, f"see {link(rec.file())}")
    add_record(draft, rec.file())  # the same file, attached again meanwhile
    text = restore_stash(draft, environment_id="env", new_id=ids())
    assert [r.context_id for r in collect_references(text)] == [rec.file().context_id]
    assert list(draft.records) == [rec.file().context_id]
