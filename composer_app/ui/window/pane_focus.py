"""``PaneFocus``: F6 and Shift+F6 move the keyboard focus from pane to pane.

Invariants: the panes are those ``panes()`` returns, in order (the window gives the thread list,
the centre page — transcript or empty page —, the composer and the Sources panel); hidden or
disabled panes are skipped (``main_window_logic.next_pane``); focusing a pane that takes no focus
itself focuses its first visible child that does; the pane F6 reached gets a visible
``FocusFrame`` until the focus leaves it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QWidget

from composer_app.ui.window import main_window_logic as logic
from composer_app.ui.window.focus_frame import FocusFrame

__all__ = ["PaneFocus"]


class PaneFocus(QObject):
    """Cycles the focus through the panes ``panes()`` lists."""

    def __init__(self, panes: Callable[[], Sequence[QWidget]],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._panes = panes
        self.frame: FocusFrame | None = None  # drawn around the pane F6 reached

    def panes(self) -> list[QWidget]:
        """The panes F6 cycles through, in order."""
        return list(self._panes())

    def focused_pane(self) -> int:
        """The index of the pane holding the focus (-1: none)."""
        focus = QApplication.focusWidget()
        for index, pane in enumerate(self.panes()):
            if focus is not None and (focus is pane or pane.isAncestorOf(focus)):
                return index
        return -1

    def focus_next_pane(self) -> None:
        """F6."""
        self._cycle(1)

    def focus_previous_pane(self) -> None:
        """Shift+F6."""
        self._cycle(-1)

    def _cycle(self, step: int) -> None:
        panes = self.panes()
        visible = [p.isVisible() and p.isEnabled() for p in panes]
        index = logic.next_pane(visible, self.focused_pane(), step)
        if index >= 0:
            self._focus(panes[index])
            self._show_frame(panes[index])

    def _show_frame(self, pane: QWidget) -> None:
        """Frame the pane F6 reached, so the user sees where the keys now go."""
        window = pane.window()
        if self.frame is None or self.frame.parentWidget() is not window:
            self.frame = FocusFrame(window)
        self.frame.frame(pane)

    @staticmethod
    def _focus(pane: QWidget) -> None:
        if pane.focusPolicy() != Qt.FocusPolicy.NoFocus:
            pane.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
        for child in pane.findChildren(QWidget):
            if child.isVisible() and child.focusPolicy() != Qt.FocusPolicy.NoFocus:
                child.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return
        pane.setFocus(Qt.FocusReason.ShortcutFocusReason)
