"""Context ids from producer ids (docs/contract.md §8)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.ids import (
    hash16,
    producer_id_from_context_id,
    to_context_id,
    to_kind_scoped_context_id,
)
from tests.support.vectors import load, run

CONTEXT_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")


@pytest.mark.parametrize("vector", load("ids.json"))
def test_ids_vector(vector: dict) -> None:
    run(vector)


@pytest.mark.parametrize(
    ("producer_id", "expected"),
    [
        ("::", "ctx-980630f591da3738"),
        ("pull-request-finding:42", "pull-request-finding-42-bc35b97a14ae7309"),
        ("file-comment-1700-1", "file-comment-1700-1"),
        ("x" * 128, "x" * 128),
    ],
)
def test_worked_values(producer_id: str, expected: str) -> None:
    assert to_context_id(producer_id) == expected


def _fnv1a_reference(units: list[int], basis: int) -> int:
    h = basis
    for unit in units:
        h ^= unit
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def _units(s: str) -> list[int]:
    data = s.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def test_fnv_sanity() -> None:
    assert f"{_fnv1a_reference([ord('a')], 0x811C9DC5):08x}" == "e40c292c"
    assert hash16("a")[:8] == "e40c292c"


@pytest.mark.parametrize("producer_id", ["", "a", "😀", "\ud800x", "é:ü", "a b\udfff"])
def test_hash16_over_utf16_units(producer_id: str) -> None:
    units = _units(producer_id)
    expected = (
        f"{_fnv1a_reference(units, 0x811C9DC5):08x}{_fnv1a_reference(units[::-1], 0x9DC5811C):08x}"
    )
    assert hash16(producer_id) == expected


def test_astral_and_surrogate_pair_agree() -> None:
    # a JS peer sees the same two units for an astral character and for a pair of surrogates
    assert hash16("😀") == hash16("\ud83d\ude00")


@pytest.mark.parametrize(
    ("producer_id", "slug"),
    [
        ("", "ctx"),
        (" ctx_1 ", "ctx_1"),  # no trimming: folded, not kept
        ("a::b//c", "a-b-c"),
        ("--a--", "--a--"),  # already valid: unchanged
        ("-:a:-", "a"),
        ("é", "ctx"),
        ("x" * 129, "x" * 48),
        ("ab:" + "c" * 60, ("ab-" + "c" * 60)[:48]),
        ("K\u212a", "K"),  # the Kelvin sign is not an ASCII letter
    ],
)
def test_slug(producer_id: str, slug: str) -> None:
    result = to_context_id(producer_id)
    if CONTEXT_ID.fullmatch(producer_id):
        assert result == producer_id
    else:
        assert result == f"{slug}-{hash16(producer_id)}"


def test_long_ids_sharing_a_prefix_differ() -> None:
    a, b = "p:" + "x" * 200 + "1", "p:" + "x" * 200 + "2"
    assert to_context_id(a) != to_context_id(b)
    assert to_context_id(a)[:49] == to_context_id(b)[:49]


def test_kind_scoped() -> None:
    assert to_kind_scoped_context_id("image", "x") == "image_x"
    assert to_kind_scoped_context_id("image", "image_x") == "image_image_x"
    assert to_kind_scoped_context_id("review-comment", "pull-request-finding:42") == (
        to_context_id("review-comment_pull-request-finding:42")
    )


def test_producer_id_from_context_id() -> None:
    assert producer_id_from_context_id("image", "image_x") == "x"
    assert producer_id_from_context_id("image", "image_image_x") == "image_x"  # one prefix only
    assert producer_id_from_context_id("image", "file_x") == "file_x"
    assert producer_id_from_context_id("image", "imagex") == "imagex"


@given(st.text())
def test_to_context_id_always_valid(producer_id: str) -> None:
    result = to_context_id(producer_id)
    assert CONTEXT_ID.fullmatch(result)
    assert to_context_id(result) == result
    if not CONTEXT_ID.fullmatch(producer_id):
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,48}-[0-9a-f]{16}", result)


@given(st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True), st.text(max_size=20))
def test_scoped_round_trip_for_valid_ids(kind: str, producer_id: str) -> None:
    scoped = to_kind_scoped_context_id(kind, producer_id)
    if CONTEXT_ID.fullmatch(kind + "_" + producer_id):
        assert producer_id_from_context_id(kind, scoped) == producer_id
