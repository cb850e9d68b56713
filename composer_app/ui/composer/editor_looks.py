"""How the composer editor shows chips: looks, tooltips, selection, theme, accessible text.

Invariants: a chip's look is derived from the draft (record, state) and, for attachments, from the
upload's progress; it is cached until records, states, uploads, palette or font change (a cache hit
is one dict look-up: painting asks for every visible chip); the tooltip of a chip under the pointer
is its state-aware one (why it is unresolved, why it expired, how its upload is doing); the
accessible summary lists chips in document order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPoint
from PySide6.QtWidgets import QToolTip

from composer_app.ui.composer.attachments_logic import upload_phrase
from composer_app.ui.composer.editor_logic import ChipLook, chip_look, describe_chips

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor

_Key = tuple[str, str, str]
OPEN_HINT = "Click or Alt+Enter to open"
"""The second line of a chip's hover tooltip: how to open it, by mouse and by keyboard."""
_THEME_EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.FontChange, QEvent.Type.StyleChange)


class ChipLooks:
    """Looks, tooltips and selection state of one editor's chips (the renderer asks here)."""

    def __init__(self, editor: ComposerEditor) -> None:
        self._editor = editor
        self._looks: dict[_Key, ChipLook] = {}
        self._selection = (0, 0)
        self._dark: bool | None = None

    def look(self, kind: str, context_id: str, label: str) -> ChipLook:
        """The look of one chip (cached; a hit is one dict look-up)."""
        key = (kind, context_id, label)
        cached = self._looks.get(key)
        if cached is None:
            cached = self._looks[key] = self._derive(kind, context_id, label)
        return cached

    def _derive(self, kind: str, context_id: str, label: str) -> ChipLook:
        editor = self._editor
        draft = editor.draft
        record = draft.records.get(context_id)
        state = draft.state_of(context_id) if record is not None else None
        if record is not None and record.kind != kind:
            record = None
        look = chip_look(kind, label, record, state)
        if look.state != "resolved" or kind not in ("image", "file") or record is None:
            return look
        status = editor.attachments.upload_status(record.attachment_id)
        if status is None:
            return look
        if status.busy:
            return ChipLook("pending", look.tone, look.glyph,
                            f"{look.tooltip}\n{upload_phrase(status).capitalize()}",
                            look.description)
        if status.failed:
            return ChipLook("unresolved", "unresolved", look.glyph,
                            f"{look.tooltip}\nUpload failed. Click the chip to retry.",
                            look.description)
        return look

    def invalidate(self) -> None:
        """Forget cached looks (records, states or uploads changed) and repaint."""
        self._looks.clear()
        self._editor.chip_renderer.forget_pictures()
        self._editor.viewport().update()

    def is_selected(self, pos: int) -> bool:
        """True when the chip at ``pos`` is inside the editor's selection."""
        start, end = self._selection
        return start <= pos < end

    def follow_selection(self, start: int, end: int) -> None:
        """The editor's selection moved: repaint when chips may change their selected look."""
        if start != end or self._selection[0] != self._selection[1]:
            self._editor.viewport().update()
        self._selection = (start, end)

    def is_dark(self) -> bool:
        """True under a dark palette (chips use their dark tones)."""
        if self._dark is None:
            self._dark = self._editor.palette().base().color().lightness() < 128
        return self._dark

    def theme_changed(self, event: QEvent) -> bool:
        """Forget what depends on palette, font or style; True when ``event`` was such a change."""
        if event.type() not in _THEME_EVENTS:
            return False
        self._looks.clear()
        self._dark = None
        return True

    def describe_chip(self, kind: str, context_id: str, label: str) -> str:
        """Spoken description of a chip, e.g. ``a.ts L4 (review comment)``."""
        return self.look(kind, context_id, label).description

    def chip_tooltip(self, kind: str, context_id: str, label: str) -> str:
        """The tooltip of a chip (says why when it is unresolved or expired)."""
        return self.look(kind, context_id, label).tooltip

    def summary(self) -> str:
        """The accessible summary of the chips, in document order."""
        return describe_chips(
            self.describe_chip(o.kind, o.context_id, o.label)
            for o in self._editor.tracker.chips()
        )

    def show_tooltip(self, pos: QPoint, global_pos: QPoint) -> bool:
        """Show the state-aware tooltip of the chip at ``pos`` (viewport coordinates) at
        ``global_pos``; True when a chip is there."""
        chip = self._editor.chip_at(pos)
        if chip is None:
            return False
        tip = f"{self.chip_tooltip(*chip)}\n{OPEN_HINT}"
        QToolTip.showText(global_pos, tip, self._editor)
        return True
