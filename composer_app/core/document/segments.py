"""Canonical prompt Markdown as a sequence of text runs and chips.

Invariants: ``join_segments(split_markdown(t)) == t`` for every ``t`` whose labels are sanitized
and whose image links carry their ``!``; text runs never contain U+FFFC (it is dropped from text on
the way in); adjacent text runs are merged; a chip is written back as
``format_reference(kind, context_id, label)``.

A ``!`` right before a link that is not an image's belongs to the prose, not to the chip:
``format_reference`` never writes it there, so it can only be text the user typed (``Wow!`` before a
file chip), and reading it as part of the link would drop it on the next load.
"""

from __future__ import annotations

from dataclasses import dataclass

from composer_app.core.codecs.references import Reference, collect_references, format_reference

OBJECT_REPLACEMENT = "\ufffc"


def chip_start(ref: Reference) -> int:
    """Where the chip of ``ref`` starts: after a ``!`` that an image link alone owns."""
    return ref.start + 1 if ref.image and ref.kind != "image" else ref.start


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
        start = chip_start(ref)
        if start > last:
            run = text[last:start]
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
