"""Clipboard codecs: fragment JSON, the HTML carrier, and selection copies (docs/contract.md §9)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from composer_app.core.codecs.clipboard import (
    decode_clipboard_html,
    decode_fragment,
    encode_clipboard_html,
    encode_fragment,
    fits_utf16,
    percent_decode,
    percent_encode,
    selected_fragment,
)
from composer_app.core.codecs.references import format_reference
from composer_app.core.contracts.clipboard import ClipboardFragment, FragmentSource
from composer_app.core.contracts.records import KNOWN_KINDS, decode_record, encode_record
from composer_app.core.errors import ContractError
from composer_app.core.limits import MAX_CLIPBOARD_HTML_CHARS, MAX_FRAGMENT_JSON_CHARS
from composer_app.core.text import compact_json, trim, utf16_len
from tests.support.vectors import load, run

SOURCE = {"environmentId": "env_local", "threadId": "thr_1", "messageId": "msg_1"}


def skill(context_id: str = "ctx_s", name: str = "pinchtab") -> dict[str, Any]:
    return {
        "version": 1,
        "contextId": context_id,
        "kind": "skill",
        "label": "$" + name,
        "name": name,
    }


def terminal(context_id: str = "ctx_t", text: str = "ls\nok") -> dict[str, Any]:
    return {
        "version": 1,
        "contextId": context_id,
        "kind": "terminal",
        "label": "Terminal 1",
        "terminalId": "term-1",
        "terminalLabel": "Terminal 1",
        "lineStart": 1,
        "lineEnd": 2,
        "text": text,
    }


def image(context_id: str = "ctx_i") -> dict[str, Any]:
    return {
        "version": 1,
        "contextId": context_id,
        "kind": "image",
        "label": "shot.png",
        "attachmentId": "att_1",
        "name": "shot.png",
        "mimeType": "image/png",
        "sizeBytes": 12,
    }


def wire(records: list[Any] | None = None, **over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "version": 1,
        "source": dict(SOURCE),
        "records": [skill()] if records is None else records,
    }
    base.update(over)
    return base


def raw(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def fragment_of(records: list[dict[str, Any]], **source: str) -> ClipboardFragment:
    return ClipboardFragment(
        source=FragmentSource.model_validate(source or SOURCE),
        records=[decode_record(record) for record in records],
    )


@pytest.mark.parametrize(
    "vector", [v for v in load("clipboard.json") if v.values[0]["fn"] != "constant"]
)
def test_clipboard_vectors(vector: dict[str, Any]) -> None:
    run(vector)


# ------------------------------------------------------------------------------------------------
# decode_fragment


def test_decodes_a_valid_fragment_from_str_and_bytes() -> None:
    text = raw(wire([skill(), terminal()]))
    for data in (text, text.encode("utf-8")):
        fragment = decode_fragment(data)
        assert fragment is not None
        assert fragment.to_wire() == wire([skill(), terminal()])


@pytest.mark.parametrize(
    "data",
    [
        None,
        b"\xff\xfe{}",
        b'{"version":1,"source":{"environmentId":"\xc3"},"records":[]}',
        b'{"version":1,"source":{"environmentId":"\xed\xa0\x80"},"records":[]}',
        "",
        "not json",
        '{"version":1,',
        "[]",
        "1",
        '"fragment"',
        "null",
        "[" * 100_000 + "]" * 100_000,
        '{"version":' + "1" * 5000 + "}",
    ],
    ids=[
        "none",
        "bytes_not_utf8",
        "truncated_utf8",
        "encoded_surrogate",
        "empty",
        "not_json",
        "truncated_json",
        "array",
        "number",
        "string",
        "null",
        "nesting_too_deep",
        "integer_too_long",
    ],
)
def test_untrusted_data_that_is_not_a_fragment_gives_none(data: str | bytes | None) -> None:
    assert decode_fragment(data) is None


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(constant: str) -> None:
    assert decode_fragment(raw(wire())[:-1] + ',"x":' + constant + "}") is None
    assert decode_fragment(raw(wire()).replace('"version":1', '"version":' + constant)) is None


@pytest.mark.parametrize("version", [2, 0, "1", True, 1.5, None, [1]])
def test_version_must_be_integer_one(version: object) -> None:
    assert decode_fragment(raw(wire(version=version))) is None


def test_missing_version_gives_none() -> None:
    data = wire()
    del data["version"]
    assert decode_fragment(raw(data)) is None


def test_version_one_point_zero_is_one() -> None:
    fragment = decode_fragment(
        raw(wire()).replace('"version":1,"source"', '"version":1.0,"source"')
    )
    assert fragment is not None and fragment.version == 1


@pytest.mark.parametrize(
    "source",
    [
        None,
        "env",
        ["env"],
        {},
        {"environmentId": ""},
        {"environmentId": "  \u00a0"},
        {"environmentId": None},
        {"environmentId": 1},
        {"environment_id": "env"},
        {"environmentId": "env", "threadId": None},
        {"environmentId": "env", "threadId": ""},
        {"environmentId": "env", "threadId": 5},
        {"environmentId": "env", "messageId": None},
        {"environmentId": "env", "messageId": "\n"},
        {"environmentId": "env", "messageId": False},
    ],
)
def test_invalid_source_gives_none(source: object) -> None:
    assert decode_fragment(raw(wire(source=source))) is None


def test_missing_source_gives_none() -> None:
    data = wire()
    del data["source"]
    assert decode_fragment(raw(data)) is None


def test_source_ids_are_trimmed_and_optional_ids_may_be_absent() -> None:
    fragment = decode_fragment(raw(wire(source={"environmentId": " env ", "threadId": "\tthr"})))
    assert fragment is not None
    assert fragment.source.to_wire() == {"environmentId": "env", "threadId": "thr"}


@pytest.mark.parametrize("records", [None, {}, "[]", 3])
def test_records_must_be_a_list(records: object) -> None:
    data = wire()
    data["records"] = records
    assert decode_fragment(raw(data)) is None


def test_missing_records_gives_none() -> None:
    data = wire()
    del data["records"]
    assert decode_fragment(raw(data)) is None


def test_at_most_200_records_even_empty_ones() -> None:
    assert decode_fragment(raw(wire(records=[{}] * 201))) is None
    fragment = decode_fragment(raw(wire(records=[{}] * 199 + [skill()])))
    assert fragment is not None and [r.context_id for r in fragment.records] == ["ctx_s"]


def test_undecodable_records_are_dropped_and_siblings_kept() -> None:
    broken_image = {"version": 1, "contextId": "ctx-2", "kind": "image", "label": "x"}
    data = wire([skill("ctx-1"), broken_image, "record", None, terminal("ctx-3")])
    fragment = decode_fragment(raw(data))
    assert fragment is not None
    assert [r.context_id for r in fragment.records] == ["ctx-1", "ctx-3"]
    assert fragment.source.thread_id == "thr_1"


def test_repeated_context_ids_after_trimming_keep_the_first() -> None:
    data = wire([skill(" ctx_1 ", "first"), skill("ctx_1", "second"), terminal("ctx_2")])
    fragment = decode_fragment(raw(data))
    assert fragment is not None
    assert [(r.context_id, r.kind) for r in fragment.records] == [
        ("ctx_1", "skill"),
        ("ctx_2", "terminal"),
    ]
    assert encode_record(fragment.records[0])["name"] == "first"


def test_unknown_keys_are_ignored() -> None:
    data = wire(extra={"a": 1})
    data["source"]["workspace"] = "w"
    fragment = decode_fragment(raw(data))
    assert fragment is not None and fragment.to_wire() == wire()


def test_unknown_kinds_survive_with_their_payload() -> None:
    unknown = {"version": 1, "contextId": "ctx_u", "kind": "sticker", "label": "s", "payload": None}
    fragment = decode_fragment(raw(wire([unknown])))
    assert fragment is not None and fragment.to_wire()["records"] == [unknown]


def _padded(units: int) -> str:
    text = raw(wire())
    return text[:-1] + " " * (units - utf16_len(text)) + "}"


def test_size_limit_is_16_000_000_utf16_units_of_str() -> None:
    at_limit = _padded(MAX_FRAGMENT_JSON_CHARS)
    assert len(at_limit) == MAX_FRAGMENT_JSON_CHARS
    assert decode_fragment(at_limit) is not None
    assert decode_fragment(at_limit + " ") is None


def test_size_limit_counts_astral_characters_twice() -> None:
    text = raw(wire(records=[terminal(text="😀" * 30_000)]))
    filler = MAX_FRAGMENT_JSON_CHARS - utf16_len(text)
    at_limit = text[:-1] + " " * filler + "}"
    assert utf16_len(at_limit) == MAX_FRAGMENT_JSON_CHARS
    assert decode_fragment(at_limit) is not None
    over = text[:-1] + " " * (filler + 1) + "}"
    assert len(over) < MAX_FRAGMENT_JSON_CHARS < utf16_len(over)
    assert decode_fragment(over) is None
    assert decode_fragment(over.encode("utf-8")) is None


def test_size_limit_applies_to_bytes_after_decoding() -> None:
    at_limit = _padded(MAX_FRAGMENT_JSON_CHARS).replace('"label":"$pinchtab"', '"label":"é¢"')
    at_limit = at_limit[:-1] + " " * (MAX_FRAGMENT_JSON_CHARS - len(at_limit)) + "}"
    data = at_limit.encode("utf-8")
    assert len(data) > MAX_FRAGMENT_JSON_CHARS
    assert decode_fragment(data) is not None
    assert decode_fragment(data[:-1] + b" }") is None


# ------------------------------------------------------------------------------------------------
# encode_fragment


def test_encode_writes_compact_json_in_key_order() -> None:
    fragment = fragment_of([skill()], environmentId="env")
    encoded = encode_fragment(fragment)
    assert encoded == (
        '{"version":1,"source":{"environmentId":"env"},"records":'
        '[{"version":1,"contextId":"ctx_s","kind":"skill","label":"$pinchtab","name":"pinchtab"}]}'
    )


def test_escapes_count_toward_the_limit() -> None:
    records = [terminal(f"ctx_{i}", "\x00" * 64_000) for i in range(200)]
    assert encode_fragment(fragment_of(records)) is None


def test_32_large_terminal_records_encode_and_round_trip() -> None:
    fragment = fragment_of([terminal(f"ctx_{i}", "x" * 64_000) for i in range(32)])
    encoded = encode_fragment(fragment)
    assert encoded is not None and len(encoded) > 2_000_000
    assert decode_fragment(encoded) == fragment


def _records_of_encoded_length(length: int) -> ClipboardFragment:
    """200 terminal records whose fragment JSON is exactly ``length`` units (quotes add one)."""
    base = fragment_of([terminal(f"ctx_{i}", "x" * 64_000) for i in range(200)])
    extra = length - utf16_len(encode_fragment(base) or "")
    per_record, rest = divmod(extra, 200)
    records = [
        terminal(
            f"ctx_{i}", '"' * (per_record + (i < rest)) + "x" * (64_000 - per_record - (i < rest))
        )
        for i in range(200)
    ]
    return fragment_of(records)


def test_encode_limit_is_inclusive() -> None:
    at_limit = encode_fragment(_records_of_encoded_length(MAX_FRAGMENT_JSON_CHARS))
    assert at_limit is not None and len(at_limit) == MAX_FRAGMENT_JSON_CHARS
    assert encode_fragment(_records_of_encoded_length(MAX_FRAGMENT_JSON_CHARS + 1)) is None


def test_encode_limit_counts_utf16_units() -> None:
    records = [terminal(f"ctx_{i}", "😀" * 20_000 + '"' * 24_000) for i in range(200)]
    fragment = fragment_of(records)
    assert len(compact_json(fragment.to_wire())) < MAX_FRAGMENT_JSON_CHARS
    assert encode_fragment(fragment) is None


# ------------------------------------------------------------------------------------------------
# HTML carrier


def test_carrier_escapes_single_quote_and_keeps_uri_component_set() -> None:
    assert percent_encode("a'b") == "a%27b"
    assert percent_encode("AZaz09-_.!~*()") == "AZaz09-_.!~*()"
    assert percent_encode(' "<>&%/é😀') == "%20%22%3C%3E%26%25%2F%C3%A9%F0%9F%98%80"


@given(st.text())
def test_percent_encoding_matches_encode_uri_component_plus_quote(value: str) -> None:
    assert percent_encode(value) == quote(value, safe="!~*()")
    assert percent_decode(percent_encode(value)) == value


def reference_percent_decode(value: str) -> str | None:
    """``decodeURIComponent`` written the slow, obvious way."""
    if re.search(r"%(?![0-9A-Fa-f]{2})", value):
        return None
    try:
        return unquote(value, errors="strict")
    except UnicodeDecodeError:
        return None


@given(st.text(alphabet="%0123456789abcdefABCDEFx\\u'\"é😀", max_size=30))
def test_percent_decoding_matches_decode_uri_component(value: str) -> None:
    assert percent_decode(value) == reference_percent_decode(value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a%5Cb\\c", "a\\b\\c"),
        ("%5Cx41", "\\x41"),
        ("\\x41%41", "\\x41A"),
        ("%C3%A9%F0%9F%98%80", "é😀"),
        ("é%20😀", "é 😀"),
        ("%e9", None),
        ("é%e9", None),
    ],
)
def test_percent_decoding_keeps_backslashes_and_checks_utf8(
    value: str, expected: str | None
) -> None:
    assert percent_decode(value) == expected


def test_lone_surrogate_cannot_be_percent_encoded() -> None:
    with pytest.raises(ContractError):
        encode_clipboard_html("x", '{"a":"\ud800"}')


def test_carrier_without_rich_html_wraps_escaped_text_in_pre() -> None:
    html = encode_clipboard_html("a<b> & \"c\" 'd'", "{}", "")
    assert html == '<pre data-t3-context-fragment="%7B%7D">a&lt;b&gt; &amp; "c" \'d\'</pre>'


def test_carrier_with_rich_html_wraps_it_in_div() -> None:
    html = encode_clipboard_html("plain", "{}", "<b>rich</b>")
    assert html == '<div data-t3-context-fragment="%7B%7D"><b>rich</b></div>'


TRICKY = "quote \" apostrophe ' <tag> & café 漢字 😀 %41 \\ \u2028"


def test_carrier_round_trips_tricky_text() -> None:
    fragment = fragment_of(
        [skill("ctx_1", TRICKY), terminal("ctx_2", TRICKY)],
        environmentId=TRICKY,
        threadId="'thr'",
        messageId='"msg"',
    )
    encoded = encode_fragment(fragment)
    assert encoded is not None
    for rich in (None, "", f"<p title='{TRICKY}'>{TRICKY}</p>"):
        assert decode_clipboard_html(encode_clipboard_html(TRICKY, encoded, rich)) == fragment


def _carrier(value: str, *, before: str = "<p ", eq: str = "=", quote_char: str = '"') -> str:
    return f"{before}data-t3-context-fragment{eq}{quote_char}{value}{quote_char}>x</p>"


ENCODED = percent_encode(raw(wire()))


@pytest.mark.parametrize(
    "html",
    [
        _carrier(ENCODED),
        _carrier(ENCODED, quote_char="'"),
        _carrier(ENCODED, eq=" = "),
        _carrier(ENCODED, eq="\t=\n"),
        _carrier(ENCODED, eq="\u00a0=\u3000"),
        _carrier(ENCODED, before="<p\n"),
        _carrier(ENCODED, before="<p\u2028"),
        _carrier("", before="<p ") + _carrier(ENCODED),
        _carrier("", quote_char="'") + _carrier(ENCODED),
        '<p xdata-t3-context-fragment="%7B%7D"></p>' + _carrier(ENCODED),
    ],
)
def test_carrier_attribute_is_found(html: str) -> None:
    fragment = decode_clipboard_html(html)
    assert fragment is not None and fragment.to_wire() == wire()


def test_carrier_value_is_read_whole_though_it_contains_the_other_quote() -> None:
    value = percent_encode(raw(wire([skill("ctx_1", "it's")])))
    assert "'" not in value
    assert decode_clipboard_html(_carrier(value, quote_char="'")) is not None
    raw_quote = value.replace("%27", "'")
    fragment = decode_clipboard_html(_carrier(raw_quote))
    assert fragment is not None and encode_record(fragment.records[0])["name"] == "it's"


@pytest.mark.parametrize(
    "html",
    [
        None,
        "",
        "<p>no carrier</p>",
        'data-t3-context-fragment="' + ENCODED + '"',
        _carrier(ENCODED, before="<p x"),
        _carrier(ENCODED, before="<p\u200b"),
        f'<p DATA-T3-CONTEXT-FRAGMENT="{ENCODED}">x</p>',
        f"<p data-t3-context-fragment={ENCODED}>x</p>",
        f"<p data-t3-context-fragment>{ENCODED}</p>",
        _carrier(""),
        _carrier(ENCODED + "%ZZ"),
        _carrier(ENCODED + "%4"),
        _carrier(ENCODED + "%"),
        _carrier("%FF"),
        _carrier("%C3"),
        _carrier("%C0%AF"),
        _carrier("%ED%A0%80"),
        _carrier(percent_encode(raw(wire()).replace('"version":1', '"version":NaN'))),
        _carrier(percent_encode(raw(wire(version=2)))),
        _carrier("%7B%7D"),
        _carrier("%7B%7D") + _carrier(ENCODED),
    ],
    ids=[
        "none",
        "empty",
        "no_attribute",
        "no_leading_whitespace_at_start",
        "preceded_by_letter",
        "preceded_by_zero_width_space",
        "upper_case_name",
        "unquoted_value",
        "no_value",
        "only_empty_value",
        "bad_escape",
        "short_escape",
        "trailing_percent",
        "invalid_utf8",
        "truncated_utf8",
        "overlong_utf8",
        "encoded_surrogate",
        "nan",
        "invalid_fragment",
        "empty_object",
        "first_non_empty_value_counts",
    ],
)
def test_carrier_none_cases(html: str | None) -> None:
    assert decode_clipboard_html(html) is None


def test_carrier_html_is_limited_to_64_000_000_units() -> None:
    carrier = _carrier(ENCODED)
    at_limit = carrier + "x" * (MAX_CLIPBOARD_HTML_CHARS - len(carrier))
    assert decode_clipboard_html(at_limit) is not None
    assert decode_clipboard_html(at_limit + "x") is None


@pytest.mark.parametrize(
    ("text", "max_units", "fits"),
    [
        ("", 0, True),
        ("abcd", 4, True),
        ("abcde", 4, False),
        ("😀😀", 4, True),
        ("😀😀x", 4, False),
        ("é😀", 3, True),
        ("éé😀", 3, False),
        ("\ud800x", 2, True),
    ],
)
def test_fits_utf16_counts_astral_characters_twice(text: str, max_units: int, fits: bool) -> None:
    assert fits_utf16(text, max_units) is fits


# ------------------------------------------------------------------------------------------------
# selected_fragment


def test_selection_carries_only_referenced_records_in_first_reference_order() -> None:
    records = [decode_record(r) for r in (image("ctx_i"), skill("ctx_s"), terminal("ctx_t"))]
    source = FragmentSource(environment_id="env", thread_id="thr")
    markdown = (
        f"see {format_reference('terminal', 'ctx_t', 'T')} and "
        f"{format_reference('skill', 'ctx_s', 'S')} again "
        f"{format_reference('terminal', 'ctx_t', 'T')}"
        f" {format_reference('mention', 'ctx_missing', 'gone')}"
    )
    for held in (records, {r.context_id: r for r in records}):
        fragment = selected_fragment(markdown, held, source)
        assert fragment is not None
        assert [r.context_id for r in fragment.records] == ["ctx_t", "ctx_s"]
        assert fragment.source == source


def test_prose_next_to_an_image_does_not_carry_it() -> None:
    records = [decode_record(image("ctx_i"))]
    source = FragmentSource(environment_id="env")
    assert selected_fragment("just prose", records, source) is None
    assert selected_fragment(format_reference("image", "ctx_x", "x"), records, source) is None
    fragment = selected_fragment(format_reference("image", "ctx_i", "i"), records, source)
    assert fragment is not None and fragment.records == records


def test_selection_is_bounded_by_the_record_limit() -> None:
    records = [decode_record(skill(f"ctx_{i}")) for i in range(201)]
    markdown = " ".join(format_reference("skill", f"ctx_{i}", "s") for i in range(201))
    fragment = selected_fragment(markdown, records, FragmentSource(environment_id="env"))
    assert fragment is not None and len(fragment.records) == 200


# ------------------------------------------------------------------------------------------------
# Properties

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
any_text = st.text(st.characters(exclude_categories=()), max_size=40)
trimmed = any_text.map(trim).filter(bool)
ids = st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True)

skill_records = st.builds(
    lambda cid, label, name: {
        "version": 1,
        "contextId": cid,
        "kind": "skill",
        "label": label,
        "name": name,
    },
    ids,
    any_text,
    trimmed,
)
terminal_records = st.builds(
    lambda cid, text, start, span: {
        **terminal(cid, text),
        "lineStart": start,
        "lineEnd": start + span,
    },
    ids,
    any_text,
    st.integers(0, 2**53 - 10),
    st.integers(0, 5),
)
unknown_records = st.builds(
    lambda cid, kind, payload: {
        "version": 1,
        "contextId": cid,
        "kind": kind,
        "label": "u",
        "payload": payload,
    },
    ids,
    st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True).filter(
        lambda kind: kind not in KNOWN_KINDS
    ),
    json_values,
)
image_records = st.builds(lambda cid: image(cid), ids)
record_wires = st.one_of(skill_records, terminal_records, unknown_records, image_records)
sources = st.fixed_dictionaries(
    {"environmentId": trimmed}, optional={"threadId": trimmed, "messageId": trimmed}
)
fragment_wires = st.builds(
    lambda source, records: {"version": 1, "source": source, "records": records},
    sources,
    st.lists(record_wires, max_size=6, unique_by=lambda r: r["contextId"]),
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(fragment_wires)
def test_generated_fragments_round_trip(data: dict[str, Any]) -> None:
    fragment = decode_fragment(compact_json(data))
    assert fragment is not None
    assert fragment.to_wire() == json.loads(compact_json(data))
    encoded = encode_fragment(fragment)
    assert encoded is not None
    assert decode_fragment(encoded) == fragment
    assert decode_fragment(encoded.encode("utf-8")) == fragment


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(fragment_wires, st.text(), st.one_of(st.none(), st.text()))
def test_generated_fragments_round_trip_through_html(
    data: dict[str, Any], text: str, rich: str | None
) -> None:
    fragment = decode_fragment(compact_json(data))
    assert fragment is not None
    encoded = encode_fragment(fragment)
    assert encoded is not None
    assert decode_clipboard_html(encode_clipboard_html(text, encoded, rich)) == fragment


@given(st.one_of(st.binary(), st.text(st.characters(exclude_categories=()))))
def test_decode_fragment_never_raises_on_arbitrary_input(data: str | bytes) -> None:
    result = decode_fragment(data)
    assert result is None or isinstance(result, ClipboardFragment)


@given(
    st.one_of(json_values, st.builds(wire, st.lists(json_values, max_size=4))),
    st.sampled_from([None, "version", "source", "records"]),
    json_values,
)
def test_decode_fragment_never_raises_on_arbitrary_json(
    value: Any, key: str | None, replacement: Any
) -> None:
    if key is not None and isinstance(value, dict):
        value[key] = replacement
    result = decode_fragment(json.dumps(value))
    assert result is None or isinstance(result, ClipboardFragment)


@given(st.text(st.characters(exclude_categories=())), st.text(alphabet="%0aFz'\" =<>"))
def test_decode_clipboard_html_never_raises(prefix: str, tail: str) -> None:
    for html in (prefix, prefix + " data-t3-context-fragment=" + tail):
        result = decode_clipboard_html(html)
        assert result is None or isinstance(result, ClipboardFragment)


def test_clipboard_bytes_beyond_any_fragment_size_are_refused_unread() -> None:
    from composer_app.core.codecs.clipboard import decode_fragment
    from composer_app.core.limits import MAX_FRAGMENT_JSON_CHARS

    assert decode_fragment(b" " * (3 * MAX_FRAGMENT_JSON_CHARS + 1)) is None
