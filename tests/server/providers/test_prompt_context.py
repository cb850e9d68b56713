"""Reading the projected provider input back into the question and its context entries."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.core.codecs.projection import (
    ATTACHMENT_ONLY_BOOTSTRAP_PROMPT,
    project_for_provider,
)
from composer_app.core.codecs.references import format_reference
from composer_app.core.contracts.records import decode_record
from composer_app.server.providers.prompt_context import kind_display, read_provider_input


def _terminal(context_id: str, text: str) -> dict[str, object]:
    return {"version": 1, "contextId": context_id, "kind": "terminal", "label": "build log",
            "terminalId": "t1", "terminalLabel": "Terminal 1", "lineStart": 1,
            "lineEnd": text.count("\n") + 1, "text": text}


def test_question_leaves_out_reference_labels_and_entries_keep_their_bodies():
    text = "Why does " + format_reference("terminal", "ctx_1", "build log") + " fail? " + \
        format_reference("mention", "ctx_missing", "src/app.py")
    prompt = project_for_provider(text, [decode_record(_terminal("ctx_1", "error: boom"))])
    parsed = read_provider_input(prompt)
    # A label names where to look, not what to find: it is no search term.
    assert parsed.question == "Why does fail?"
    assert [(e.kind, e.context_id, e.label) for e in parsed.entries] == [
        ("terminal", "ctx_1", "build log")
    ]
    assert parsed.entries[0].body == "terminal: Terminal 1\n1 | error: boom"


def test_a_question_of_labels_only_keeps_them():
    text = format_reference("terminal", "ctx_1", "build log") + " ?"
    prompt = project_for_provider(text, [decode_record(_terminal("ctx_1", "error: boom"))])
    assert read_provider_input(prompt).question == "build log ?"


def test_prompt_without_envelope_is_all_question():
    parsed = read_provider_input("Plain question?")
    assert parsed.question == "Plain question?" and parsed.entries == ()


def test_attachment_only_prompt_has_no_question():
    parsed = read_provider_input(ATTACHMENT_ONLY_BOOTSTRAP_PROMPT)
    assert parsed.attachment_only and parsed.question == ""


def test_kind_display_matches_marker_display():
    assert kind_display("review-comment") == "Review comment"
    assert kind_display("future-thing") == "Future thing"


@given(st.text(alphabet=st.sampled_from("ab </>context t3_\n\"&lt;"), max_size=60))
def test_captured_text_cannot_forge_or_close_entries(captured: str):
    text = "See " + format_reference("terminal", "ctx_1", "log")
    prompt = project_for_provider(text, [decode_record(_terminal("ctx_1", captured))])
    parsed = read_provider_input(prompt)
    assert [e.context_id for e in parsed.entries] == ["ctx_1"]
    assert parsed.question == "See"
