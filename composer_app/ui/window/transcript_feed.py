"""``TranscriptFeed``: keeps the transcript and the Sources panel in step with the open thread.

Invariants: only the open thread's messages reach the transcript (an answer for a thread the user
has left is dropped); a refresh re-adds only the rows that changed and reloads the model only when
a row disappeared (``main_window_logic.plan_refresh``); the Sources panel opens on the latest
sourced answer and the *Sources panel* action mirrors its visibility without re-triggering it.
"""

from __future__ import annotations

from typing import Any

from composer_app.ui.external_open import open_url_externally
from composer_app.ui.window import main_window_logic as logic


class TranscriptFeed:
    """Mixin of ``MainWindow`` that fills the transcript and shows the Sources panel."""

    def _refresh_transcript(self) -> None:
        thread_id = self.current_thread
        if thread_id:
            self.call("messages", thread_id,
                      then=lambda rows, error: self._on_messages(thread_id, rows, error))

    def _on_messages(self, thread_id: str, rows: Any, error: str) -> None:
        if error or thread_id != self.current_thread:
            return
        rows = list(rows or [])
        plan = logic.plan_refresh(self._shown, rows)
        model = self.transcript.transcript_model()
        if plan.reload:
            model.load([logic.message_wire(r) for r in rows])
            self._shown = {r.message_id: r for r in rows}
        else:
            for row in plan.upserts:
                model.add_message(logic.message_wire(row))
                self._shown[row.message_id] = row
        if plan.upserts and self.transcript.verticalScrollBar().value() >= 0:
            self.transcript.scrollToBottom()

    def _open_asset(self, record: Any) -> None:
        attachment = getattr(record, "attachment_id", None)
        if attachment:
            self.call("asset_url", attachment, "attachment",
                      then=lambda url, error: self._on_asset_url(url, error))

    def _on_asset_url(self, url: Any, error: str) -> None:
        if error or not url or not open_url_externally(str(url)):
            self.status.showMessage(error or "Could not open the attachment.", 8000)

    def set_sources_visible(self, visible: bool) -> None:
        """Ctrl+Shift+S: show or hide the Sources panel (opening it on the latest answer)."""
        if visible and not self.sources_dock.isVisible():
            latest = self._latest_sourced_message()
            if latest and self.sources_dock.panel.message_id != latest:
                self.sources_dock.show_sources(latest)
            self.sources_dock.show()
        elif not visible:
            self.sources_dock.hide()

    def _latest_sourced_message(self) -> str:
        for message in reversed(self.transcript.messages):
            if message.role == "assistant" and message.sources is not None:
                return message.message_id
        return ""

    def _on_sources_visibility_changed(self, visible: bool) -> None:
        if self.sources_action.isChecked() != visible:
            self.sources_action.blockSignals(True)
            self.sources_action.setChecked(visible)
            self.sources_action.blockSignals(False)
