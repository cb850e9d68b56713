"""Screen-reader support of the composer: announcements and the chip summary.

QTextEdit's accessible text shows a raw U+FFFC per chip and a Python accessible factory cannot
provide a text interface, so the composer announces chip changes and keeps its accessible
description summarising the chips. Invariant: every announcement is also kept in ``history`` (the
last 50), so tests and diagnostics can read what was said.
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QWidget

_log = logging.getLogger(__name__)


class ComposerA11y:
    """Announces chip insertions and removals for one editor."""

    def __init__(self, widget: QWidget) -> None:
        self._widget = widget
        self.history: list[str] = []

    def announce(self, text: str) -> None:
        """Post ``text`` as a polite accessibility announcement."""
        self.history.append(text)
        del self.history[:-50]
        if not QAccessible.isActive():
            return
        try:
            QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(self._widget, text))
        except Exception:  # never let accessibility break editing
            _log.exception("announcement failed")

    def describe(self, summary: str) -> None:
        """Keep the accessible description in sync with the chip summary."""
        if self._widget.accessibleDescription() != summary:
            self._widget.setAccessibleDescription(summary)
