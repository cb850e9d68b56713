"""``ContextInput``: the composer's typed ways of adding context, as one key interceptor.

It owns the three controllers of ``composer_app.ui.context`` for one ``ComposerEditor``:

* ``completion`` (``ContextCompletion``): ``@`` files, ``/`` skills, ``#`` threads;
* ``command_mode`` (``CommandMode``): ``!`` in an empty composer runs a command in the workspace;
* ``pull_requests`` (``PullRequestOffer``): "Attach pull request #N" after a pasted URL.

Invariants: keys reach them in that order — command mode first (it owns Enter while on), then
the pull-request offer, then the completion popup — and only through ``intercept_key``; every
record they produce is inserted at the editor's caret with ``insert_context`` (one undo step with
the removed trigger text); every reason they give goes to the editor's notice path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QKeyEvent

from composer_app.ui.composer.attachments_logic import Notice
from composer_app.ui.context.command_mode import CommandMode
from composer_app.ui.context.command_mode_logic import CommandPhase, CommandRun
from composer_app.ui.context.completion import ContextCompletion
from composer_app.ui.context.completion_logic import ContextCatalog
from composer_app.ui.context.pull_request_offer import PullRequestOffer

if TYPE_CHECKING:
    from composer_app.ui.composer.editor import ComposerEditor

_CLAIMED = (Qt.Key.Key_Escape, Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab,
            Qt.Key.Key_Up, Qt.Key.Key_Down)


class ContextInput(QObject):
    """Completion, command mode and pull-request offers of one composer editor."""

    def __init__(self, editor: ComposerEditor) -> None:
        super().__init__(editor)
        self._editor = editor
        announce = editor.a11y.announce
        self.completion = ContextCompletion(editor, environment_id=editor.environment_id,
                                            announce=announce)
        self.command_mode = CommandMode(editor, announce=announce)
        self.pull_requests = PullRequestOffer(editor, announce=announce)
        self.completion.record_chosen.connect(self._insert)
        self.completion.item_rejected.connect(self._notice)
        self.command_mode.record_ready.connect(self._insert)
        self.command_mode.notice.connect(self._notice)
        self.pull_requests.record_ready.connect(self._insert)
        self.pull_requests.notice.connect(self._notice)
        editor.add_key_interceptor(self)

    def set_catalog(self, catalog: ContextCatalog | None) -> None:
        """Completion asks ``catalog`` from now on (None: triggers stay plain text)."""
        self.completion.environment_id = self._editor.environment_id
        self.completion.set_catalog(catalog)

    def set_command_runner(self, runner: CommandRun | None) -> None:
        """Command mode runs through ``runner`` (None: the thread has no workspace)."""
        self.command_mode.set_runner(runner)

    # -- KeyInterceptor ----------------------------------------------------------------------------
    def intercept_key(self, event: QKeyEvent) -> bool:
        """Command mode, then the pull-request offer, then the completion popup."""
        if self.command_mode.handle_key(event):
            return True
        if self.pull_requests.handle_key(event):
            return True
        return self.completion.handle_key(event)

    def wants_shortcut(self, event: QKeyEvent) -> bool:
        """Esc, Enter, Tab and the arrows belong to an open popup, offer or command mode."""
        if event.key() not in _CLAIMED:
            return False
        return (self.completion.is_open() or self.pull_requests.offered is not None
                or self.command_mode.phase is not CommandPhase.OFF)

    # -- results ---------------------------------------------------------------------------------
    def _insert(self, record: Any) -> None:
        self._editor.insert_context(record)

    def _notice(self, reason: str) -> None:
        self._editor.notify(Notice(reason, ""))
