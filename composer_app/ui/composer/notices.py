"""``NoticeBar``: the composer's small toast for notices (refused files, failed imports, sends).

Invariants: it shows the newest notice (title in bold, detail below), keeps at most
``MAX_NOTICES`` recent notices in ``history`` for screen readers and tests, announces each one as
an accessibility event, and hides itself ``timeout_ms`` after the last notice (or when clicked).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from composer_app.ui.composer.a11y import ComposerA11y

MAX_NOTICES = 20
TIMEOUT_MS = 6000


class NoticeBar(QLabel):
    """A transient notice line under the composer; connect ``post`` to ``notice_posted``."""

    def __init__(self, parent: QWidget | None = None, *, timeout_ms: int = TIMEOUT_MS) -> None:
        super().__init__(parent)
        self.history: list[tuple[str, str]] = []
        self._a11y = ComposerA11y(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(timeout_ms)
        self._timer.timeout.connect(self._on_timer_timeout)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setAccessibleName("Composer notice")
        self.setMargin(6)
        self.hide()

    def post(self, title: str, detail: str = "") -> None:
        """Show a notice now (it replaces the one on screen)."""
        self.history.append((title, detail))
        del self.history[:-MAX_NOTICES]
        body = f"<b>{html.escape(title)}</b>"
        if detail:
            body += f"<br>{html.escape(detail)}"
        self.setText(body)
        self.setAccessibleDescription(f"{title} {detail}".strip())
        self._a11y.announce(f"{title} {detail}".strip())
        self.show()
        self._timer.start()

    def _on_timer_timeout(self) -> None:
        self.hide()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonRelease:
            self.hide()
        return super().event(event)
