"""``PullRequestOffer``: "Attach pull request #N" for a pasted GitHub pull-request URL.

After a paste put text at ``[start, end)`` of the editor, ``offer_range(start, end)`` checks
whether that text is a pull-request URL; if so the bar ``indicator`` (object name
``pullRequestOffer``) offers to attach it. The editor forwards key presses through
``handle_key(event)``: Enter accepts, Esc keeps the URL as text (any other key also leaves the
offer, and the key does its usual thing). ``attach(ref)`` is the *Insert ▸ Pull request…* path.

Invariants: the metadata is fetched off the GUI thread through ``fetch`` (by default ``gh`` or
the REST API); the answer comes back on the GUI thread and is used only if it belongs to the
newest request. On success the URL text (if still there, unchanged) is replaced and
``record_ready(record)`` is emitted inside that edit block (one undo step brings the URL back);
on failure ``notice(reason)`` is emitted and the URL stays text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QTextEdit, QWidget

from composer_app.core.contracts.records import ReviewCommentRecord
from composer_app.ui.composer.a11y import ComposerA11y
from composer_app.ui.context.pull_requests import (
    PullRequestFailure,
    PullRequestRef,
    fetch_pull_request,
    parse_pull_request_url,
)

OFFER_OBJECT_NAME = "pullRequestOffer"
_MODIFIER_KEYS = frozenset({Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta,
                            Qt.Key.Key_AltGr})
Fetch = Callable[[PullRequestRef], ReviewCommentRecord | PullRequestFailure]


class PullRequestOffer(QObject):
    """The inline offer and the fetch of one editor; see the module docstring."""

    record_ready = Signal(object)
    notice = Signal(str)
    _fetched = Signal(int, object)

    def __init__(self, editor: QTextEdit, *, fetch: Fetch = fetch_pull_request,
                 announce: Callable[[str], None] | None = None,
                 indicator_parent: QWidget | None = None) -> None:
        super().__init__(editor)
        self._editor = editor
        self._fetch = fetch
        self._announce = announce or ComposerA11y(editor).announce
        self._offered: PullRequestRef | None = None
        self._span: QTextCursor | None = None
        self._url_text = ""
        self._request = 0
        self.indicator = QWidget(indicator_parent)
        self.indicator.setObjectName(OFFER_OBJECT_NAME)
        layout = QHBoxLayout(self.indicator)
        layout.setContentsMargins(6, 2, 6, 2)
        self.label = QLabel(self.indicator)
        layout.addWidget(self.label, 1)
        self.indicator.hide()
        self._fetched.connect(self._on_fetched, Qt.ConnectionType.QueuedConnection)

    @property
    def offered(self) -> PullRequestRef | None:
        """The pull request on offer, if any."""
        return self._offered

    def offer_range(self, start: int, end: int) -> bool:
        """Offer to attach the pull request whose URL is the text at ``[start, end)``."""
        cursor = QTextCursor(self._editor.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        text = cursor.selectedText()
        ref = parse_pull_request_url(text)
        if ref is None:
            return False
        self._offered = ref
        self._span = cursor
        self._url_text = text
        self._say(f"Attach pull request #{ref.number} from {ref.slug}?  "
                  "Enter attaches, Esc keeps the link")
        return True

    def handle_key(self, event: QKeyEvent) -> bool:
        """Enter accepts, Esc dismisses; True when the key was consumed."""
        if self._offered is None:
            return False
        key = event.key()
        if key in _MODIFIER_KEYS:
            return False
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.accept()
            return True
        self.dismiss()
        return key == Qt.Key.Key_Escape

    def dismiss(self) -> None:
        """Keep the URL as text."""
        self._offered = None
        self._span = None
        self.indicator.hide()

    def accept(self) -> None:
        """Attach the offered pull request (fetch, then replace the URL)."""
        ref = self._offered
        self._offered = None
        if ref is not None:
            self._start(ref)

    def attach(self, ref: PullRequestRef) -> None:
        """Attach ``ref`` at the caret (no URL text to replace)."""
        self._offered = None
        self._span = None
        self._start(ref)

    def _start(self, ref: PullRequestRef) -> None:
        self._request += 1
        request = self._request
        self._say(f"Reading pull request #{ref.number}…")

        def work() -> None:
            try:
                outcome: object = self._fetch(ref)
            except Exception as exc:  # the fetch must not lose the answer
                outcome = PullRequestFailure(f"The pull request could not be read: {exc}")
            self._fetched.emit(request, outcome)

        threading.Thread(target=work, name="composer-pull-request", daemon=True).start()

    def _on_fetched(self, request: int, outcome: object) -> None:
        if request != self._request:
            return
        self.indicator.hide()
        span, self._span = self._span, None
        if not isinstance(outcome, ReviewCommentRecord):
            reason = (outcome.reason if isinstance(outcome, PullRequestFailure)
                      else "The pull request could not be read.")
            self.notice.emit(reason)
            self._announce(reason)
            return
        cursor = self._editor.textCursor()
        if span is not None and span.selectedText() == self._url_text:
            cursor = span
        cursor.beginEditBlock()
        if cursor is span:
            cursor.removeSelectedText()
            self._editor.setTextCursor(cursor)
        self.record_ready.emit(outcome)
        cursor.endEditBlock()
        self._announce(f"Pull request {outcome.label} attached")

    def _say(self, text: str) -> None:
        self.label.setText(text)
        self.indicator.setAccessibleDescription(text)
        self.indicator.show()
        self._announce(text)
