"""Reading a projected provider input back into the question and its context entries.

The provider input is ``project_for_provider(text, records)`` (docs/contract.md §6): prose with
``[Display: label; ref=id]`` markers, then one trailing ``<t3_context version="1">`` envelope. The
local provider needs both halves: the prose (with markers read as their labels) is the question,
and each available envelope entry is a context passage (terminal text, review comment, ...).

Invariants: the envelope is recognised only as the exact trailing form the projection writes, so
captured text cannot forge an entry (docs/contract.md §6.4 escapes every
``<context``/``<t3_context`` inside bodies); unavailable entries carry no text and are skipped; a
prompt without an envelope is all question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from composer_app.core.codecs.projection import ATTACHMENT_ONLY_BOOTSTRAP_PROMPT

ENVELOPE_OPEN = '\n\n<t3_context version="1">\n'
ENVELOPE_CLOSE = "\n</t3_context>"

_ENTRY = re.compile(r'<context kind="([^"]*)" id="([^"]*)">\n(.*?)\n</context>', re.DOTALL)
_MARKER = re.compile(r"\[([A-Z][^:\[\]\n]*): ([^;\]\n]*); ref=([A-Za-z0-9_-]{1,128})\]")
_ESCAPED_TAG = re.compile(r"&lt;(?=/?(?:[Tt]3_)?[Cc][Oo][Nn][Tt][Ee][Xx][Tt](?![A-Za-z0-9_]))")


@dataclass(frozen=True, slots=True)
class ContextPassage:
    """One available context entry: its kind, context id, display label and body text."""

    kind: str
    context_id: str
    label: str
    body: str


@dataclass(frozen=True, slots=True)
class ProviderInput:
    """The question (markers replaced by their labels) and the context entries, in order."""

    question: str
    entries: tuple[ContextPassage, ...]
    attachment_only: bool = False


def _unescape_attribute(value: str) -> str:
    return value.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace(
        "&amp;", "&"
    )


def kind_display(kind: str) -> str:
    """``review-comment`` -> ``Review comment`` (the marker's display form)."""
    text = kind.replace("-", " ")
    return text[:1].upper() + text[1:]


def read_provider_input(prompt: str) -> ProviderInput:
    """Split a projected provider input (see the module invariant)."""
    if prompt.strip() == ATTACHMENT_ONLY_BOOTSTRAP_PROMPT:
        return ProviderInput("", (), attachment_only=True)
    body, envelope = prompt, ""
    start = prompt.rfind(ENVELOPE_OPEN)
    if start >= 0 and prompt.endswith(ENVELOPE_CLOSE):
        body = prompt[:start]
        envelope = prompt[start + len(ENVELOPE_OPEN) : -len(ENVELOPE_CLOSE)]
    labels: dict[str, str] = {}
    for match in _MARKER.finditer(body):
        labels.setdefault(match.group(3), match.group(2).strip())
    # A reference's label names where to look, not what to find: the question is searched without
    # the labels unless nothing else is left of it ("Summarize [report.pdf]").
    question = " ".join(_MARKER.sub(" ", body).split())
    if not any(ch.isalnum() for ch in question):
        question = _MARKER.sub(lambda m: m.group(2), body)
    entries = []
    for match in _ENTRY.finditer(envelope):
        kind = _unescape_attribute(match.group(1))
        context_id = _unescape_attribute(match.group(2))
        text = _ESCAPED_TAG.sub("<", match.group(3))
        label = labels.get(context_id) or kind_display(kind)
        entries.append(ContextPassage(kind, context_id, label, text))
    return ProviderInput(question.strip(), tuple(entries))
