"""Legacy upgrade and serializer (docs/contract.md §7): vectors, rules, round-trip properties."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from composer_app.core.codecs.labels import review_comment_label
from composer_app.core.codecs.legacy import serialize_legacy_message, upgrade_legacy_message
from composer_app.core.codecs.references import collect_references, format_reference, sanitize_label
from composer_app.core.contracts.records import decode_record, encode_record
from composer_app.core.text import WS
from tests.support.vectors import load, run

E = "\ue000"


def wire(kind: str, context_id: str, **fields: Any) -> dict[str, Any]:
    return {"version": 1, "contextId": context_id, "kind": kind, "label": "L", **fields}


def terminal_wire(context_id: str = "t1", **overrides: Any) -> dict[str, Any]:
    fields = {
        "terminalId": "build",
        "terminalLabel": "Build",
        "lineStart": 7,
        "lineEnd": 8,
        "text": "one\ntwo",
    }
    return wire("terminal", context_id, **(fields | overrides))


def review_wire(context_id: str = "rc_1", **overrides: Any) -> dict[str, Any]:
    fields = {
        "sectionId": "s1",
        "sectionTitle": "Changes",
        "filePath": "src/a.ts",
        "startIndex": 4,
        "endIndex": 4,
        "rangeLabel": "L4",
        "text": "Why?",
        "diff": "+ x",
    }
    return wire("review-comment", context_id, **(fields | overrides))


def decoded(*wires: dict[str, Any]) -> list[Any]:
    return [decode_record(item) for item in wires]


def upgrade(text: str) -> tuple[str, list[dict[str, Any]]]:
    body, records = upgrade_legacy_message(text)
    return body, [encode_record(record) for record in records]


def link(kind: str, context_id: str, label: str) -> str:
    return format_reference(kind, context_id, label)


def review_block(attributes: str = "", body: str = "Comment") -> str:
    head = 'sectionId="s1" filePath="f.ts" startIndex="1" endIndex="2"'
    return f"<review_comment {head}{attributes}>\n{body}\n</review_comment>"


def opening(attributes: str) -> str:
    return f"<review_comment {attributes}>"


CLOSE = "</review_comment>"
TERMINAL_BLOCK = "<terminal_context>\n- T line 1:\n  1 | x\n</terminal_context>"
T_LINK = link("terminal", "legacy_terminal_1", "T line 1")
R_LINK = link("review-comment", "legacy_review-comment_1", "f.ts line")


@pytest.mark.parametrize("vector", load("legacy_upgrade.json"))
def test_vector(vector: dict[str, Any]) -> None:
    run(vector)


# ------------------------------------------------------------------------------------------------
# Upgrade: fast exit, placeholders, terminals


def test_fast_exit_returns_the_text_itself() -> None:
    text = "a <review_comments> and <terminal_contextual> x"
    body, records = upgrade_legacy_message(text)
    assert body is text
    assert records == []


def test_stray_placeholder_is_deleted_and_the_end_trimmed() -> None:
    assert upgrade("a \ufffc") == ("a", [])
    assert upgrade("\ufffc x \ufffc\n") == (" x", [])


def test_crlf_blocks_parse_and_outside_text_is_kept() -> None:
    text = (
        "hi\r\nthere \ufffc\r\n\r\n<terminal_context>\r\n- T line 1:\r\n  1 | x\r\n"
        "</terminal_context>"
    )
    body, records = upgrade(text)
    assert body == f"hi\r\nthere {T_LINK}"
    assert records[0]["text"] == "x"
    assert records[0]["terminalLabel"] == "T"


def test_terminal_header_forms_and_line_prefixes() -> None:
    text = (
        "x\n\n<terminal_context>\n- My  Term 2 lines 3-5:\n  3 | a\n  4 |b\n  c\n  12 |  d\n"
        "</terminal_context>"
    )
    _, records = upgrade(text)
    assert records == [
        {
            "version": 1,
            "contextId": "legacy_terminal_1",
            "kind": "terminal",
            "label": "My  Term 2 lines 3-5",
            "terminalId": "my-term-2",
            "terminalLabel": "My  Term 2",
            "lineStart": 3,
            "lineEnd": 5,
            "text": "a\nb\nc\n d",
        }
    ]


@pytest.mark.parametrize(
    "prose",
    [
        "see @t:1.",
        "see @t:1, ok",
        "(@t:1)",
        "see @t:1 @ next",
        "see @t:1. Next sentence",
        "see @t:1.)",
        "@t:1",
        "see @t:1;",
        "x @t:10 then @t:1!",
    ],
)
def test_materialized_label_binds_in_place(prose: str) -> None:
    body, _ = upgrade(f"{prose}\n\n{TERMINAL_BLOCK}")
    assert T_LINK in body
    assert "\n\n" not in body  # not appended


@pytest.mark.parametrize(
    "prose",
    [
        "email@t:1",
        "@t:10",
        "@t:1-2",
        "@t:1foo",
        "@t:1.é",
        "@t:1@mention",
        "x.@t:1",
        "x-@t:1",
        "@@t:1",
        "_@t:1",
        "@t:1_",
        "@t:1\u0301",
        "@t:1..a",
    ],
)
def test_glued_materialized_label_does_not_bind(prose: str) -> None:
    assert upgrade(f"{prose}\n\n{TERMINAL_BLOCK}")[0] == f"{prose}\n\n{T_LINK}"


def test_placeholders_bind_before_labels_and_the_rest_are_appended() -> None:
    block = (
        "<terminal_context>\n- A line 1:\n  1 | a\n\n- B line 2:\n  2 | b\n\n- C line 3:\n  3 | c\n"
        "</terminal_context>"
    )
    body, records = upgrade(f"first \ufffc then @b:2 done  \n\n{block}")
    links = [
        link("terminal", f"legacy_terminal_{n}", f"{x} line {n}")
        for n, x in ((1, "A"), (2, "B"), (3, "C"))
    ]
    assert body == f"first {links[0]} then {links[1]} done\n\n{links[2]}"
    assert [record["contextId"] for record in records] == [
        "legacy_terminal_1",
        "legacy_terminal_2",
        "legacy_terminal_3",
    ]


def test_only_text_with_links_gives_links_alone() -> None:
    assert upgrade(TERMINAL_BLOCK)[0] == T_LINK


def test_hard_breaks_survive() -> None:
    assert upgrade(f"break  \nnext\n\n{TERMINAL_BLOCK}")[0] == f"break  \nnext\n\n{T_LINK}"


# ------------------------------------------------------------------------------------------------
# Upgrade: elements and previews


def test_element_fields_and_sections() -> None:
    block = (
        "<element_context>\n- <Pay Button> (Button.tsx:12):\n  url:  http://x/ \n  selector: \n"
        "  source: \n  html:\n    <a>\n      b\n  styles:\n    x: y;\n  other: ignored\n\n"
        "- <div>:\n  source: C:\\src\\a.tsx:3\n</element_context>"
    )
    _, records = upgrade(block)
    assert records[0] | {"source": "?"} == {
        "version": 1,
        "contextId": "legacy_element_1",
        "kind": "element",
        "label": "<Pay Button>",
        "pageUrl": "http://x/",
        "pageTitle": None,
        "tagName": "pay button",
        "selector": "",
        "htmlPreview": "<a>\n  b",
        "componentName": "Pay Button",
        "source": "?",
        "styles": "x: y;",
    }
    assert records[0]["source"] is None
    assert records[1]["source"] == {
        "functionName": None,
        "fileName": "C:\\src\\a.tsx",
        "lineNumber": 3,
        "columnNumber": None,
    }
    assert records[1]["componentName"] is None
    assert records[1]["pageUrl"] == ""
    assert records[1]["selector"] is None


def test_preview_with_nested_elements() -> None:
    block = (
        "<preview_annotation>\nPreview annotation:\nId:  p1 \nPage: Checkout\nComment: blue\n"
        "Targets: 1 selected element\nRequested visual changes:\n- color: red → blue\n- a: b\n"
        "The attached screenshot is the annotated preview crop.\n<element_context>\n- <b>:\n"
        "  url: http://shop/\n</element_context>\nId: ignored\n</preview_annotation>"
    )
    _, records = upgrade(block)
    assert records == [
        {
            "version": 1,
            "contextId": "legacy_preview-annotation_1",
            "kind": "preview-annotation",
            "label": "Checkout",
            "annotationId": "p1",
            "pageUrl": "http://shop/",
            "pageTitle": "Checkout",
            "comment": "blue",
            "targetSummary": "1 selected element",
            "styleChanges": ["color: red → blue", "a: b"],
            "elements": [
                {
                    "pageUrl": "http://shop/",
                    "pageTitle": None,
                    "tagName": "b",
                    "selector": None,
                    "htmlPreview": "",
                    "componentName": None,
                    "source": None,
                    "styles": "",
                }
            ],
        }
    ]


def test_empty_preview_gets_the_default_label_and_http_page_is_case_insensitive() -> None:
    _, records = upgrade("<preview_annotation>\n</preview_annotation>")
    assert records[0]["label"] == "Preview annotation"
    assert records[0]["pageTitle"] is None
    _, records = upgrade("<preview_annotation>\nPage: HTTPS://X/\n</preview_annotation>")
    assert (records[0]["pageUrl"], records[0]["pageTitle"]) == ("HTTPS://X/", None)


def test_blocks_keep_their_original_order_per_kind() -> None:
    text = (
        "p\n\n<terminal_context>\n- A line 1:\n  1 | a\n</terminal_context>\n\n"
        "<terminal_context>\n- B line 1:\n  1 | b\n</terminal_context>\n\n"
        "<preview_annotation>\nPage: One\n</preview_annotation>\n"
        "<preview_annotation>\nPage: Two\n</preview_annotation>"
    )
    body, records = upgrade(text)
    assert [record["label"] for record in records] == ["A line 1", "B line 1", "One", "Two"]
    assert body.startswith("p\n\n[A line 1](")


def test_block_that_is_not_trailing_stays_text() -> None:
    text = f"{TERMINAL_BLOCK}\n\nmore prose"
    assert upgrade(text) == (text, [])


@pytest.mark.parametrize(
    "text",
    [
        "x\n\n<element_context>\n- div:\n  url: u\n</element_context>",
        "x\n\n<terminal_context>\n- T line one:\n  1 | x\n</terminal_context>",
        "x\n\n<terminal_context>\n\n</terminal_context>",
        "x\n\n<preview_annotation>\n<element_context>\n</element_context>\n</preview_annotation>",
        "x\n\n<preview_annotation>\n<element_context>\nbad\n</element_context>\n"
        "</preview_annotation>",
        "x \ufffc\n\n<terminal_context>\n- T lines 9-1:\n  9 | x\n</terminal_context>",
        "x\n\n<terminal_context>\n- " + "a" * 256 + " line 1:\n  1 | x\n</terminal_context>",
        "x\n\n<terminal_context>\n- T line 1:\n  1 | " + "a" * 64_001 + "\n</terminal_context>",
        "x\n\n<terminal_context>\n- T line 99999999999999999999:\n  1 | x\n</terminal_context>",
        "x\n\n<element_context>\n- <b>:\n  html:\n    " + "a" * 8_001 + "\n</element_context>",
        "x\n\n<preview_annotation>\nComment: " + "a" * 8_001 + "\n</preview_annotation>",
        "x\n\n<terminal_context>\n"
        + "\n".join(f"- T line {n}:\n  {n} | x" for n in range(201))
        + "\n</terminal_context>",
    ],
)
def test_upgrade_is_atomic(text: str) -> None:
    assert upgrade(text) == (text, [])


def test_two_hundred_records_are_accepted() -> None:
    text = (
        "x\n\n<terminal_context>\n"
        + "\n".join(f"- T line {n}:\n  {n} | x" for n in range(200))
        + "\n</terminal_context>"
    )
    assert len(upgrade(text)[1]) == 200


# ------------------------------------------------------------------------------------------------
# Upgrade: review blocks


def test_review_inline_after_single_newline_stays_trailing_after_blank_line_moves() -> None:
    assert upgrade(f"Look\n{review_block()}")[0] == f"Look\n{R_LINK}"
    assert upgrade(f"Look {review_block()} here")[0] == f"Look {R_LINK} here"
    assert upgrade(review_block())[0] == R_LINK
    text = f"Look\n\n{review_block()}\n\n{TERMINAL_BLOCK}"
    assert upgrade(text)[0] == f"Look\n\n{R_LINK}\n\n{T_LINK}"
    text = f"Look @t:1\n\n{TERMINAL_BLOCK}\n\n{review_block()}"
    assert upgrade(text)[0] == f"Look {T_LINK}\n\n{R_LINK}"


def test_trailing_reviews_come_after_blocks_and_all_reviews_last_in_records() -> None:
    second = review_block().replace('"s1"', '"s2"')
    text = f"Ask {review_block()}\n\n{TERMINAL_BLOCK}\n\n{second}\n \n{second}"
    body, records = upgrade(text)
    links = [link("review-comment", f"legacy_review-comment_{n}", "f.ts line") for n in (1, 2, 3)]
    assert body == f"Ask {links[0]}\n\n{T_LINK} {links[1]} {links[2]}"
    assert [record["kind"] for record in records] == ["terminal"] + ["review-comment"] * 3


@pytest.mark.parametrize("fence", ["```", "````", "``````"])
def test_closing_tag_inside_a_fence_is_content(fence: str) -> None:
    shorter = fence[:-1]
    body = f"Why\n\n{fence}ts\n</review_comment>\n{shorter}\n{fence}  \n"
    _, records = upgrade(review_block(body=body))
    assert records[0]["diff"] == "</review_comment>\n" + shorter
    assert records[0]["fenceLanguage"] == "ts"
    assert records[0]["text"] == "Why"


def test_last_fence_is_the_diff_and_body_is_literal_without_encoding() -> None:
    body = "Text &lt;b&gt;\n```\nfirst\n```\nmiddle\n```\n\nlast\n```\nafter"
    _, records = upgrade(review_block(body=body))
    assert records[0]["diff"] == "\nlast"
    assert records[0]["fenceLanguage"] == "diff"
    assert records[0]["text"] == "Text &lt;b&gt;\n```\nfirst\n```\nmiddle"


def test_review_without_fence_and_closing_tag_on_the_same_line() -> None:
    text = opening('sectionId="s" filePath="f" startIndex="9" endIndex="3"') + " hi " + CLOSE
    _, records = upgrade(text)
    assert records[0]["text"] == "hi"
    assert records[0]["diff"] == ""
    assert "fenceLanguage" not in records[0]
    assert (records[0]["startIndex"], records[0]["endIndex"]) == (3, 9)


def test_first_line_is_never_a_fence_opener() -> None:
    text = opening('sectionId="s" filePath="f" startIndex="1" endIndex="1"') + f"```\nx\n{CLOSE}"
    assert upgrade(text)[1][0]["text"] == "```\nx"


def test_escaped_tags_body_and_attributes() -> None:
    attributes = (
        ' sectionTitle=" A &amp;lt; &quot;q&quot; " rangeLabel="  " sectionId="dup"'
        ' sourceRevision="" sourceStale="true" bodyEncoding="escaped-tags"'
    )
    body = "Keep &amp;lt;/review_comment> &LT;/review_comment> &AMP;\n\n```\n&lt;x &amp;amp;\n```"
    _, records = upgrade(review_block(attributes, body))
    record = records[0]
    assert record["sectionId"] == "s1"
    assert record["sectionTitle"] == 'A &lt; "q"'
    assert record["rangeLabel"] == "line"
    assert record["text"] == "Keep &lt;/review_comment> </review_comment> &"
    assert record["diff"] == "<x &amp;"
    assert record["sourceRevision"] == ""
    assert record["sourceStale"] is True


@pytest.mark.parametrize(
    "block",
    [
        review_block(' bodyEncoding="base64"'),
        '<review_comment filePath="f" startIndex="1" endIndex="2">\nx\n</review_comment>',
        opening('sectionId="s" filePath="" startIndex="1" endIndex="2"') + f"\nx\n{CLOSE}",
        opening('sectionId="s" filePath="f" startIndex="-1" endIndex="2"') + f"\nx\n{CLOSE}",
        '<review_comment sectionId="s" filePath="f" startIndex="1">\nx\n</review_comment>',
        '<review_comment sectionId="s" filePath="f" startIndex="1" endIndex="2" x=\'y\'>\nx\n'
        "</review_comment>",
        review_block(body="a" * 16_001),
        review_block(body="ok\n\n```\n" + "a" * 32_001 + "\n```"),
        review_block(' fenceLanguage="x"', "ok\n\n```" + "a" * 65 + "\nd\n```"),
        review_block(body="ok\n```\nunterminated"),
        '<review_comment sectionId="s" filePath="f" startIndex="1" endIndex="2">\nno close',
    ],
)
def test_review_block_that_cannot_be_upgraded_stays_text(block: str) -> None:
    text = f"before {block} after"
    assert upgrade(text) == (text, [])


def test_failed_review_does_not_stop_later_ones() -> None:
    bad = review_block(' bodyEncoding="base64"')
    body, records = upgrade(f"{bad} {review_block()}")
    assert body == f"{bad} {R_LINK}"
    assert len(records) == 1


def test_review_shaped_text_inside_other_blocks_stays_payload() -> None:
    inner = (
        '<review_comment sectionId="s" filePath="f" startIndex="1" endIndex="2">x</review_comment>'
    )
    text = f"<terminal_context>\n- T line 1:\n  1 | {inner}\n</terminal_context>"
    body, records = upgrade(text)
    assert body == T_LINK
    assert [record["text"] for record in records] == [inner]
    assert upgrade(f"x {inner}")[0] == "x " + link(
        "review-comment", "legacy_review-comment_1", "f line"
    )


def test_private_use_characters_are_never_misread() -> None:
    text = f"{E}1{E} keep {E}{E} {review_block()}"
    body, records = upgrade(text)
    assert body == f"{E}1{E} keep {E}{E} {R_LINK}"
    assert len(records) == 1


def test_pull_request_summary_label() -> None:
    block = (
        '<review_comment sectionId="pull-request:42" filePath="PR #42" startIndex="0" '
        'endIndex="0">\nSummary\n</review_comment>'
    )
    assert upgrade(block)[0] == link("review-comment", "legacy_review-comment_1", "#42")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "<terminal_context>\n",
                "</terminal_context>",
                "<element_context>\n",
                "</element_context>",
                "<preview_annotation>\n",
                "</preview_annotation>",
                '<review_comment sectionId="s" filePath="f" startIndex="1" endIndex="2">',
                "</review_comment>",
                "```\n",
                "- T line 1:\n",
                "- <B>:\n",
                "  1 | x\n",
                "  url: u\n",
                "\ufffc",
                "@t:1",
                E,
                "\n\n",
                "\r\n",
                " ",
                "Page: p\n",
            ]
        )
        | st.text(max_size=5),
        max_size=25,
    )
)
def test_upgrade_never_raises_and_is_deterministic(parts: list[str]) -> None:
    text = "".join(parts)
    first = upgrade(text)
    assert first == upgrade(text)
    body, records = first
    if records:
        ids = {record["contextId"] for record in records}
        assert len(ids) == len(records)
        assert all(re.fullmatch(r"legacy_[a-z-]+_[0-9]+", cid) for cid in ids)
        assert "\ufffc" not in body
    else:
        assert body in (text, text.replace("\ufffc", "").rstrip(WS))


# ------------------------------------------------------------------------------------------------
# Serializer


def test_serializer_without_blocks_returns_the_rewritten_text() -> None:
    records = decoded(
        wire("skill", "s1", label="$pr-audit", name="pr-audit"),
        wire(
            "image", "i1", label="shot.png", attachmentId="a", name="n", mimeType="m", sizeBytes=1
        ),
    )
    text = f"{link('skill', 's1', 'x')} {link('image', 'i1', 'y')} {link('file', 'gone', 'z')} "
    assert serialize_legacy_message(text, records) == (
        f"$pr-audit shot.png {link('file', 'gone', 'z')} "
    )


def test_serializer_terminal_block_and_duplicates() -> None:
    records = decoded(
        terminal_wire(text="\r\none\r\ntwo\nthree\n\n"),
        terminal_wire("t2", terminalLabel="Other\nTerm", lineStart=3, lineEnd=3, text=""),
        wire("skill", "dup", name="a"),
        wire("skill", "dup", name="b"),
    )
    text = f"Run {link('terminal', 't1', 'x')} and {link('skill', 'dup', 'd')}  \n"
    assert serialize_legacy_message(text, records) == (
        f"Run @build:7-8 and {link('skill', 'dup', 'd')}\n\n<terminal_context>\n"
        "- Build lines 7-8:\n  7 | one\n  8 | two\n\n- Other Term line 3:\n  3 | \n"
        "</terminal_context>"
    )


def test_serializer_element_and_preview_blocks() -> None:
    element = {
        "pageUrl": "http://x/\nmore",
        "pageTitle": "T",
        "tagName": "button",
        "selector": "#a\r\nb",
        "htmlPreview": "\n<b>\n  c</b>\n",
        "componentName": "Pay Button",
        "source": {"functionName": "f", "fileName": "B.tsx", "lineNumber": 3, "columnNumber": None},
        "styles": "  ",
    }
    records = decoded(
        wire("element", "e1", **element),
        wire("element", "e2", **(element | {"componentName": "", "selector": "", "source": None})),
        wire(
            "preview-annotation",
            "p1",
            annotationId="a1",
            pageUrl="http://x/",
            pageTitle=" ",
            comment=" fix \n",
            targetSummary="1 drawing",
            styleChanges=["color: red → blue"],
            screenshotContextId="image_a1",
            elements=[element | {"componentName": "Card"}],
        ),
    )
    assert serialize_legacy_message("", records) == "\n".join(
        [
            "<element_context>",
            "- <button>:",
            "  url: http://x/ more",
            "  selector: #a  b",
            "  source: B.tsx:3",
            "  html:",
            "    <b>",
            "      c</b>",
            "",
            "- <button>:",
            "  url: http://x/ more",
            "  html:",
            "    <b>",
            "      c</b>",
            "</element_context>",
            "",
            "<preview_annotation>",
            "Preview annotation:",
            "Id: a1",
            "Page: http://x/",
            "Comment: fix",
            "Targets: 1 drawing",
            "Requested visual changes:",
            "- color: red → blue",
            "The attached screenshot is the annotated preview crop.",
            "<element_context>",
            "- <Card>:",
            "  url: http://x/ more",
            "  selector: #a  b",
            "  source: B.tsx:3",
            "  html:",
            "    <b>",
            "      c</b>",
            "</element_context>",
            "</preview_annotation>",
        ]
    )


def test_serializer_element_source_carries_line_and_column() -> None:
    element = {
        "pageUrl": "http://x/",
        "pageTitle": "T",
        "tagName": "a",
        "selector": "",
        "htmlPreview": "",
        "componentName": "",
        "source": {"functionName": None, "fileName": "Nav.tsx", "lineNumber": 12,
                   "columnNumber": 7},
        "styles": "",
    }
    records = decoded(wire("element", "e1", **element))
    assert serialize_legacy_message("", records) == (
        "<element_context>\n- <a>:\n  url: http://x/\n  source: Nav.tsx:12:7\n</element_context>"
    )


def test_serializer_review_block_encoding_and_fence() -> None:
    record = decode_record(
        review_wire(
            text="Keep &lt;/review_comment> literal. </Review_Comment > &amp; & <review_commentx",
            diff="a ```` b\n`",
            fenceLanguage="",
            sourceRevision="",
            sourceStale=False,
        )
    )
    assert serialize_legacy_message("", [record]) == (
        '<review_comment sectionId="s1" sectionTitle="Changes" filePath="src/a.ts" '
        'rangeLabel="L4" startIndex="4" endIndex="4" bodyEncoding="escaped-tags">\n'
        "Keep &amp;lt;/review_comment> literal. &lt;/Review_Comment > &amp;amp; & <review_commentx"
        "\n\n`````diff\na ```` b\n`\n`````\n</review_comment>"
    )
    stale = decode_record(review_wire(sourceRevision="r1", sourceStale=True, diff=""))
    assert serialize_legacy_message("", [stale]).split("\n")[:2] == [
        '<review_comment sectionId="s1" sectionTitle="Changes" filePath="src/a.ts" '
        'rangeLabel="L4" sourceRevision="r1" sourceStale="true" startIndex="4" endIndex="4" '
        'bodyEncoding="escaped-tags">',
        "Why?",
    ]


@pytest.mark.parametrize("sep", [" ", "\n", "\n\n"])
def test_inline_review_keeps_its_place_and_separator(sep: str) -> None:
    records = decoded(review_wire())
    text = "$pr-audit" + sep + link("review-comment", "rc_1", "a.ts L4")
    body, upgraded = upgrade(serialize_legacy_message(text, records))
    assert body == "$pr-audit" + sep + link("review-comment", "legacy_review-comment_1", "a.ts L4")
    assert len(upgraded) == 1


def test_unreferenced_and_duplicated_reviews_are_appended() -> None:
    records = decoded(review_wire(), review_wire("dup"), review_wire("dup", text="Other"))
    text = f"See {link('review-comment', 'rc_1', 'x')} and {link('review-comment', 'dup', 'd')}"
    out = serialize_legacy_message(text, records)
    assert out.count("<review_comment ") == 3
    assert out.startswith("See <review_comment ")
    assert link("review-comment", "dup", "d") in out


# ------------------------------------------------------------------------------------------------
# Round trip (docs/contract.md §7.3)

_LINE = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cs",), blacklist_characters="\r\n\ufffc\ue000\x85\u2028\u2029"
    ),
    max_size=20,
)
_NAME = st.text(alphabet="abcXYZ019 _-.@/", min_size=1, max_size=12).filter(
    lambda s: bool(s.strip(WS))
)
_CONTENT_LINE = _LINE.filter(lambda s: bool(s.strip(WS)))
_BLOCK_TEXT = st.lists(_CONTENT_LINE, min_size=0, max_size=4).map("\n".join)
_NO_BACKTICKS = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r`\ue000"),
    max_size=40,
)
_DIFF = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\ue000"),
    max_size=40,
)


@st.composite
def _terminals(draw: st.DrawFn, n: int) -> dict[str, Any]:
    start = draw(st.integers(0, 50))
    return terminal_wire(
        f"t{n}",
        terminalLabel=draw(_NAME),
        lineStart=start,
        lineEnd=start + draw(st.integers(0, 3)),
        text=draw(st.lists(_LINE, min_size=1, max_size=5).map("\n".join)),
    )


@st.composite
def _element_details(draw: st.DrawFn) -> dict[str, Any]:
    file_name = draw(st.none() | st.text(alphabet="abc/._", max_size=6))
    return {
        "pageUrl": draw(_LINE),
        "pageTitle": draw(st.none() | _LINE),
        "tagName": draw(_NAME.filter(lambda s: ">" not in s)),
        "selector": draw(st.none() | _LINE),
        "htmlPreview": draw(_BLOCK_TEXT),
        "componentName": draw(st.none() | _NAME | _LINE),
        "source": draw(
            st.none()
            | st.fixed_dictionaries(
                {
                    "functionName": st.none() | _LINE,
                    "fileName": st.just(file_name),
                    "lineNumber": st.none() | st.integers(0, 99),
                    "columnNumber": st.none() | st.integers(0, 99),
                }
            )
        ),
        "styles": draw(_BLOCK_TEXT),
    }


@st.composite
def _previews(draw: st.DrawFn, n: int) -> dict[str, Any]:
    return wire(
        "preview-annotation",
        f"p{n}",
        annotationId=draw(_LINE),
        pageUrl=draw(_LINE),
        pageTitle=draw(st.none() | _LINE),
        comment=draw(_LINE),
        targetSummary=draw(_LINE),
        styleChanges=draw(st.lists(_LINE, max_size=3)),
        elements=draw(st.lists(_element_details(), min_size=1, max_size=2)),
    )


@st.composite
def _reviews(draw: st.DrawFn, n: int) -> dict[str, Any]:
    start, end = draw(st.integers(0, 99)), draw(st.integers(0, 99))
    fields: dict[str, Any] = {
        "sectionId": draw(_NAME),
        "sectionTitle": draw(_DIFF),
        "filePath": draw(_NAME),
        "startIndex": min(start, end),
        "endIndex": max(start, end),
        "rangeLabel": draw(_DIFF),
        "text": draw(_NO_BACKTICKS),
        "diff": draw(_DIFF),
    }
    if draw(st.booleans()):
        fields["fenceLanguage"] = draw(st.text(alphabet="abcxyz+", max_size=6))
    if draw(st.booleans()):
        fields["sourceRevision"] = draw(st.text(alphabet="0123abc", max_size=8))
    if draw(st.booleans()):
        fields["sourceStale"] = draw(st.booleans())
    return review_wire(f"r{n}", **fields)


def _expected_details(details: dict[str, Any]) -> dict[str, Any]:
    """What the legacy element format carries (docs/contract.md §7.3)."""
    component = details["componentName"]
    headable = component and not set(component) & set(WS + "<>")
    name = component if headable else details["tagName"]
    selector = details["selector"]
    source = details["source"]
    expected_source = None
    if source is not None and source["fileName"] and source["fileName"].strip(WS):
        line = source["lineNumber"]
        expected_source = {
            "functionName": None,
            "fileName": source["fileName"].strip(WS),
            "lineNumber": line,
            "columnNumber": None if line is None else source["columnNumber"],
        }
    return {
        "pageUrl": details["pageUrl"].strip(WS),
        "pageTitle": None,
        "tagName": name.lower(),
        "selector": selector.strip(WS) if selector else None,
        "htmlPreview": details["htmlPreview"].strip(WS),
        "componentName": name if re.search("[A-Z]", name) else None,
        "source": expected_source,
        "styles": details["styles"].strip(WS),
    }


def _expected_review(item: dict[str, Any]) -> dict[str, Any]:
    expected = {
        key: item[key] for key in ("sectionId", "filePath", "startIndex", "endIndex", "diff")
    }
    expected["sectionId"] = item["sectionId"].strip(WS)
    expected["filePath"] = item["filePath"].strip(WS)
    expected["sectionTitle"] = item["sectionTitle"].strip(WS) or "Review"
    expected["rangeLabel"] = item["rangeLabel"].strip(WS) or "line"
    expected["text"] = item["text"].replace("\r\n", "\n").strip(WS)
    if item["diff"]:
        expected["fenceLanguage"] = item.get("fenceLanguage") or "diff"
    if item.get("sourceRevision"):
        expected["sourceRevision"] = item["sourceRevision"]
    if item.get("sourceStale"):
        expected["sourceStale"] = True
    return expected


@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_serialize_then_upgrade_restores_the_records(data: st.DataObject) -> None:
    terminals = [data.draw(_terminals(n)) for n in range(data.draw(st.integers(0, 2)))]
    elements = [
        wire("element", f"e{n}", **data.draw(_element_details()))
        for n in range(data.draw(st.integers(0, 2)))
    ]
    previews = [data.draw(_previews(n)) for n in range(data.draw(st.integers(0, 2)))]
    reviews = [data.draw(_reviews(n)) for n in range(data.draw(st.integers(0, 3)))]
    inline = data.draw(
        st.lists(st.sampled_from(reviews), unique_by=lambda r: r["contextId"])
        if reviews
        else st.just([])
    )
    records = decoded(*terminals, *elements, *previews, *reviews)
    # Compare against the decoded (trimmed) records.
    normalized = {record.context_id: encode_record(record) for record in records}
    terminals = [normalized[item["contextId"]] for item in terminals]
    elements = [normalized[item["contextId"]] for item in elements]
    previews = [normalized[item["contextId"]] for item in previews]
    reviews = [normalized[item["contextId"]] for item in reviews]
    inline = [normalized[item["contextId"]] for item in inline]
    prose = "Please look" + "".join(
        sep + link(item["kind"], item["contextId"], "x")
        for item, sep in zip(
            [*terminals, *inline],
            data.draw(st.lists(st.sampled_from([" ", "\n", "\n\n", " at "]), min_size=5)),
            strict=False,
        )
    )
    body, upgraded = upgrade(serialize_legacy_message(prose, records))
    assert len(upgraded) == len(records)
    assert {ref.context_id for ref in collect_references(body)} == {
        item["contextId"] for item in upgraded
    }
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for item in upgraded:
        by_kind.setdefault(item["kind"], []).append(item)
    for original, restored in zip(terminals, by_kind.get("terminal", []), strict=True):
        count = original["lineEnd"] - original["lineStart"] + 1
        lines = original["text"].strip("\n").split("\n")[:count]
        assert restored["terminalLabel"] == original["terminalLabel"].strip(WS)
        assert (restored["lineStart"], restored["lineEnd"]) == (
            original["lineStart"],
            original["lineEnd"],
        )
        assert restored["text"] == "\n".join(lines)
    for original, restored in zip(elements, by_kind.get("element", []), strict=True):
        details = {key: restored[key] for key in _expected_details(original)}
        assert details == _expected_details(original)
    for original, restored in zip(previews, by_kind.get("preview-annotation", []), strict=True):
        page = (original["pageTitle"] or "").strip(WS) or original["pageUrl"]
        page = page.strip(WS)
        assert restored["annotationId"] == original["annotationId"].strip(WS)
        assert restored["label"] == (page or "Preview annotation")
        assert restored["comment"] == original["comment"].strip(WS)
        assert restored["targetSummary"] == original["targetSummary"].strip(WS)
        assert restored["styleChanges"] == original["styleChanges"]
        assert restored["elements"] == [_expected_details(e) for e in original["elements"]]
    inline_ids = [item["contextId"] for item in inline]
    ordered = sorted(inline, key=lambda r: prose.index(f"/{r['contextId']})")) + [
        item for item in reviews if item["contextId"] not in inline_ids
    ]
    for original, restored in zip(ordered, by_kind.get("review-comment", []), strict=True):
        expected = _expected_review(original)
        assert {key: restored.get(key) for key in expected} == expected
        assert set(restored) - set(expected) == {"version", "contextId", "kind", "label"}
        label = sanitize_label(review_comment_label(decode_record(restored)), "review-comment")
        assert restored["label"] == label


def test_lone_surrogates_upgrade_without_raising() -> None:
    text = "x\n\n<terminal_context>\n- T\ud800 line 1:\n  1 | \udc00\n</terminal_context>"
    body, records = upgrade(text)
    assert body == "x\n\n" + link("terminal", "legacy_terminal_1", "T\ud800 line 1")
    assert records[0]["text"] == "\udc00"


def test_blank_indented_lines_inside_an_entry_are_skipped() -> None:
    block = "<terminal_context>\n- T line 1:\n  1 | x\n   \n</terminal_context>"
    body, records = upgrade("see\n\n" + block)
    assert body == "see\n\n" + T_LINK and records[0]["text"] == "x"


def test_a_tag_inside_a_block_line_is_not_its_opening() -> None:
    text = "<terminal_context>\n- T line 1:\n  1 | x <terminal_context>\n</terminal_context>"
    body, records = upgrade(text)
    assert body == T_LINK and records[0]["text"] == "x <terminal_context>"


def test_an_unclosed_nested_element_block_is_an_ignored_line_of_the_preview() -> None:
    text = ("<preview_annotation>\nPreview annotation:\nId: a1\nPage: https://x.test/\n"
            "<element_context>\nComment: hi\n</preview_annotation>")
    _, records = upgrade(text)
    assert [r["kind"] for r in records] == ["preview-annotation"]
    assert records[0]["comment"] == "hi" and "elements" not in records[0]


def test_crlf_review_bodies_lose_their_carriage_returns() -> None:
    block = review_block(body="Why?\n\n```diff\n+ x\n```").replace("\n", "\r\n")
    _, records = upgrade("look " + block)
    assert records[0]["text"] == "Why?" and records[0]["diff"] == "+ x"


def test_a_long_message_is_checked_against_the_context_size() -> None:
    prose = "word " * 170_000
    body, records = upgrade(prose + "\n\n" + TERMINAL_BLOCK)
    assert [r["kind"] for r in records] == ["terminal"] and body.endswith(T_LINK)


def test_a_preview_without_elements_is_written_without_a_nested_block() -> None:
    preview = wire("preview-annotation", "pa_1", annotationId="a1", pageUrl="https://x.test/",
                   pageTitle=None, comment="Fix", targetSummary="", styleChanges=[])
    text = serialize_legacy_message(link("preview-annotation", "pa_1", "Fix"), decoded(preview))
    assert "<preview_annotation>" in text and "<element_context>" not in text


@pytest.mark.parametrize("text", [
    "<terminal_context>junk\n- T line 1:\n  1 | x\n</terminal_context>",
    "<terminal_context>\n- T line 1:\n  1 | x</terminal_context>",
])
def test_a_block_whose_tags_are_not_lines_of_their_own_stays_text(text: str) -> None:
    assert upgrade(text) == (text, [])
