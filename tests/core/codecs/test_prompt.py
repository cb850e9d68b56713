"""Prompt editing (docs/contract.md §5)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.prompt import (
    PromptEdit,
    append_inline_context_reference,
    collect_inline_context_ids,
    ensure_inline_context_references,
    insert_inline_context_reference,
    remove_inline_context_references,
    strip_inline_context_references,
)
from composer_app.core.codecs.references import collect_references
from tests.support.vectors import load, run

PROMPT_FNS = {
    "collect_inline_context_ids",
    "strip_inline_context_references",
    "insert_inline_context_reference",
    "append_inline_context_reference",
    "remove_inline_context_references",
    "ensure_inline_context_references",
}


@pytest.mark.parametrize(
    "vector", [v for v in load("references.json") if v.values[0]["fn"] in PROMPT_FNS]
)
def test_prompt_vector(vector: dict) -> None:
    run(vector)


@dataclass(frozen=True)
class Rec:
    kind: str
    context_id: str
    label: str


A = Rec("file", "f1", "a.md")
B = Rec("image", "i1", "b.png")
LA = "[a.md](t3-context://v1/file/f1)"
LB = "![b.png](t3-context://v1/image/i1)"


def test_prompt_edit_shape() -> None:
    edit = PromptEdit("x", 1)
    assert edit._fields == ("prompt", "cursor")
    assert edit == ("x", 1)


@pytest.mark.parametrize(
    ("prompt", "cursor", "expected"),
    [
        ("ab", 1, PromptEdit(f"a {LA} b", 2 + len(LA) + 1)),
        ("", 0, PromptEdit(f"{LA} ", len(LA) + 1)),
        ("a ", 2, PromptEdit(f"a {LA} ", 2 + len(LA) + 1)),
        ("a b", 1, PromptEdit(f"a {LA} b", 2 + len(LA))),  # after starts with WS: no extra space
        ("a\nb", 1, PromptEdit(f"a {LA}\nb", 2 + len(LA))),
        ("a\u3000b", 2, PromptEdit(f"a\u3000{LA} b", 2 + len(LA) + 1)),  # JS WS before
        ("ab", 0, PromptEdit(f"{LA} ab", len(LA) + 1)),
        ("ab", 2, PromptEdit(f"ab {LA} ", 3 + len(LA) + 1)),
        ("ab", 99, PromptEdit(f"ab {LA} ", 3 + len(LA) + 1)),  # clamped
        ("😀b", 1, PromptEdit(f"😀 {LA} b", 2 + len(LA) + 1)),  # Python str indices
    ],
)
def test_insert(prompt: str, cursor: int, expected: PromptEdit) -> None:
    assert insert_inline_context_reference(prompt, cursor, A) == expected


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("", f"{LA} "),
        ("hi", f"hi {LA} "),
        ("hi ", f"hi {LA} "),
        ("hi\n", f"hi\n{LA} "),
        ("hi\u00a0", f"hi\u00a0{LA} "),
    ],
)
def test_append(prompt: str, expected: str) -> None:
    assert append_inline_context_reference(prompt, A) == expected


def test_collect_and_strip() -> None:
    text = f"{LB} x {LA} y {LB}"
    assert collect_inline_context_ids(text) == ["i1", "f1"]
    assert strip_inline_context_references(text) == " x  y "
    assert strip_inline_context_references("plain") == "plain"
    assert collect_inline_context_ids("plain") == []


@pytest.mark.parametrize(
    ("prompt", "context_id", "expected"),
    [
        (f"x {LA} y {LA}", "f1", PromptEdit("x y ", 2)),
        (f"x {LA}  y", "f1", PromptEdit("x  y", 2)),  # only one following space
        (f"x {LA}\ny", "f1", PromptEdit("x \ny", 2)),  # only U+0020
        (f"{LB} {LA} {LB}", "i1", PromptEdit(f"{LA} ", 0)),
        (f"{LA}", "zz", PromptEdit(LA, len(LA))),
        ("", "f1", PromptEdit("", 0)),
    ],
)
def test_remove(prompt: str, context_id: str, expected: PromptEdit) -> None:
    assert remove_inline_context_references(prompt, context_id) == expected


def test_ensure() -> None:
    assert ensure_inline_context_references(f"see {LA}", [A, B]) == f"see {LA} {LB} "
    assert ensure_inline_context_references(f"{LA}", [A]) == LA
    assert ensure_inline_context_references("", [A, A]) == f"{LA} "
    assert ensure_inline_context_references("x", []) == "x"


RECORDS = st.builds(
    Rec,
    st.sampled_from(["file", "image", "skill"]),
    st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True),
    st.text(max_size=12),
)


@given(st.text(max_size=40), st.integers(-5, 50), RECORDS)
def test_insert_then_remove(prompt: str, cursor: int, record: Rec) -> None:
    edit = insert_inline_context_reference(prompt, cursor, record)
    assert 0 <= edit.cursor <= len(edit.prompt)
    assert record.context_id in collect_inline_context_ids(edit.prompt)


@given(st.text(max_size=40), st.lists(RECORDS, max_size=4))
def test_ensure_references_every_record(prompt: str, records: list[Rec]) -> None:
    result = ensure_inline_context_references(prompt, records)
    assert result.startswith(prompt)
    ids = collect_inline_context_ids(result)
    assert all(record.context_id in ids for record in records)
    assert ensure_inline_context_references(result, records) == result


@given(st.text(max_size=60))
def test_strip_removes_all(text: str) -> None:
    stripped = strip_inline_context_references(text)
    assert len(stripped) == len(text) - sum(len(r.source) for r in collect_references(text))
