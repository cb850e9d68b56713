"""Canonical prompt Markdown as a sequence of text runs and chips.

Invariants: ``join_segments(split_markdown(t)) == t`` for every ``t`` whose links are canonical
(labels sanitized, ``!`` exactly on image links); text runs never contain U+FFFC (it is dropped
from text on the way in); adjacent text runs are merged; a chip is written back as
``format_reference(kind, context_id, label)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from composer_app.core.codecs.references import collect_references, format_reference

OBJECT_REPLACEMENT = "\ufffc"


@dataclass(frozen=True, slots=True)
class ChipSegment:
    """One chip: the reference's kind, context id and (sanitized) label."""

    kind: str
    context_id: str
    label: str

    def markdown(self) -> str:
        """The canonical link of this chip."""
        return format_reference(self.kind, self.context_id, self.label)


Segment = str | ChipSegment


def split_markdown(text: str) -> list[Segment]:
    """Text runs and chips of ``text``, in order (references become chips).

    References to the same record with the same label share one (immutable) ``ChipSegment``.
    """
    out: list[Segment] = []
    append = out.append
    chips: dict[tuple[str, str, str], ChipSegment] = {}
    last = 0
    for ref in collect_references(text):
        if ref.start > last:
            run = text[last : ref.start]
            if OBJECT_REPLACEMENT in run:
                run = run.replace(OBJECT_REPLACEMENT, "")
            if run:
                append(run)
        key = (ref.kind, ref.context_id, ref.label)
        chip = chips.get(key)
        if chip is None:
            chip = chips[key] = ChipSegment(*key)
        append(chip)
        last = ref.end
    if last < len(text):
        tail = text[last:].replace(OBJECT_REPLACEMENT, "")
        if tail:
            append(tail)
    return out


def join_segments(segments: list[Segment]) -> str:
    """The canonical Markdown of ``segments``."""
    return "".join(s if isinstance(s, str) else s.markdown() for s in segments)
