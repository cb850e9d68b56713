"""``TranscriptFeed``: keeps the transcript and the Sources panel in step with the open thread.

Invariants: only the open thread's messages reach the transcript (an answer for a thread the user
has left is dropped); changes reported for the open thread are gathered for ``REFRESH_DELAY_MS``
into one refresh; a refresh re-adds only the rows that changed and reloads the model only when a
row disappeared (``main_window_logic.plan_refresh``); new rows and streamed deltas keep the view at
the bottom only while the reader is there (or the user just sent), never pulling a reader who
scrolled up back down; switching threads empties the transcript and
closes a Sources panel that showed a message; the Sources panel opens on the latest sourced answer
and, while it shows the newest one, follows a newer answer when it arrives;
its visibility is reported with ``sources_visibility_changed``; an attachment opens through a
signed URL from the engine, and a failure says so with ``status_message``; a message that has not
reached the server shows its delivery state and its outbox error on its bubble, whose *Retry* /
*Edit* / *Delete* go to the engine (Edit hands the message back through ``edit_ready``).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView

from composer_app.core.contracts.records import ContextRecord
from composer_app.sync.store import MessageRow
from composer_app.ui.engine_calls import EngineCalls
from composer_app.ui.external_open import open_url_externally
from composer_app.ui.read_order import ReadOrder
from composer_app.ui.transcript.sources_dock import SourcesDock
from composer_app.ui.transcript.view import TranscriptView
from composer_app.ui.window import main_window_logic as logic

__all__ = ["REFRESH_DELAY_MS", "TranscriptFeed"]

REFRESH_DELAY_MS = 30
MESSAGE_MS = 8000


class TranscriptFeed(QObject):
    """Fills the transcript of the open thread and shows its Sources."""

    sources_visibility_changed = Signal(bool)
    status_message = Signal(str)
    edit_ready = Signal(object)  # EditedMessage taken back from the outbox

    def __init__(self, transcript: TranscriptView, sources_dock: SourcesDock, calls: EngineCalls,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._transcript = transcript
        self._dock = sources_dock
        self._calls = calls
        self._thread_id = ""
        self._shown: dict[str, MessageRow] = {}
        self._errors: dict[str, str] = {}
        self._loaded = ""  # the thread whose messages were read at least once
        self._reads = ReadOrder()  # a late answer never replaces a newer read's rows
        self._reveal = ""  # a message to bring into view once it is shown
        self._newest_shown = ""  # the newest sourced answer when the panel last followed
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_DELAY_MS)
        self._timer.timeout.connect(self.refresh)
        transcript.url_opener = open_url_externally
        transcript.asset_opener = self.open_asset
        sources_dock.visibilityChanged.connect(self.sources_visibility_changed)
        transcript.unsent_action.connect(self.unsent_action)

    @property
    def thread_id(self) -> str:
        return self._thread_id

    def show_thread(self, thread_id: str) -> None:
        """Empty the transcript, close Sources that showed a message, and load ``thread_id``."""
        self._thread_id = thread_id
        self._shown.clear()
        self._errors.clear()
        self._transcript.transcript_model().load([])
        self._transcript.follow_bottom()
        if self._dock.panel.message_id:
            self._dock.hide()
            self._dock.panel.clear()
        self.refresh()

    def reveal_message(self, message_id: str) -> None:
        """Scroll to ``message_id`` and select it (now, or once the open thread is read)."""
        self._reveal = message_id
        self._reveal_pending()

    def _reveal_pending(self) -> None:
        transcript = self._transcript
        row = transcript.transcript_model().transcript.row_of(self._reveal) if self._reveal else -1
        if row < 0:
            return
        self._reveal = ""
        index = transcript.model().index(row, 0)
        transcript.doItemsLayout()
        transcript.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        transcript.setCurrentIndex(index)

    def shows_empty_thread(self) -> bool:
        """The open thread's messages were read and it has none."""
        return bool(self._thread_id) and self._loaded == self._thread_id and not self._shown

    def set_environment_id(self, environment_id: str) -> None:
        """Copies from the transcript name the environment the window is connected to."""
        self._transcript.environment_id = environment_id

    def thread_changed(self, thread_id: str) -> None:
        """The engine reported a change in ``thread_id`` (refreshed soon if it is open)."""
        if thread_id and thread_id == self._thread_id:
            self._timer.start()

    def stop(self) -> None:
        """No more refreshes (the window is closing)."""
        self._timer.stop()

    def refresh(self) -> None:
        """Read the open thread's messages from the cache."""
        thread_id = self._thread_id
        if thread_id:
            read = self._reads.ask()
            self._calls.messages(
                thread_id, lambda rows, error: self._on_messages(thread_id, read, rows, error))

    def _on_messages(self, thread_id: str, read: int, rows: list[MessageRow] | None,
                     error: str) -> None:
        if error or thread_id != self._thread_id:
            return
        rows = list(rows or [])
        if any(r.local_state for r in rows) or self._errors:  # their reasons live in the outbox
            self._calls.outbox_items(lambda items, failed: self._show_rows(
                thread_id, read, rows, logic.outbox_errors(items or []) if not failed else {}))
        else:
            self._show_rows(thread_id, read, rows, {})

    def _show_rows(self, thread_id: str, read: int, rows: list[MessageRow],
                   errors: dict[str, str]) -> None:
        # A read that waited for the outbox's reasons may finish after a later one: the older
        # rows never replace what a later read showed.
        if thread_id != self._thread_id or not self._reads.applies(read):
            return
        self._loaded = thread_id
        changed = {k for k in errors.keys() | self._errors.keys()
                   if errors.get(k) != self._errors.get(k)}
        self._errors = errors
        plan = logic.plan_refresh(self._shown, rows, changed)
        model = self._transcript.transcript_model()
        if plan.reload:
            model.load([logic.message_wire(r, errors.get(r.message_id, "")) for r in rows])
            self._shown = {r.message_id: r for r in rows}
        else:
            for row in plan.upserts:
                model.add_message(logic.message_wire(row, errors.get(row.message_id, "")))
                self._shown[row.message_id] = row
        self._follow_newest_sources(plan.upserts)
        if self._reveal:
            self._reveal_pending()
        elif plan.upserts and (self._transcript.following
                               or logic.sent_here(plan.upserts)):
            self._transcript.follow_bottom()

    # -- unsent messages ------------------------------------------------------------------------
    def unsent_action(self, message_id: str, action: str) -> None:
        """*Retry*, *Edit* or *Delete* on an unsent bubble."""
        if action == "retry":
            self._calls.retry(message_id)
        elif action == "delete":
            self._calls.delete(message_id)
        elif action == "edit":
            self._calls.edit(message_id, self._on_edited)

    def _on_edited(self, edited: object, error: str) -> None:
        if error:
            self.status_message.emit(error)
        elif edited is not None:
            self.edit_ready.emit(edited)

    # -- attachments -----------------------------------------------------------------------------
    def open_asset(self, record: ContextRecord) -> None:
        """Open an attachment of the transcript in the system's viewer."""
        attachment = getattr(record, "attachment_id", None)
        if attachment:
            self._calls.asset_url(str(attachment), "attachment", self._on_asset_url)

    def _on_asset_url(self, url: str | None, error: str) -> None:
        if error or not url or not open_url_externally(str(url)):
            self.status_message.emit(error or "Could not open the attachment.")

    # -- Sources ---------------------------------------------------------------------------------
    def set_sources_visible(self, visible: bool) -> None:
        """Ctrl+Shift+S: show or hide the Sources panel (opening it on the latest answer)."""
        if visible and not self._dock.isVisible():
            latest = self.latest_sourced_message()
            if latest and self._dock.panel.message_id != latest:
                self._dock.show_sources(latest)
            self._newest_shown = latest
            self._dock.show()
        elif not visible:
            self._dock.hide()

    def _follow_newest_sources(self, changed: tuple[MessageRow, ...]) -> None:
        """An open Sources panel that shows the newest sourced answer (or nothing) moves to a
        newer one when it arrives, and shows the new sources of the answer it shows."""
        if not self._dock.isVisible():
            return
        shown, latest = self._dock.panel.message_id, self.latest_sourced_message()
        if not latest:
            return
        newer = latest != shown and (not shown or shown == self._newest_shown)
        refreshed = latest == shown and any(r.message_id == latest for r in changed)
        if newer or refreshed:
            self._dock.show_sources(latest)
        self._newest_shown = latest

    def latest_sourced_message(self) -> str:
        """The id of the newest assistant answer with sources ("" when there is none)."""
        for message in reversed(self._transcript.messages):
            if message.role == "assistant" and message.sources is not None:
                return message.message_id
        return ""
