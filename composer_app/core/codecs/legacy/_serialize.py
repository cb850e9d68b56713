"""``serialize_legacy_message`` (docs/contract.md §7.3): the legacy form for a destination that
does not advertise inline context.

Invariants: pure; nothing is silently dropped (every terminal, element and preview record gets a
block, every review not referenced inline gets a trailing review block); review bodies use the
``escaped-tags`` encoding, so captured text cannot end its block; single-line fields never hold a
line break (docs/contract.md §7.3); ``upgrade_legacy_message`` of the result restores what it can
carry.
"""

from __future__ import annotations

from collections.abc import Sequence

from composer_app.core.codecs.legacy._blocks import (
    ELEMENT_TAG,
    ESCAPED_TAGS,
    PREVIEW_TAG,
    REVIEW_CLOSE,
    REVIEW_TAG,
    SCREENSHOT_SENTENCE,
    STYLE_CHANGES_HEADING,
    TERMINAL_TAG,
    encode_escaped_tags,
    escape_attribute,
    longest_backtick_run,
    materialized_terminal_label,
    single_line,
    terminal_range,
)
from composer_app.core.codecs.projection import records_by_id
from composer_app.core.codecs.references import Reference, replace_references
from composer_app.core.contracts.records import (
    ElementDetails,
    ElementRecord,
    PreviewAnnotationRecord,
    RecordBase,
    ReviewCommentRecord,
    TerminalRecord,
)
from composer_app.core.text import WS

_NOT_A_HEADER = frozenset(WS + "<>")


def _terminal_entry(record: TerminalRecord) -> str:
    start, end = record.line_start, record.line_end
    noun = "line" if start == end else "lines"
    header = f"- {single_line(record.terminal_label)} {noun} {terminal_range(start, end)}:"
    count = end - start + 1
    text = record.text.replace("\r\n", "\n").strip("\n")
    lines = text.split("\n", count)[:count]
    body = (f"  {start + offset} | {line}" for offset, line in enumerate(lines))
    return "\n".join([header, *body])


def _indented_section(name: str, value: str) -> list[str]:
    value = value.strip(WS)
    if not value:
        return []
    return [f"  {name}:", *("    " + line for line in value.split("\n"))]


def _element_entry(details: ElementRecord | ElementDetails) -> str:
    component = details.component_name
    if component and not _NOT_A_HEADER.intersection(component):
        name = component
    else:
        name = details.tag_name
    lines = [f"- <{single_line(name)}>:", "  url: " + single_line(details.page_url)]
    if details.selector:
        lines.append("  selector: " + single_line(details.selector))
    source = details.source
    if source is not None and source.file_name:
        location = single_line(source.file_name)
        if source.line_number is not None:
            location += f":{source.line_number}"
            if source.column_number is not None:
                location += f":{source.column_number}"
        lines.append("  source: " + location)
    lines.extend(_indented_section("html", details.html_preview))
    lines.extend(_indented_section("styles", details.styles))
    return "\n".join(lines)


def _element_block(elements: Sequence[ElementRecord | ElementDetails]) -> str:
    entries = "\n\n".join(_element_entry(element) for element in elements)
    return f"<{ELEMENT_TAG}>\n{entries}\n</{ELEMENT_TAG}>"


def _preview_block(record: PreviewAnnotationRecord) -> str:
    title = (record.page_title or "").strip(WS)
    lines = [
        f"<{PREVIEW_TAG}>",
        "Preview annotation:",
        "Id: " + record.annotation_id,
        "Page: " + single_line(title or record.page_url),
    ]
    comment = record.comment.strip(WS)
    if comment:
        lines.append("Comment: " + comment)
    if record.target_summary:
        lines.append("Targets: " + single_line(record.target_summary))
    if record.style_changes:
        lines.append(STYLE_CHANGES_HEADING)
        lines.extend("- " + change for change in record.style_changes)
    if record.screenshot_context_id:
        lines.append(SCREENSHOT_SENTENCE)
    if record.elements:
        lines.append(_element_block(record.elements))
    lines.append(f"</{PREVIEW_TAG}>")
    return "\n".join(lines)


def review_block(record: ReviewCommentRecord) -> str:
    """The ``<review_comment ...>`` block of a review record (docs/contract.md §7.3 step 4)."""
    attributes = [
        ("sectionId", record.section_id),
        ("sectionTitle", record.section_title),
        ("filePath", record.file_path),
        ("rangeLabel", record.range_label),
    ]
    if record.source_revision:
        attributes.append(("sourceRevision", record.source_revision))
    if record.source_stale is True:
        attributes.append(("sourceStale", "true"))
    attributes.append(("startIndex", str(record.start_index)))
    attributes.append(("endIndex", str(record.end_index)))
    attributes.append(("bodyEncoding", ESCAPED_TAGS))
    head = f"<{REVIEW_TAG}" + "".join(
        f' {name}="{escape_attribute(value)}"' for name, value in attributes
    )
    body = encode_escaped_tags(record.text)
    if record.diff:
        fence = "`" * max(3, longest_backtick_run(record.diff) + 1)
        language = record.fence_language or "diff"
        body += f"\n\n{fence}{language}\n{encode_escaped_tags(record.diff)}\n{fence}"
    return f"{head}>\n{body}\n{REVIEW_CLOSE}"


def serialize_legacy_message(text: str, records: Sequence[RecordBase]) -> str:
    """``text`` and ``records`` folded into the legacy text-only form (docs/contract.md §7.3)."""
    by_id = records_by_id(records)
    inline_reviews: set[str] = set()

    def fold(ref: Reference) -> str:
        record = by_id.get(ref.context_id)
        if record is None:
            return ref.source
        if isinstance(record, ReviewCommentRecord):
            inline_reviews.add(record.context_id)
            return review_block(record)
        if isinstance(record, TerminalRecord):
            return materialized_terminal_label(
                record.terminal_label, record.line_start, record.line_end
            )
        return record.label

    body = replace_references(text, fold)
    terminals = [record for record in records if isinstance(record, TerminalRecord)]
    elements = [record for record in records if isinstance(record, ElementRecord)]
    previews = [record for record in records if isinstance(record, PreviewAnnotationRecord)]
    reviews = [
        record
        for record in records
        if isinstance(record, ReviewCommentRecord) and record.context_id not in inline_reviews
    ]
    if not (terminals or elements or previews or reviews):
        return body
    blocks: list[str] = []
    if terminals:
        entries = "\n\n".join(_terminal_entry(record) for record in terminals)
        blocks.append(f"<{TERMINAL_TAG}>\n{entries}\n</{TERMINAL_TAG}>")
    if elements:
        blocks.append(_element_block(elements))
    blocks.extend(_preview_block(record) for record in previews)
    blocks.extend(review_block(record) for record in reviews)
    prose = body.rstrip(WS)
    return (prose + "\n\n" if prose else "") + "\n\n".join(blocks)
