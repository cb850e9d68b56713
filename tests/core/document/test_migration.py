from composer_app.core.codecs.references import collect_references
from composer_app.core.document.migration import migrate_legacy_draft
from tests.core.document import sample_records as rec

OLD = [
    {"id": "a", "terminalId": "t1", "terminalLabel": "Terminal 1", "lineStart": 1, "lineEnd": 2,
     "text": "one"},
    {"id": "b", "terminalId": "t2", "terminalLabel": "Terminal 2", "lineStart": 5, "lineEnd": 5,
     "text": "two"},
    {"id": "c", "terminalId": "t3", "terminalLabel": "Terminal 3", "lineStart": 0, "lineEnd": 9,
     "text": "three"},
]


def test_placeholders_bind_in_order_and_unmentioned_contexts_are_prepended():
    text, records = migrate_legacy_draft("fix \ufffc then \ufffc please", OLD)
    assert [r.context_id for r in records] == ["terminal_a", "terminal_b", "terminal_c"]
    refs = collect_references(text)
    assert [r.context_id for r in refs] == ["terminal_c", "terminal_a", "terminal_b"]
    assert text.startswith("[Terminal 3 lines 0-9](t3-context://v1/terminal/terminal_c) fix [")
    assert text.endswith("](t3-context://v1/terminal/terminal_b) please")
    assert records[1].label == "Terminal 2 line 5"
    assert "\ufffc" not in text


def test_placeholders_without_a_context_are_deleted():
    text, records = migrate_legacy_draft("a \ufffc b \ufffc", OLD[:1])
    assert text == "a [Terminal 1 lines 1-2](t3-context://v1/terminal/terminal_a) b "
    assert len(records) == 1


def test_invalid_entries_are_skipped_and_migration_is_idempotent():
    broken = [{"id": "x", "lineStart": "?"}, "nonsense", OLD[0]]
    first = migrate_legacy_draft("\ufffc", broken)
    assert first == migrate_legacy_draft("\ufffc", broken)
    assert [r.context_id for r in first[1]] == ["terminal_a"]


def test_prompt_without_placeholders_or_contexts_is_unchanged():
    assert migrate_legacy_draft("plain", []) == ("plain", [])


def test_an_old_entry_that_is_already_a_wire_record_is_taken_as_is() -> None:
    from composer_app.core.document.migration import terminal_record_from_legacy

    wire = rec.wire("terminal", "terminal_w1", "T 1", terminalId="t", terminalLabel="T",
                    lineStart=1, lineEnd=1, text="x")
    record = terminal_record_from_legacy(wire, 0)
    assert record is not None and record.context_id == "terminal_w1"
    assert terminal_record_from_legacy("not a dict", 0) is None
