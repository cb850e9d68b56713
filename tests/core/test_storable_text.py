"""Text every store can hold: lone surrogates and NUL are named, valid text passes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.errors import ContractError
from composer_app.core.storable_text import (
    check_storable_text,
    check_storable_value,
    text_problem,
    value_problem,
)


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00")))
def test_valid_text_passes(text: str) -> None:
    assert text_problem(text) is None
    assert value_problem({text: [text, {"k": text}]}) is None


def test_problems_are_named_with_their_position() -> None:
    assert text_problem("ab\ud800") == "contains a lone UTF-16 surrogate (U+D800) at position 2"
    assert text_problem("a\x00") == "contains a NUL character at position 1"
    with pytest.raises(ContractError, match="message contains a lone UTF-16 surrogate"):
        check_storable_text("\udfff", "message")
    with pytest.raises(ContractError, match="NUL"):
        check_storable_value({"records": [{"label": "a\x00"}]}, "message context")
    with pytest.raises(ContractError, match="surrogate"):
        check_storable_value({"\ud83d": 1}, "message context")  # keys count too
    assert value_problem([[[[["\U0001f600"]]]]]) is None  # a real emoji is fine


def test_nested_values_are_searched_through_lists_and_keys() -> None:
    assert value_problem({"a": [1, None, ("ok", {"\ud800": 2})]}) is not None
    assert value_problem({"a": [1, None, ("ok", {"b": 2.5})]}) is None
    with pytest.raises(ContractError, match="remove that character"):
        check_storable_text("x\ud800", "title")
    check_storable_text("fine", "title")
    check_storable_value(["fine"], "record")
