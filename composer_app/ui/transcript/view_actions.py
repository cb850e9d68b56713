"""What the transcript view does on activation, hover and copy, kept apart from painting.

Invariants: a chip opens its registry-declared expanded surface (popover, media viewer, asset
callback or pull-request URL) and nothing else; public threads get no file-open or download path;
URLs reach the app's opener only when they are safe http(s) links; token cards show title, source
label, account label and snippet — never ids; the clipboard receives exactly ``clipboard_payload``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QPoint, QRect, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFontMetrics,
    QGuiApplication,
    QPalette,
    QTextCharFormat,
    QTextCursor,
)

from composer_app.core.codecs.sources import is_safe_link, link_host
from composer_app.ui.composer.mime import fresh_mime_data
from composer_app.ui.transcript.copy_logic import (
    clipboard_payload,
    fragment_source,
    plain_selection,
)
from composer_app.ui.transcript.popovers import DetailsPopover, MediaViewer
from composer_app.ui.transcript.render import ACTIONS_H, BUBBLE_PAD, MARGIN_X, RowLayout, is_dark
from composer_app.ui.transcript.sources_logic import build_row
from composer_app.ui.transcript.transcript_logic import TranscriptMessage, selected_source

if TYPE_CHECKING:
    from composer_app.ui.transcript.keyboard_focus import FocusItem
    from composer_app.ui.transcript.view import TranscriptView


UNSENT_ACTIONS = (("retry", "Retry"), ("edit", "Edit"), ("delete", "Delete"))
STATUS_ICON_W = 18


def delivery_rects(
    message: TranscriptMessage, layout: RowLayout, rect: QRect, metrics: QFontMetrics
) -> list[tuple[str, str, QRect]]:
    """The line under a user bubble that has not reached the server, right-aligned with the
    bubble: ``status`` (its text area starts after the icon) then, once it failed, Retry / Edit /
    Delete."""
    delivery = message.delivery
    if message.role != "user" or delivery is None:
        return []
    state, text = delivery
    top = round(rect.top() + layout.y + layout.text_height + BUBBLE_PAD + 4)
    height = ACTIONS_H - 6
    right = round(rect.left() + layout.x + layout.width + BUBBLE_PAD)
    actions = UNSENT_ACTIONS if state == "failed" else ()
    widths = [metrics.horizontalAdvance(label) for _, label in actions]
    room = right - rect.left() - MARGIN_X - sum(w + 14 for w in widths) - STATUS_ICON_W
    shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(40, room))
    status_w = STATUS_ICON_W + metrics.horizontalAdvance(shown)
    x = right - status_w - sum(w + 14 for w in widths)
    out = [("status", shown, QRect(x, top, status_w, height))]
    x += status_w + 14
    for (name, label), width in zip(actions, widths, strict=True):
        out.append((name, label, QRect(x, top, width, height)))
        x += width + 14
    return out


def action_rects(
    message: TranscriptMessage, layout: RowLayout, rect: QRect, metrics: QFontMetrics
) -> list[tuple[str, str, QRect]]:
    """``(action, text, area)`` of the row's action bar (assistant messages, once complete; the
    delivery line of an unsent user message, whose ``status`` entry is not clickable)."""
    if message.role == "user":
        return delivery_rects(message, layout, rect, metrics)
    if message.streaming:
        return []
    top = round(rect.top() + layout.y + layout.text_height + 4)
    height = ACTIONS_H - 6
    x = round(rect.left() + layout.x)
    out: list[tuple[str, str, QRect]] = []
    labels = [("copy", "Copy")]
    sources = message.sources_action()
    if sources:
        labels.append(("sources", sources))
    for name, text in labels:
        width = metrics.horizontalAdvance(text)
        out.append((name, text, QRect(x, top, width, height)))
        x += width + 18
    return out


def write_clipboard(payload: dict[str, str]) -> None:
    """Put a copy payload on the system clipboard (``text/plain`` plus optional formats)."""
    data = fresh_mime_data()  # a Python-made QMimeData left on the clipboard crashes at exit
    data.setText(payload["text/plain"])
    for mime, value in payload.items():
        if mime == "text/html":
            data.setHtml(value)
        elif mime != "text/plain":
            data.setData(mime, QByteArray(value.encode("utf-8")))
    QGuiApplication.clipboard().setMimeData(data)


def _open_url(view: TranscriptView, url: str) -> bool:
    if not is_safe_link(url):
        return False
    view.link_activated.emit(url)
    if view.url_opener is not None:
        view.url_opener(url)
    return True


def open_chip(
    view: TranscriptView, message: TranscriptMessage, context_id: str, global_pos: QPoint | None
) -> str:
    """Open the expanded surface of a chip (what the record points at when ``view.chip_opener``
    opens it); returns ``opened``, ``popover``, ``media``, ``asset``, ``url`` or ``none``."""
    segment = message.chip(context_id)
    if segment is None or segment.kind is None:
        return "none"
    record = message.record(context_id)
    if (record is not None and view.chip_opener is not None
            and not view.transcript_model().public and view.chip_opener(record)):
        return "opened"
    registry = view.renderer.registry
    expanded = registry.expanded(segment.kind, segment.label, record)
    public = view.transcript_model().public
    where = global_pos or view.viewport().mapToGlobal(view.viewport().rect().center())
    if expanded.action == "url" and expanded.url:
        return "url" if _open_url(view, expanded.url) else "none"
    if expanded.action == "asset":
        if public or view.asset_opener is None or record is None:
            return "none"
        view.asset_opener(record)
        return "asset"
    if expanded.action == "media" and record is not None:
        data = view.media_loader(record) if view.media_loader is not None else None
        opener = view.asset_opener
        view.media_viewer = MediaViewer(
            getattr(record, "name", segment.label),
            data,
            view,
            open_asset=(lambda: opener(record)) if opener is not None and not public else None,
        )
        view.media_viewer.show()
        return "media"
    details = registry.details(segment.kind, segment.label, record)
    view.popover = DetailsPopover(
        details, view, dark=is_dark(view.palette()), open_link=lambda url: _open_url(view, url)
    )
    view.popover.show_at(where)
    return "popover"


def token_card(message: TranscriptMessage, entry_id: str, public: bool) -> str:
    """Hover card of an inline token: title, source label, account label and snippet."""
    answer = message.answer()
    entry = next((e for e in answer.entries if e.id == entry_id), None)
    if entry is None:
        return ""
    row = build_row(entry, answer.numbers.get(entry_id), public=public)
    lines = [row.accessible_name, row.source_label]
    if row.account:
        lines.append(row.account)
    if row.snippet and not public:
        if row.snippet_path:
            lines.append(row.snippet_path)
        lines.append(row.snippet)
    return "\n".join(lines)


def tooltip_at(view: TranscriptView, pos: QPoint) -> str:
    """The hover text at a viewport point."""
    row, what, value, _ = view.hit(pos)
    return item_text(view, row, what, value)


def focus_text(view: TranscriptView, item: FocusItem) -> str:
    """The card of a keyboard-focused item: the same text hovering it shows."""
    return item_text(view, item.row, item.what, item.value)


def item_text(view: TranscriptView, row: int, what: str, value: str) -> str:
    """The hover/focus card of one chip, token, action or link."""
    message = view.message_at(row)
    if message is None:
        return ""
    if what == "chip":
        return view.layout_for(message).tooltips.get(f"chip:{value}", "")
    if what == "cite":
        return token_card(message, value, view.transcript_model().public)
    if what == "action":
        return {"sources": "Show the sources of this answer", "copy": "Copy message",
                "retry": "Send this message again", "edit": "Take this message back into the "
                "composer", "delete": "Delete this unsent message"}.get(value, "")
    if what == "link":
        host = link_host(value) if is_safe_link(value) else None
        return f"{host} — {value}" if host else ""
    return ""


def painted_selection(
    view: TranscriptView, layout: RowLayout, anchor: int, position: int
) -> QAbstractTextDocumentLayout.Selection | None:
    """The highlight of a text selection inside one row's document."""
    if anchor == position:
        return None
    cursor = QTextCursor(layout.doc)
    cursor.setPosition(anchor)
    cursor.setPosition(position, QTextCursor.MoveMode.KeepAnchor)
    selection = QAbstractTextDocumentLayout.Selection()
    selection.cursor = cursor
    fmt = QTextCharFormat()
    fmt.setBackground(view.palette().color(QPalette.ColorRole.Highlight))
    fmt.setForeground(view.palette().color(QPalette.ColorRole.HighlightedText))
    selection.format = fmt
    return selection


def selected_markdown(
    view: TranscriptView, selection: tuple[int, int, int] | None
) -> tuple[TranscriptMessage, str] | None:
    """The message and canonical Markdown of a ``(row, anchor, position)`` selection: chips are
    copied as their links; in answers, citation pills are left out."""
    if selection is None:
        return None
    row, anchor, position = selection
    message = view.message_at(row)
    if message is None or anchor == position:
        return None
    start, end = sorted((anchor, position))
    layout = view.layout_for(message)
    if message.role == "user":
        text = message.resolved()[0]
        return message, selected_source(message.segments(), text, layout.spans, start, end)
    cursor = QTextCursor(layout.doc)
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    return message, plain_selection(cursor.selectedText())


def copy_markdown(
    view: TranscriptView, message: TranscriptMessage, markdown: str
) -> dict[str, str]:
    """Write one copy of ``markdown`` taken from ``message``; returns the payload."""
    records = message.resolved()[1] if message.role == "user" else {}
    source = fragment_source(view.environment_id, message.thread_id, message.message_id)
    payload = clipboard_payload(markdown, records, source)
    write_clipboard(payload)
    return payload
