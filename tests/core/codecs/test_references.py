"""The reference grammar (docs/contract.md §4): vectors, rejection tables and properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from composer_app.core.codecs.references import (
    Reference,
    collect_references,
    format_href,
    format_reference,
    is_image_references_only,
    parse_href,
    replace_references,
    sanitize_label,
)
from composer_app.core.text import WS, utf16_len
from tests.support.vectors import load, run

REFERENCE_FNS = {
    "format_reference",
    "collect_references",
    "replace_references",
    "is_image_references_only",
}


@pytest.mark.parametrize("vector", load("href.json"))
def test_href_vector(vector: dict) -> None:
    run(vector)


@pytest.mark.parametrize("vector", load("labels.json"))
def test_labels_vector(vector: dict) -> None:
    run(vector)


@pytest.mark.parametrize(
    "vector", [v for v in load("references.json") if v.values[0]["fn"] in REFERENCE_FNS]
)
def test_references_vector(vector: dict) -> None:
    run(vector)


# --- parse_href


@pytest.mark.parametrize(
    "href",
    [
        "t3-context://v1/image/ctx_1?x=1",  # query
        "t3-context://v1/image/ctx_1#frag",  # fragment
        "t3-context://user@v1/image/ctx_1",  # credentials
        "t3-context://user:pw@v1/image/ctx_1",
        "t3-context://v2/image/ctx_1",  # other version
        "t3-context://v1/image/ctx_1/",  # trailing slash
        "t3-context://v1/image/ctx_1/extra",  # extra segment
        "t3-context://v1/image/ctx 1",  # space in id
        "t3-context://v1/image/ctx_1 ",  # no trimming
        " t3-context://v1/image/ctx_1",
        "t3-context://v1/image/ctx%5F1",  # no percent-decoding
        "t3-context://v1/Image/ctx_1",  # upper-case kind
        "t3-context://v1/IMAGE/ctx_1",
        "t3-context://v1/1image/ctx_1",  # kind starts with a digit
        "t3-context://v1/-image/ctx_1",
        "t3-context://v1/im_age/ctx_1",  # underscore not allowed in a kind
        "t3-context://v1/" + "a" * 41 + "/ctx_1",  # kind longer than 40
        "t3-context://v1/image/" + "x" * 129,  # id longer than 128
        "t3-context://v1/image/",  # empty id
        "t3-context://v1//ctx_1",  # empty kind
        "t3-context://v1/image",
        "t3-context://v1/",
        "T3-CONTEXT://v1/image/ctx_1",  # prefix is case-sensitive
        "t3-context://V1/image/ctx_1",
        "t3-context:/v1/image/ctx_1",
        "https://v1/image/ctx_1",  # other schemes
        "https://example.com/t3-context://v1/image/ctx_1",
        "t3-citation://v1/image/ctx_1",
        "t3-citation://v1/a/b/c",
        "t3-context://v1/image/ctx_1\n",  # "$" would accept this
        "t3-context://v1/image/ctx\u212a",  # Kelvin sign is not ASCII K
        "t3-context://v1/ſkill/ctx_1",
        "",
    ],
)
def test_parse_href_rejects(href: str) -> None:
    assert parse_href(href) is None


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("t3-context://v1/image/ctx_1", ("image", "ctx_1")),
        ("t3-context://v1/preview-annotation/A-b_9", ("preview-annotation", "A-b_9")),
        ("t3-context://v1/x/-", ("x", "-")),
        ("t3-context://v1/" + "a" * 40 + "/" + "Z" * 128, ("a" * 40, "Z" * 128)),
        ("t3-context://v1/future-kind2/id", ("future-kind2", "id")),
    ],
)
def test_parse_href_accepts(href: str, expected: tuple[str, str]) -> None:
    assert parse_href(href) == expected


KINDS = st.from_regex(r"[a-z][a-z0-9-]{0,39}", fullmatch=True)
CONTEXT_IDS = st.from_regex(r"[A-Za-z0-9_-]{1,128}", fullmatch=True)


@given(KINDS, CONTEXT_IDS)
def test_href_round_trip(kind: str, context_id: str) -> None:
    href = format_href(kind, context_id)
    assert href == f"t3-context://v1/{kind}/{context_id}"
    assert parse_href(href) == (kind, context_id)


@given(st.text())
def test_parse_href_never_raises(href: str) -> None:
    result = parse_href(href)
    if result is not None:
        assert format_href(*result) == href


# --- sanitize_label / format_reference


@pytest.mark.parametrize(
    ("label", "kind", "expected"),
    [
        ("a.png", "image", "a.png"),
        ("  padded\t", "file", "padded"),
        ("a\r\nb", "file", "a b"),
        ("a\u00a0\u2003 b", "file", "a b"),  # JS whitespace, not just ASCII
        ("a\u200bb", "file", "a\u200bb"),  # ZWSP is not WS
        ("[]\\", "terminal", "terminal"),
        ("", "skill", "skill"),
        ("\ufeff", "mention", "mention"),
        ("x" * 199 + "😀", "file", "x" * 199),  # cut on a character boundary
        ("😀" * 150, "file", "😀" * 100),
        ("x" * 199 + " y", "file", "x" * 199 + " "),  # no trim after the cut
    ],
)
def test_sanitize_label_table(label: str, kind: str, expected: str) -> None:
    assert sanitize_label(label, kind) == expected


@given(st.text(), KINDS)
def test_sanitize_label_properties(label: str, kind: str) -> None:
    result = sanitize_label(label, kind)
    assert result
    assert not set(result) & set("[]\\\r\n")
    assert utf16_len(result) <= 200
    assert sanitize_label(result, kind) in (result, result.strip(WS))


@given(st.text(alphabet=st.characters(codec="utf-8")), KINDS, CONTEXT_IDS)
def test_format_reference_collects_back(label: str, kind: str, context_id: str) -> None:
    link = format_reference(kind, context_id, label)
    [ref] = collect_references(link)
    assert (ref.kind, ref.context_id, ref.label) == (kind, context_id, sanitize_label(label, kind))
    assert ref.image is (kind == "image")
    assert (ref.start, ref.end, ref.source) == (0, len(link), link)


def test_format_reference_bang_only_for_image() -> None:
    assert format_reference("file", "f1", "a") == "[a](t3-context://v1/file/f1)"
    assert format_reference("image", "i1", "") == "![image](t3-context://v1/image/i1)"
    [ref] = collect_references("![doc](t3-context://v1/file/f1)")
    assert ref.image is True and ref.kind == "file"
    assert format_reference(ref.kind, ref.context_id, ref.label) == "[doc](t3-context://v1/file/f1)"


# --- collect_references


def _sources(text: str) -> list[str]:
    return [ref.source for ref in collect_references(text)]


def test_fast_path_without_needle() -> None:
    assert collect_references("[a](t3-context:/v1/file/x)") == []
    assert collect_references("") == []


def test_reference_is_frozen() -> None:
    [ref] = collect_references("[a](t3-context://v1/file/x)")
    assert isinstance(ref, Reference)
    with pytest.raises(AttributeError):
        ref.label = "b"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a "[" inside the label is allowed
        ("[a[b](t3-context://v1/file/x)", ["[a[b](t3-context://v1/file/x)"]),
        # backslash escapes are not handled: the match starts at "["
        ("\\[x](t3-context://v1/file/x)", ["[x](t3-context://v1/file/x)"]),
        # inside code spans and fences it is still a reference
        ("`[x](t3-context://v1/file/x)`", ["[x](t3-context://v1/file/x)"]),
        ("```\n[x](t3-context://v1/file/x)\n```", ["[x](t3-context://v1/file/x)"]),
        # a newline in the label breaks it; the later "[" starts a new attempt
        ("[a\nb](t3-context://v1/file/x)", []),
        ("[a\n[b](t3-context://v1/file/x)", ["[b](t3-context://v1/file/x)"]),
        # link titles, angle brackets, whitespace in the href: no match
        ('[x](t3-context://v1/file/x "t")', []),
        ("[x](<t3-context://v1/file/x>)", []),
        ("[x](t3-context://v1/file/x\u00a0)", []),
        ("[x]( t3-context://v1/file/x)", []),
        # an href that does not parse stays text; scanning resumes after it
        (
            "[x](t3-context://v1/file/x/y)[z](t3-context://v1/file/z)",
            ["[z](t3-context://v1/file/z)"],
        ),
        # "!" right after an unparsed match belongs to the next one
        (
            "[x](t3-context://v1/Bad/x)![z](t3-context://v1/image/z)",
            ["![z](t3-context://v1/image/z)"],
        ),
        ("!![a](t3-context://v1/image/x)", ["![a](t3-context://v1/image/x)"]),
        # adjacent references
        (
            "[a](t3-context://v1/file/x)[b](t3-context://v1/file/y)",
            ["[a](t3-context://v1/file/x)", "[b](t3-context://v1/file/y)"],
        ),
    ],
)
def test_collect_references_table(text: str, expected: list[str]) -> None:
    assert _sources(text) == expected


def test_label_bound_is_512_utf16_units() -> None:
    tail = "](t3-context://v1/file/x)"
    assert len(collect_references("[" + "a" * 512 + tail)) == 1
    assert collect_references("[" + "a" * 513 + tail) == []
    # 256 astral characters are 512 units; 257 are 514 (but only 257 code points)
    assert len(collect_references("[" + "😀" * 256 + tail)) == 1
    assert collect_references("[" + "😀" * 257 + tail) == []
    assert collect_references("[" + "😀" * 256 + "a" + tail) == []


def test_too_long_label_resumes_one_character_later() -> None:
    tail = "](t3-context://v1/file/x)"
    # from the first "[" the label is 513 units; from the second it is 511
    text = "[a[" + "b" * 511 + tail
    [ref] = collect_references(text)
    assert ref.start == 2 and ref.source == text[2:]
    # the same with astral characters (code points within the bound, units not)
    text = "[😀[" + "😀" * 255 + tail
    [ref] = collect_references(text)
    assert ref.start == 2 and ref.source == text[2:]
    # "!" then an over-long label: neither the "!" form nor the bare form match
    assert collect_references("![" + "😀" * 257 + tail) == []


def test_href_tail_bound_is_200_utf16_units() -> None:
    def link(tail: str) -> str:
        return "[a](t3-context://v1/" + tail + ")"

    ok = "k/" + "x" * 128 + "/" + "y" * 69  # 200 units but three parts: matches, does not parse
    assert len(ok) == 200
    assert collect_references(link(ok)) == []
    assert _sources(link(ok) + link("file/z")) == [link("file/z")]
    # a 201-unit tail never matches (and a valid later reference is still found)
    assert collect_references(link("x" * 201)) == []
    assert _sources(link("😀" * 101) + link("file/z")) == [link("file/z")]


def test_offsets_are_python_indices_with_astral_text() -> None:
    text = "😀😀 [a](t3-context://v1/file/x) é ![b](t3-context://v1/image/y)"
    refs = collect_references(text)
    assert [(r.start, r.end) for r in refs] == [(3, 30), (33, 62)]
    for ref in refs:
        assert text[ref.start : ref.end] == ref.source


@given(st.text())
def test_collect_references_on_any_text(text: str) -> None:
    for ref in collect_references(text):
        assert text[ref.start : ref.end] == ref.source


LINKISH = st.lists(
    st.one_of(
        st.text(max_size=8),
        st.sampled_from(["[", "]", "(", ")", "!", "\n", " ", "\\", "😀", "\ud800", "é", "\u3000"]),
        st.sampled_from(["](t3-context://v1/", "t3-context://v1/", "file/x", "image/", "/"]),
        st.builds(format_reference, KINDS, CONTEXT_IDS, st.text(max_size=10)),
    ),
    max_size=30,
).map("".join)

_SPEC_PATTERN = re.compile(
    "(!?)\\[([^\\]\\n]*)\\]\\((t3-context://v1/[^\\t-\\r \\xa0\\u1680\\u2000-\\u200a"
    "\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff)]+)\\)"
)


def _reference_model(text: str) -> list[tuple[int, int, bool]]:
    """A direct transcription of docs/contract.md §4.3 (unbounded search, discard, resume at +1)."""
    out: list[tuple[int, int, bool]] = []
    pos = 0
    while (match := _SPEC_PATTERN.search(text, pos)) is not None:
        label, href = match.group(2), match.group(3)
        if utf16_len(label) > 512 or utf16_len(href) - len("t3-context://v1/") > 200:
            pos = match.start() + 1
            continue
        pos = match.end()
        if parse_href(href) is not None:
            out.append((match.start(), match.end(), match.group(1) == "!"))
    return out


@settings(max_examples=300)
@given(LINKISH)
def test_collect_references_matches_spec_model(text: str) -> None:
    refs = collect_references(text)
    assert [(r.start, r.end, r.image) for r in refs] == _reference_model(text)
    for ref in refs:
        assert text[ref.start : ref.end] == ref.source


# --- replace_references / is_image_references_only


def test_replace_references_keeps_text_and_identity_without_refs() -> None:
    text = "no refs [here](https://x)"
    assert replace_references(text, lambda ref: "X") is text
    text = "a ![i](t3-context://v1/image/i) b"
    assert replace_references(text, lambda ref: f"<{ref.kind}:{ref.label}>") == "a <image:i> b"


@given(LINKISH)
def test_replace_with_source_is_identity(text: str) -> None:
    assert replace_references(text, lambda ref: ref.source) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("![a](t3-context://v1/image/x) \n ![b](t3-context://v1/image/y)\u3000", True),
        ("[a](t3-context://v1/image/x)", True),  # kind decides, not the "!"
        ("![a](t3-context://v1/file/x)", False),
        ("![a](t3-context://v1/image/x) [b](t3-context://v1/file/y)", False),
        ("![a](t3-context://v1/image/x).", False),
        ("", False),
    ],
)
def test_is_image_references_only_table(text: str, expected: bool) -> None:
    assert is_image_references_only(text) is expected


def test_a_non_string_href_is_not_a_reference() -> None:
    assert parse_href(None) is None  # type: ignore[arg-type]
    assert parse_href(42) is None  # type: ignore[arg-type]
