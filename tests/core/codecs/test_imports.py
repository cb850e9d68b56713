"""Paste import planning (docs/contract.md §10): held records, binaries, collisions, screenshots."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import count
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.imports import (
    BinaryFetch,
    ImportPlan,
    import_lookup_ids,
    is_same_payload,
    plan_fragment_import,
)
from composer_app.core.codecs.references import (
    collect_references,
    format_reference,
    replace_references,
)
from composer_app.core.contracts.clipboard import ClipboardFragment, FragmentSource
from composer_app.core.contracts.records import (
    ContextRecord,
    PreviewAnnotationRecord,
    decode_record,
    encode_record,
)
from composer_app.core.errors import ComposerError


def terminal(context_id: str = "terminal_x1", text: str = "ls", label: str = "T") -> Any:
    return decode_record(
        {
            "version": 1,
            "contextId": context_id,
            "kind": "terminal",
            "label": label,
            "terminalId": "term-1",
            "terminalLabel": "Terminal 1",
            "lineStart": 1,
            "lineEnd": 1,
            "text": text,
        }
    )


def binary(
    kind: str = "image", context_id: str = "image_att1", attachment_id: str = "att1", **over: Any
) -> Any:
    return decode_record(
        {
            "version": 1,
            "contextId": context_id,
            "kind": kind,
            "label": over.pop("label", "shot.png"),
            "attachmentId": attachment_id,
            "name": "shot.png",
            "mimeType": "image/png",
            "sizeBytes": 2048,
            **over,
        }
    )


def annotation(context_id: str = "preview-annotation_a1", screenshot: str | None = None) -> Any:
    wire: dict[str, Any] = {
        "version": 1,
        "contextId": context_id,
        "kind": "preview-annotation",
        "label": "Fix the header",
        "annotationId": "a1",
        "pageUrl": "http://localhost:3000/",
        "pageTitle": None,
        "comment": "Fix the header",
        "targetSummary": "1 drawing",
        "styleChanges": [],
    }
    if screenshot is not None:
        wire["screenshotContextId"] = screenshot
    return decode_record(wire)


def skill(context_id: str = "skill_lint", name: str = "lint") -> Any:
    wire = {"version": 1, "contextId": context_id, "kind": "skill", "label": name, "name": name}
    return decode_record(wire)


def fragment(*records: ContextRecord, environment: str = "env_a") -> ClipboardFragment:
    return ClipboardFragment(
        source=FragmentSource(environment_id=environment, thread_id="thr"), records=list(records)
    )


def ids(*values: str) -> Callable[[], str]:
    queue: Iterator[str] = iter(values)
    return lambda: next(queue)


def plan(
    frag: ClipboardFragment,
    draft: list[ContextRecord] | None = None,
    *,
    connected: tuple[str, ...] = ("env_a",),
    new_id: Callable[[], str] | None = None,
) -> ImportPlan:
    counter = count(1)
    return plan_fragment_import(
        frag,
        draft or [],
        connected_environment_ids=connected,
        new_id=new_id or (lambda: f"local_{next(counter)}"),
    )


# ------------------------------------------------------------------------------------------------
# import_lookup_ids and is_same_payload


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (terminal("terminal_x1"), ["terminal_x1"]),
        (terminal("legacy_terminal_1"), ["terminal_legacy_terminal_1", "legacy_terminal_1"]),
        (terminal("terminal_terminal_1"), ["terminal_terminal_1"]),
        (binary("file", "ctx_9"), ["file_ctx_9", "ctx_9"]),
    ],
)
def test_lookup_ids_put_the_rescoped_id_first(record: Any, expected: list[str]) -> None:
    assert import_lookup_ids(record) == expected


def test_same_payload_ignores_label_and_context_id() -> None:
    assert is_same_payload(terminal("a", label="one"), terminal("b", label="two"))
    assert not is_same_payload(terminal("a", text="x"), terminal("a", text="y"))


def test_same_payload_requires_the_same_kind() -> None:
    assert not is_same_payload(binary("image", "ctx_1"), binary("file", "ctx_1"))


def unknown(payload: Any, kind: str = "sticker") -> Any:
    wire = {"version": 1, "contextId": "u", "kind": kind, "label": "u", "payload": payload}
    return decode_record(wire)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ({"x": 1, "y": [1, {"z": None}]}, {"y": [1, {"z": None}], "x": 1}, True),
        ({"x": 1}, {"x": 1.0}, True),
        ({"x": True}, {"x": 1}, False),
        ({"x": 0}, {"x": False}, False),
        ([1, 2], [2, 1], False),
        ({"x": None}, {}, False),
        ("1", 1, False),
        ([[]], [{}], False),
    ],
)
def test_same_payload_compares_unknown_payloads_as_json(a: Any, b: Any, same: bool) -> None:
    assert is_same_payload(unknown(a), unknown(b)) is same
    assert not is_same_payload(unknown(a), unknown(a, kind="badge"))


# ------------------------------------------------------------------------------------------------
# Held records


def test_record_held_under_its_lookup_id_with_same_payload_is_mapped_not_added() -> None:
    held = terminal("terminal_legacy_terminal_1", label="old label")
    result = plan(fragment(terminal("legacy_terminal_1", label="new")), [held])
    assert result.id_map == {"legacy_terminal_1": "terminal_legacy_terminal_1"}
    assert result.records_to_add == () and result.binary_fetches == ()


def test_lookup_prefers_the_rescoped_id() -> None:
    draft = [terminal("legacy_terminal_1"), terminal("terminal_legacy_terminal_1")]
    result = plan(fragment(terminal("legacy_terminal_1")), draft)
    assert result.id_map == {"legacy_terminal_1": "terminal_legacy_terminal_1"}


def test_record_with_the_same_payload_under_another_id_is_mapped() -> None:
    draft = [skill("skill_other", "fmt"), terminal("terminal_elsewhere")]
    result = plan(fragment(terminal("terminal_x1")), draft)
    assert result.id_map == {"terminal_x1": "terminal_elsewhere"}
    assert result.records_to_add == ()


def test_held_image_is_not_fetched_again() -> None:
    draft = [binary("image", "image_local_7", "att1", label="mine")]
    result = plan(fragment(binary("image", "image_att1", "att1")), draft)
    assert result.id_map == {"image_att1": "image_local_7"}
    assert result.records_to_add == () and result.binary_fetches == ()


def test_draft_may_be_given_as_a_record_map() -> None:
    held = terminal("terminal_elsewhere")
    frag = fragment(terminal("terminal_x1"), skill())
    assert plan_fragment_import(
        frag, {held.context_id: held}, connected_environment_ids=(), new_id=ids()
    ) == plan(frag, [held], connected=())


# ------------------------------------------------------------------------------------------------
# New records


def test_other_records_keep_their_own_id_when_it_is_free() -> None:
    records = (terminal(), skill(), annotation())
    result = plan(fragment(*records), [terminal("terminal_other", text="different")])
    assert result.records_to_add == records
    assert result.id_map == {r.context_id: r.context_id for r in records}
    assert all(result.state_of(r.context_id) == "resolved" for r in records)


def test_id_collision_gets_a_new_kind_scoped_id() -> None:
    draft = [terminal("terminal_x1", text="draft text")]
    result = plan(fragment(terminal("terminal_x1", text="pasted")), draft, new_id=ids("n1"))
    (added,) = result.records_to_add
    assert added.context_id == "terminal_n1"
    assert encode_record(added) == {
        **encode_record(terminal(text="pasted")),
        "contextId": "terminal_n1",
    }
    assert result.id_map == {"terminal_x1": "terminal_n1"}


def test_a_new_id_that_is_taken_is_minted_again() -> None:
    draft = [skill("skill_lint", "other"), skill("skill_n1", "n1")]
    result = plan(fragment(skill()), draft, new_id=ids("n1", "n2"))
    assert result.id_map == {"skill_lint": "skill_n2"}


def test_new_id_that_never_frees_an_id_is_an_error() -> None:
    draft = [skill("skill_lint", "other"), skill("skill_n1", "n1")]
    with pytest.raises(ComposerError):
        plan(fragment(skill()), draft, new_id=lambda: "n1")


@pytest.mark.parametrize("kind", ["image", "file"])
def test_binaries_get_a_fresh_local_id_and_a_fetch(kind: str) -> None:
    record = binary(kind, f"{kind}_att1", "att1", label="Shot")
    result = plan(fragment(record), new_id=ids("local_abc"))
    (added,) = result.records_to_add
    assert encode_record(added) == {
        **encode_record(record),
        "contextId": f"{kind}_local_abc",
        "attachmentId": "local_abc",
    }
    assert result.binary_fetches == (
        BinaryFetch(
            new_context_id=f"{kind}_local_abc",
            source_environment_id="env_a",
            source_attachment_id="att1",
            name="shot.png",
            mime_type="image/png",
            size_bytes=2048,
        ),
    )
    assert result.id_map == {f"{kind}_att1": f"{kind}_local_abc"}
    assert result.pending_ids == (f"{kind}_local_abc",)
    assert result.unresolved_ids == ()
    assert result.state_of(f"{kind}_local_abc") == "pending"


def test_binaries_from_a_disconnected_environment_are_unresolved_without_fetch() -> None:
    frag = fragment(binary(), terminal(), environment="env_far")
    result = plan(frag, connected=("env_a",), new_id=ids("local_1"))
    assert [r.context_id for r in result.records_to_add] == ["image_local_1", "terminal_x1"]
    assert encode_record(result.records_to_add[0])["attachmentId"] == "local_1"
    assert result.binary_fetches == ()
    assert result.unresolved_ids == ("image_local_1",)
    assert result.state_of("image_local_1") == "unresolved"
    assert result.state_of("terminal_x1") == "resolved"


def test_an_id_minted_for_a_binary_is_taken_for_later_records() -> None:
    frag = fragment(binary(), skill("image_local_1"))
    result = plan(frag, new_id=ids("local_1", "s2"))
    assert result.id_map == {"image_att1": "image_local_1", "image_local_1": "skill_s2"}


# ------------------------------------------------------------------------------------------------
# Screenshots and text rewriting


def test_screenshot_id_follows_its_image_imported_after_the_annotation() -> None:
    frag = fragment(annotation(screenshot="image_a1"), binary("image", "image_a1", "a1"))
    result = plan(frag, new_id=ids("local_9"))
    added_annotation, added_image = result.records_to_add
    assert added_image.context_id == "image_local_9"
    assert isinstance(added_annotation, PreviewAnnotationRecord)
    assert added_annotation.screenshot_context_id == "image_local_9"
    assert added_annotation.context_id == "preview-annotation_a1"


def test_screenshot_id_follows_an_image_the_draft_already_holds() -> None:
    draft = [binary("image", "image_mine", "a1")]
    frag = fragment(binary("image", "image_a1", "a1"), annotation(screenshot="image_a1"))
    result = plan(frag, draft)
    (added,) = result.records_to_add
    assert isinstance(added, PreviewAnnotationRecord)
    assert added.screenshot_context_id == "image_mine"


def test_screenshot_id_outside_the_fragment_is_kept() -> None:
    record = annotation(screenshot="image_elsewhere")
    assert plan(fragment(record)).records_to_add == (record,)


def test_pasted_text_is_rewritten_through_the_id_map() -> None:
    draft = [terminal("terminal_x1", text="draft")]
    frag = fragment(terminal("terminal_x1", text="pasted"), binary())
    result = plan(frag, draft, new_id=ids("n1", "local_2"))
    text = (
        f"{format_reference('terminal', 'terminal_x1', 'T')} and "
        f"{format_reference('image', 'image_att1', 'shot')} and "
        f"{format_reference('skill', 'skill_gone', 'gone')}"
    )
    rewritten = replace_references(
        text,
        lambda r: format_reference(r.kind, result.id_map.get(r.context_id, r.context_id), r.label),
    )
    assert [r.context_id for r in collect_references(rewritten)] == [
        "terminal_n1",
        "image_local_2",
        "skill_gone",
    ]


# ------------------------------------------------------------------------------------------------
# Properties

record_ids = st.from_regex(r"(terminal_|image_|skill_)?[a-c]{1,2}", fullmatch=True)
records = st.one_of(
    st.builds(terminal, record_ids, st.sampled_from(["a", "b"])),
    st.builds(
        lambda cid, att: binary("image", cid, att), record_ids, st.sampled_from(["a1", "a2"])
    ),
    st.builds(skill, record_ids, st.sampled_from(["x", "y"])),
)
record_lists = st.lists(records, max_size=6, unique_by=lambda r: r.context_id)


@given(record_lists, record_lists, st.booleans())
def test_plan_invariants(frag_records: list[Any], draft: list[Any], connected: bool) -> None:
    frag = fragment(*frag_records)
    result = plan(frag, draft, connected=("env_a",) if connected else ())
    draft_ids = {r.context_id for r in draft}
    added_ids = [r.context_id for r in result.records_to_add]
    assert set(result.id_map) == {r.context_id for r in frag_records}
    assert len(set(added_ids)) == len(added_ids) and not draft_ids & set(added_ids)
    assert set(result.id_map.values()) <= draft_ids | set(added_ids)
    binaries = [r.context_id for r in result.records_to_add if r.kind == "image"]
    assert sorted(result.pending_ids + result.unresolved_ids) == sorted(binaries)
    assert (result.unresolved_ids == ()) or not connected
    assert (result.binary_fetches == ()) or connected
    again = plan(frag, draft + list(result.records_to_add), connected=())
    assert [r for r in again.records_to_add if r.kind != "image"] == []
