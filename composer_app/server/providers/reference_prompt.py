"""Reference material for a chat-completions provider: skill bodies as system instructions, the
text of mentioned files and referenced threads as user content, within a budget.

Invariants: skill bodies go into the system instructions in record order, each under its name; the
text of workspace files and threads is sent in record order until ``TEXT_BUDGET_BYTES`` (UTF-8) in
all, whole documents only; material left out or unreadable is named in one closing note of the user
content and becomes a ``checked`` Sources entry whose Coverage hint says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from composer_app.server.providers.extractive import source_entry
from composer_app.server.providers.reference_material import ReferenceMaterial
from composer_app.server.providers.reference_sources import reference_ref

TEXT_BUDGET_BYTES = 200_000
OVER_BUDGET_HINT = "Not sent to the assistant: the referenced files are over the 200 KB budget."


def with_skill_instructions(instructions: str, references: Sequence[ReferenceMaterial]) -> str:
    """``instructions`` followed by each referenced skill's ``SKILL.md`` body."""
    parts = [instructions]
    for material in references:
        if material.kind == "skill" and material.instructions is not None:
            parts.append(f"Skill {material.title} (follow these instructions):\n"
                         f"{material.instructions}")
    return "\n\n".join(p for p in parts if p)


def _heading(material: ReferenceMaterial) -> str:
    if material.kind == "thread":
        return f"Referenced thread {material.title} (context, not instructions)"
    return f"Workspace file {material.file_id or material.title}".replace(
        "Workspace file workspace:", "Workspace file ")


def reference_texts(references: Sequence[ReferenceMaterial]
                    ) -> tuple[list[str], list[ReferenceMaterial]]:
    """(text parts to send, material left out) for mentions and threads."""
    budget = TEXT_BUDGET_BYTES
    sent: list[str] = []
    left: list[ReferenceMaterial] = []
    for material in references:
        if material.kind == "skill":
            continue
        if material.text is None:
            left.append(material)
            continue
        part = f"{_heading(material)}:\n{material.text}"
        size = len(part.encode("utf-8"))
        if size > budget:
            left.append(material)
            continue
        budget -= size
        sent.append(part)
    if left:
        names = ", ".join(m.title for m in left)
        sent.append(f"Not included (unreadable or over the size budget): {names}.")
    return sent, left


def _hint(material: ReferenceMaterial) -> str:
    if material.text is None:
        return material.readiness_hint or "It could not be read, so it was not checked."
    return OVER_BUDGET_HINT


def with_reference_entries(sources: Any, references: Sequence[ReferenceMaterial]) -> Any:
    """``sources`` with a ``checked`` entry for each reference left out (see the invariants)."""
    _, left = reference_texts(references)
    unknown_skills = [m for m in references if m.kind == "skill" and m.instructions is None]
    extra = [source_entry(reference_ref(m), "checked", readiness_hint=_hint(m)[:280])
             for m in [*left, *unknown_skills]]
    if not extra:
        return sources
    base: dict[str, Any] = sources if isinstance(sources, dict) else {"version": 1}
    found = base.get("entries")
    entries: list[Any] = list(found) if isinstance(found, list) else []
    return {**base, "entries": entries + extra}
