"""How the composer editor shows chips: looks, tooltips, selection, theme, accessible text.

Invariants: a chip's look is derived from the draft (record, state) and cached until records,
states, palette or font change; the tooltip of a chip under the pointer is its state-aware one
(why it is unresolved, why it expired); the accessible summary lists chips in document order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QToolTip

from composer_app.ui.composer.editor_logic import ChipLook, chip_look, describe_chips

_TOOLTIP = QEvent.Type.ToolTip

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor

    _Base = ComposerEditor
else:
    _Base = object


class ComposerLooks(_Base):
    """Chip presentation for ``ComposerEditor``; mixed in before ``QTextEdit``."""

    def _look(self, kind: str, context_id: str, label: str) -> ChipLook:
        key = (kind, context_id, label)
        look = self._looks.get(key)
        if look is None:
            record = self.draft.records.get(context_id)
            state = self.draft.state_of(context_id) if record is not None else None
            if record is not None and record.kind != kind:
                record = None
            look = self._looks[key] = chip_look(kind, label, record, state)
        return look

    def invalidate_looks(self) -> None:
        """Forget cached chip looks (records or states changed) and repaint."""
        self._looks.clear()
        self.viewport().update()

    def _is_selected(self, pos: int) -> bool:
        start, end = self._selection
        return start <= pos < end

    def _is_dark(self) -> bool:
        if self._dark is None:
            self._dark = self.palette().base().color().lightness() < 128
        return self._dark

    def describe_chip(self, kind: str, context_id: str, label: str) -> str:
        """Spoken description of a chip, e.g. ``a.ts L4 (review comment)``."""
        return self._look(kind, context_id, label).description

    def chip_summary(self) -> str:
        """The accessible summary of the chips, in document order."""
        return describe_chips(
            self.describe_chip(o.kind, o.context_id, o.label) for o in self._tracker.occurrences
        )

    def chip_tooltip(self, kind: str, context_id: str, label: str) -> str:
        """The tooltip of a chip (says why when it is unresolved or expired)."""
        return self._look(kind, context_id, label).tooltip

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._apply_font()
            if not self.document().isEmpty():
                self.load_draft(self.snapshot())
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange,
                            QEvent.Type.StyleChange):
            self._chip_renderer.invalidate()
            self._looks.clear()
            self._dark = None
        super().changeEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == _TOOLTIP:
            chip = self.chip_at(event.pos())  # type: ignore[attr-defined]
            if chip is not None:
                QToolTip.showText(event.globalPos(), self.chip_tooltip(*chip), self)  # type: ignore[attr-defined]
                return True
        return super().viewportEvent(event)

