"""Row layouts of the transcript: one laid-out ``QTextDocument`` per message and width.

Invariants: a layout depends only on ``(message id, revision, width, active source, theme)`` and is
cached under that key (least recently used first out), so scrolling repaints without re-laying out;
heights are cached on the message per width and, for rows never laid out, estimated from the
text, so a 10,000-message thread opens without laying out every row; user messages are built with
a cursor so every text character and every chip occupies exactly one document position (the segment
spans map a selection back to canonical Markdown); chips are anchors ``chip:<context id>``.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from PySide6.QtCore import QUrl
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextImageFormat,
)

from composer_app.core.contracts.records import RecordBase
from composer_app.ui.transcript.copy_logic import estimate_lines
from composer_app.ui.transcript.markdown_logic import (
    MarkdownTheme,
    answer_html,
    document_css,
)
from composer_app.ui.transcript.pixmaps import chip_pixmap, token_pixmap
from composer_app.ui.transcript.presentation import PresentationRegistry
from composer_app.ui.transcript.transcript_logic import Segment, TranscriptMessage

MARGIN_X = 16
MARGIN_Y = 6
BUBBLE_PAD = 9
ACTIONS_H = 24
USER_SHARE = 0.78
USER_LINE_HEIGHT = 135.0
CHIP_SCHEME = "chip:"
_IMAGE = int(QTextDocument.ResourceType.ImageResource.value)


@dataclass
class RowLayout:
    """A laid-out message: its document, where it sits in the row, and hover texts."""

    doc: QTextDocument
    x: float
    y: float
    width: float
    height: int
    spans: list[tuple[int, int]] = field(default_factory=list)
    tooltips: dict[str, str] = field(default_factory=dict)
    text_height: int = 0


def is_dark(palette: QPalette) -> bool:
    """True for a dark window colour."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def theme_for(dark: bool) -> MarkdownTheme:
    """Answer colours for the light or dark palette."""
    if dark:
        return MarkdownTheme(
            text="#e5e7eb",
            muted="#9ca3af",
            link="#93c5fd",
            code_bg="#1f2937",
            highlight="#1e3a5f",
            rule="#4b5563",
        )
    return MarkdownTheme()


