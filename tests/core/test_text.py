"""UTF-16 lengths, the WS set and compact JSON as a JavaScript peer sees them."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.text import (
    WS,
    collapse_whitespace,
    compact_json,
    cut_utf16,
    is_blank,
    trim,
    trim_end,
    utf16_len,
)


def test_utf16_len_counts_astral_characters_twice() -> None:
    assert utf16_len("") == 0
    assert utf16_len("abc") == 3
    assert utf16_len("😀") == 2
    assert utf16_len("𐐀a") == 3
    assert utf16_len("\ud800") == 1


@given(st.text())
def test_utf16_len_matches_the_utf16_encoding(s: str) -> None:
    assert utf16_len(s) == len(s.encode("utf-16-le", "surrogatepass")) // 2


@given(st.text(), st.integers(min_value=0, max_value=40))
def test_cut_never_splits_a_pair_and_keeps_the_longest_prefix(s: str, n: int) -> None:
    cut = cut_utf16(s, n)
    assert s.startswith(cut)
    assert utf16_len(cut) <= n
    if cut != s:
        assert utf16_len(s[: len(cut) + 1]) > n


def test_ws_is_the_javascript_set() -> None:
    assert "\u0085" not in WS  # NEL is \s in Python, not WS in JavaScript
    assert "\u1680" in WS and "\ufeff" in WS and "\u200b" not in WS
    assert trim("\ufeff a \u3000") == "a"
    assert trim("\u0085a") == "\u0085a"
    assert trim_end(" a \n") == " a"
    assert collapse_whitespace("a \t\n b\u00a0\u00a0c") == "a b c"
    assert is_blank(" \u2028 ") and not is_blank(" x ")


def test_compact_json_escapes_lone_surrogates_and_keeps_unicode() -> None:
    assert compact_json({"a": [1, "é"]}) == '{"a":[1,"é"]}'
    assert compact_json("\ud800x") == '"\\ud800x"'
    assert compact_json("\x00") == '"\\u0000"'
    assert json.loads(compact_json("\udfff")) == "\udfff"
