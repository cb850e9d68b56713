"""The pre-parse depth check agrees with the real nesting of any JSON document."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from composer_app.core.json_depth import JsonTooDeep, check_json_depth, within_depth

_TRICKY_TEXT = st.text(alphabet=st.sampled_from('[]{}"\\ax\u00e9\U0001f600'), max_size=12)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | _TRICKY_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TRICKY_TEXT, inner, max_size=3),
    max_leaves=30)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=300)
@given(_VALUES, st.integers(min_value=0, max_value=8), st.booleans())
def test_within_depth_matches_the_parsed_depth(value: Any, limit: int, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert within_depth(text, limit) == (_depth(value) <= limit)
    assert within_depth(text.encode("utf-8"), limit) == (_depth(value) <= limit)


def test_very_deep_documents_are_refused_quickly() -> None:
    assert not within_depth("[" * 100_000, 64)
    assert not within_depth("[" * 100_000 + "]" * 100_000, 64)
    with pytest.raises(JsonTooDeep):
        check_json_depth(b'{"a":' * 1_000 + b"1" + b"}" * 1_000, 64)
    check_json_depth(b"{}" * 1_000_000, 1)  # wide is fine
