"""Wire dicts of the records carried by legacy terminal, element and preview blocks
(docs/contract.md §7.2 steps 6–8).

Invariants: builders return wire dicts that ``decode_record`` still has to validate (the upgrade is
atomic, so schema failures are judged there); an entry header that does not parse and a malformed
block raise ``MalformedBlock``. Field lines are matched with their single space (``url: ``).
"""

from __future__ import annotations

import re
from typing import Any

from composer_app.core.codecs.legacy._blocks import (
    ELEMENT_TAG,
    STYLE_CHANGES_HEADING,
    Entry,
    MalformedBlock,
    parse_entries,
    parse_int,
    split_lines,
    terminal_slug,
)
from composer_app.core.text import WS

# ``(.+) line ([0-9]+)`` or ``(.+) lines ([0-9]+)-([0-9]+)``: the two endings exclude each other,
# so one pattern with both alternatives matches exactly the headers either one matches.
_TERMINAL_HEADER = re.compile(r"(.+) (?:line ([0-9]+)|lines ([0-9]+)-([0-9]+))")
_LINE_NUMBER = re.compile(r"^[0-9]+ \| ?", re.MULTILINE)
_ELEMENT_HEADER = re.compile(r"<([^>\n]+)>")
_UPPER = re.compile(r"[A-Z]")
_SOURCE = re.compile(r"(.+?)(?::([0-9]+)(?::([0-9]+))?)?")
_HTTP = re.compile(r"[Hh][Tt][Tt][Pp][Ss]?://")
_NESTED_OPEN = "<" + ELEMENT_TAG + ">"
_NESTED_CLOSE = "</" + ELEMENT_TAG + ">"


def terminal_wire(entry: Entry, number: int) -> dict[str, Any]:
    """A terminal record from a ``- <label> line N:`` / ``lines A-B:`` entry (docs/contract.md §7.2
    step 6)."""
    header = entry.header
    match = _TERMINAL_HEADER.fullmatch(header)
    if match is None:
        raise MalformedBlock(header)
    label, single, start, end = match.group(1, 2, 3, 4)
    if single is not None:
        line_start = line_end = parse_int(single)
    else:
        line_start, line_end = parse_int(start), parse_int(end)
    terminal_label = label.strip(WS)
    return {
        "version": 1,
        "contextId": f"legacy_terminal_{number}",
        "kind": "terminal",
        "label": header,
        "terminalId": terminal_slug(terminal_label),
        "terminalLabel": terminal_label,
        "lineStart": line_start,
        "lineEnd": line_end,
        "text": _LINE_NUMBER.sub("", "\n".join(entry.body)),
    }


def _source(value: str) -> dict[str, Any] | None:
    match = _SOURCE.fullmatch(value) if value else None
    if match is None:
        return None
    file_name, line, column = match.group(1, 2, 3)
    return {
        "functionName": None,
        "fileName": file_name,
        "lineNumber": None if line is None else parse_int(line),
        "columnNumber": None if column is None else parse_int(column),
    }


def element_details(entry: Entry) -> tuple[str, dict[str, Any]]:
    """``(label, ElementDetails wire dict)`` of a ``- <Inner> ...:`` entry (docs/contract.md §7.2
    step 7)."""
    header = _ELEMENT_HEADER.match(entry.header)
    if header is None:
        raise MalformedBlock(entry.header)
    inner = header.group(1)
    page_url = ""
    selector: str | None = None
    source: dict[str, Any] | None = None
    sections = {"html": "", "styles": ""}
    section: str | None = None
    section_lines: list[str] = []
    for line in entry.body:
        if section is not None:
            if line.startswith("  "):
                section_lines.append(line[2:])
                continue
            sections[section] = "\n".join(section_lines)
            section = None
        if line in ("html:", "styles:"):
            section, section_lines = line[:-1], []
        elif line.startswith("url: "):
            page_url = line[5:].strip(WS)
        elif line.startswith("selector: "):
            selector = line[10:].strip(WS)
        elif line.startswith("source: "):
            source = _source(line[8:].strip(WS))
    if section is not None:
        sections[section] = "\n".join(section_lines)
    details = {
        "pageUrl": page_url,
        "pageTitle": None,
        "tagName": inner.lower(),
        "selector": selector,
        "htmlPreview": sections["html"],
        "componentName": inner if _UPPER.search(inner) else None,
        "source": source,
        "styles": sections["styles"],
    }
    return "<" + inner + ">", details


def element_wire(entry: Entry, number: int) -> dict[str, Any]:
    """An element record from an element entry."""
    label, details = element_details(entry)
    head = {
        "version": 1,
        "contextId": f"legacy_element_{number}",
        "kind": "element",
        "label": label,
    }
    return head | details


def _split_nested_elements(lines: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
    """The preview's own lines, and the details of its nested element blocks."""
    own: list[str] = []
    elements: list[dict[str, Any]] = []
    index = 0
    count = len(lines)
    while index < count:
        line = lines[index]
        if line == _NESTED_OPEN:
            try:
                close = lines.index(_NESTED_CLOSE, index + 1)
            except ValueError:
                close = -1
            if close >= 0:
                for entry in parse_entries(lines[index + 1 : close]):
                    elements.append(element_details(entry)[1])
                index = close + 1
                continue
        own.append(line)
        index += 1
    return own, elements


def preview_wire(content: str, number: int) -> dict[str, Any]:
    """A preview-annotation record from a ``<preview_annotation>`` block (docs/contract.md §7.2 step
    8).

    The first ``Id:``/``Page:``/``Comment:``/``Targets:`` line and the first style-change list win.
    """
    lines, elements = _split_nested_elements(split_lines(content))
    fields: dict[str, str] = {}
    style_changes: list[str] | None = None
    for index, line in enumerate(lines):
        for prefix in ("Id: ", "Page: ", "Comment: ", "Targets: "):
            if line.startswith(prefix):
                fields.setdefault(prefix, line[len(prefix) :].strip(WS))
                break
        else:
            if line == STYLE_CHANGES_HEADING and style_changes is None:
                style_changes = []
                for change in lines[index + 1 :]:
                    if not change.startswith("- "):
                        break
                    style_changes.append(change[2:])
    page = fields.get("Page: ", "")
    if _HTTP.match(page):
        page_url, page_title = page, None
    else:
        page_url = str(elements[0]["pageUrl"]) if elements else ""
        page_title = page or None
    wire: dict[str, Any] = {
        "version": 1,
        "contextId": f"legacy_preview-annotation_{number}",
        "kind": "preview-annotation",
        "label": page or "Preview annotation",
        "annotationId": fields.get("Id: ", ""),
        "pageUrl": page_url,
        "pageTitle": page_title,
        "comment": fields.get("Comment: ", ""),
        "targetSummary": fields.get("Targets: ", ""),
        "styleChanges": style_changes or [],
    }
    if elements:
        wire["elements"] = elements
    return wire
