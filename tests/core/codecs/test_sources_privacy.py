"""Display safety of source values (docs/sources.md §5.2)."""

from __future__ import annotations

from typing import Any

import pytest

from composer_app.core.codecs.sources import display_safe_value, is_display_safe, is_placeholder

PLACEHOLDERS = [
    "",
    "   ",
    "unknown",
    "UNKNOWN",
    " Unknown ",
    "#unknown",
    "@unknown",
    "(unknown)",
    "Unknown Channel",
    "unknown user",
    "undefined",
    "null",
    "None",
    "n/a",
    "N/A",
    "\u3000unknown\u00a0",
]

OPAQUE = [
    "6f1c2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
    "6F1C2D3E-4A5B-6C7D-8E9F-0A1B2C3D4E5F",
    "C024BE7LH",
    "U0123ABCD9",
    "W0123ABCDE",
    "B12345678",
    "123456",
    "  98765432101  ",
    "AAMkAGI2TG93AAA1234567",
    "1AbCdEfGhIjKlMnOpQrStUvWxYz0123",
    "0f8e1d2c3b4a59687766554433221100aabbccdd",
    "CgAyMDI2LTEwLTAzVDA5OjEyOjAwWg",
]

SAFE = [
    "Dana Reyes",
    "#finance",
    "Direct message",
    "alice@example.com",
    "alice.smith1990@example.com",
    "2026-10-03T09:12:00Z",
    "2026-10-03T09:12:00.123456+02:00",
    "2026-10-03",
    "CONFIDENTIAL",
    "DEPARTMENTAL",
    "Q3 budget plan.xlsx",
    "12345",
    "PROJ-1234",
    "unknown territory",
    "Finance / Planning / 2026 budget review v2 draft",
    "C0123",
    "not unknown",
]


@pytest.mark.parametrize("value", PLACEHOLDERS)
def test_placeholders_are_not_display_safe(value: str) -> None:
    assert is_placeholder(value)
    assert not is_display_safe(value)


@pytest.mark.parametrize("value", OPAQUE)
def test_opaque_identifiers_are_not_display_safe(value: str) -> None:
    assert not is_placeholder(value)
    assert not is_display_safe(value)


@pytest.mark.parametrize("value", SAFE)
def test_meaningful_values_are_display_safe(value: str) -> None:
    assert is_display_safe(value)


def test_a_value_equal_to_a_private_id_is_not_display_safe() -> None:
    assert is_display_safe("finance-team")
    assert not is_display_safe("finance-team", ["conn_1", "finance-team"])
    assert not is_display_safe("  finance-team ", [" finance-team"])
    assert is_display_safe("finance-team", ["Finance-Team"])
    assert is_display_safe("finance-team", [""])


def test_the_slack_pattern_needs_a_digit_and_whole_value_match() -> None:
    assert is_display_safe("CONFIDENTIALLY")
    assert not is_display_safe("CONFIDENTIAL1")
    assert is_display_safe("Channel C024BE7LH")  # not the whole value, and short of 20 chars


@pytest.mark.parametrize(
    ("value", "safe"),
    [(0, True), (3.5, True), (True, True), (False, True), (None, False), ({"a": 1}, False)],
)
def test_non_string_values(value: Any, safe: bool) -> None:
    assert is_display_safe(value) is safe


def test_lists_keep_only_their_safe_items() -> None:
    assert is_display_safe(["Dana Reyes", "unknown"])
    assert not is_display_safe(["unknown", "U0123ABCD9"])
    assert not is_display_safe([])
    assert display_safe_value(["Dana", "unknown", "Lee", "123456789"]) == ["Dana", "Lee"]
    assert display_safe_value(["unknown"]) is None
    assert display_safe_value("Dana", ["Dana"]) is None
    assert display_safe_value(7) == 7