class RowRenderer:
    """Builds and caches row layouts for one view."""

    def __init__(self, registry: PresentationRegistry, capacity: int = 400) -> None:
        self.registry = registry
        self.capacity = capacity
        self.font = QFont()
        self.dark = False
        self.dpr = 1.0
        self._layouts: OrderedDict[tuple[object, ...], RowLayout] = OrderedDict()
        self._char_width: float | None = None
        self._line_height = 16.0
        self.layout_count = 0
        self.generation = 0

    def configure(self, font: QFont, dark: bool, dpr: float) -> bool:
        """Adopt the view's font, theme and pixel ratio; ``True`` when caches were dropped."""
        if font == self.font and dark == self.dark and dpr == self.dpr:
            return False
        self.font, self.dark, self.dpr = QFont(font), dark, dpr
        self.clear()
        return True

    def clear(self) -> None:
        """Forget every layout and height."""
        self._layouts.clear()
        self._char_width = None
        self.generation += 1

    # -- heights ---------------------------------------------------------------------------------

    def size_key(self, width: int) -> int:
        """The ``size_cache`` key of a width in the current font and theme."""
        return (self.generation << 20) | width

    def content_width(self, message: TranscriptMessage, width: int) -> float:
        """The text width of a message in a row ``width`` wide."""
        inner = max(40.0, width - 2 * MARGIN_X)
        if message.role == "user":
            return max(40.0, inner * USER_SHARE - 2 * BUBBLE_PAD)
        return inner

    def height(self, message: TranscriptMessage, width: int) -> tuple[int, bool]:
        """``(height, exact)``: the laid-out height when known, else a cheap estimate."""
        key = self.size_key(width)
        cached = message.size_cache.get(key)
        if cached is not None:
            return cached
        if self._char_width is None:
            metrics = QFontMetricsF(self.font)
            self._char_width = max(1.0, metrics.averageCharWidth())
            self._line_height = metrics.lineSpacing() * 1.15
        per_line = int(self.content_width(message, width) / self._char_width)
        lines = estimate_lines(message.text, per_line)
        estimate = (round(lines * self._line_height) + self._chrome(message), False)
        message.size_cache[key] = estimate
        return estimate

    def _chrome(self, message: TranscriptMessage) -> int:
        extra = 2 * MARGIN_Y
        if message.role == "user":
            return extra + 2 * BUBBLE_PAD + (ACTIONS_H if message.delivery else 0)
        return extra + (ACTIONS_H if not message.streaming else 4)

    # -- layouts ---------------------------------------------------------------------------------

    def layout(
        self, message: TranscriptMessage, width: int, active: str | None = None
    ) -> RowLayout:
        """The cached layout of ``message`` at ``width`` with ``active`` source highlighted."""
        key = (message.message_id, message.revision, width, active)
        cached = self._layouts.get(key)
        if cached is not None:
            self._layouts.move_to_end(key)
            return cached
        self.layout_count += 1
        built = (
            self._user(message, width)
            if message.role == "user"
            else self._assistant(message, width, active)
        )
        message.size_cache[self.size_key(width)] = (built.height, True)
        self._layouts[key] = built
        while len(self._layouts) > self.capacity:
            self._layouts.popitem(last=False)
        return built

    def _document(self) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(self.font)
        doc.setDocumentMargin(0)
        doc.setUndoRedoEnabled(False)
        return doc

    def _user(self, message: TranscriptMessage, width: int) -> RowLayout:
        doc = self._document()
        text, records = message.resolved()
        cursor = QTextCursor(doc)
        spacing = QTextBlockFormat()
        proportional = QTextBlockFormat.LineHeightTypes.ProportionalHeight
        spacing.setLineHeight(USER_LINE_HEIGHT, int(proportional.value))
        cursor.setBlockFormat(spacing)
        plain = QTextCharFormat()
        spans: list[tuple[int, int]] = []
        tooltips: dict[str, str] = {}
        for number, segment in enumerate(message.segments()):
            start = cursor.position()
            if segment.kind is None:
                cursor.insertText(text[segment.start : segment.end], plain)
            else:
                self._insert_chip(doc, cursor, segment, records, f"chip-image:{number}", tooltips)
            spans.append((start, cursor.position()))
        gallery = message.gallery()
        if gallery:
            cursor.insertBlock()
            caption = QTextCharFormat()
            caption.setForeground(QColor(theme_for(self.dark).muted))
            cursor.insertText("Attached ", caption)
            shown = records | message.loose_attachments()
            for number, segment in enumerate(gallery):
                if number:
                    cursor.insertText(" ", plain)
                self._insert_chip(doc, cursor, segment, shown, f"gallery:{number}", tooltips)
        inner = self.content_width(message, width)
        doc.setTextWidth(inner)
        used = min(inner, doc.idealWidth())
        doc.setTextWidth(max(used, 1.0) + 0.5)
        bubble_w = doc.textWidth() + 2 * BUBBLE_PAD
        x = width - MARGIN_X - bubble_w + BUBBLE_PAD
        # the proportional line height also pads below the last line: leave that out
        trailing = QFontMetricsF(self.font).lineSpacing() * (USER_LINE_HEIGHT / 100 - 1)
        text_h = round(doc.size().height() - trailing)
        height = text_h + self._chrome(message)
        return RowLayout(
            doc, x, MARGIN_Y + BUBBLE_PAD, doc.textWidth(), height, spans, tooltips, text_h
        )

    def _insert_chip(
        self,
        doc: QTextDocument,
        cursor: QTextCursor,
        segment: Segment,
        records: dict[str, RecordBase],
        name: str,
        tooltips: dict[str, str],
    ) -> None:
        record = records.get(segment.context_id or "")
        look = self.registry.compact(segment.kind or "", segment.label, record)
        pix = chip_pixmap(look, segment.label, self.font, dark=self.dark, dpr=self.dpr)
        doc.addResource(_IMAGE, QUrl(name), pix)
        fmt = QTextImageFormat()
        fmt.setName(name)
        fmt.setWidth(pix.width() / pix.devicePixelRatio())
        fmt.setHeight(pix.height() / pix.devicePixelRatio())
        fmt.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignMiddle)
        href = f"{CHIP_SCHEME}{segment.context_id}"
        fmt.setAnchor(True)
        fmt.setAnchorHref(href)
        fmt.setProperty(QTextFormat.Property.ImageTitle, look.description)
        cursor.insertImage(fmt)
        tooltips[href] = look.tooltip

    def _assistant(self, message: TranscriptMessage, width: int, active: str | None) -> RowLayout:
        doc = self._document()
        theme = theme_for(self.dark)
        doc.setDefaultStyleSheet(document_css(theme))
        answer = message.answer()
        tooltips: dict[str, str] = {}
        for block_tokens in answer.tokens.values():
            for number, entry_id in block_tokens:
                pix = token_pixmap(
                    number, self.font, dark=self.dark, dpr=self.dpr, active=entry_id == active
                )
                doc.addResource(_IMAGE, QUrl(f"token:{number}"), pix)
        highlight = answer.blocks_of(active) if active else []
        doc.setHtml(
            answer_html(
                message.text,
                tokens=answer.tokens,
                labels=answer.labels,
                highlight=highlight,
                streaming=message.streaming,
                theme=theme,
            )
        )
        doc.setTextWidth(self.content_width(message, width))
        height = round(doc.size().height()) + self._chrome(message)
        return RowLayout(
            doc,
            MARGIN_X,
            MARGIN_Y,
            doc.textWidth(),
            height,
            [],
            tooltips,
            round(doc.size().height()),
        )

