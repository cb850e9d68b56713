"""``CommandMode``: the composer's ``!`` command mode and its visible indicator.

The editor forwards key presses through ``handle_key(event)`` (before the completion popup and
before Enter sends). ``indicator`` (object name ``commandModeIndicator``) is a bar to place beside
the composer: it shows that Enter runs a command, then the progress line and a Cancel button.

Invariants: the run goes only through the ``CommandRun`` callable given to ``set_runner``; while a
command runs the editor is read-only and Esc (or Cancel) cancels it; a successful run clears the
command and emits ``record_ready(record)`` for the composer to insert at the caret; a failure or
cancel keeps the command text and says why (``notice``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTextEdit, QWidget

from composer_app.ui.composer.a11y import ComposerA11y
from composer_app.ui.context.command_mode_logic import (
    CommandModeState,
    CommandPhase,
    CommandRun,
    command_summary,
    enters_command_mode,
    progress_line,
)

INDICATOR_OBJECT_NAME = "commandModeIndicator"
EDITING_HINT = "Command mode: Enter runs this in the workspace, Esc goes back to the message"
PLACEHOLDER = "Command to run in the workspace…"
NO_RUNNER = "Commands need a workspace on this thread."


class CommandModeIndicator(QWidget):
    """The bar that shows command mode: a ``!`` badge, a hint or progress line, Cancel."""

    cancel_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(INDICATOR_OBJECT_NAME)
        self.setAccessibleName("Command mode")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        self.badge = QLabel("!", self)
        self.badge.setStyleSheet("font-weight: bold; padding: 0 6px; border-radius: 4px;"
                                 "background: palette(highlight); color: palette(highlighted-text)")
        self.text = QLabel(EDITING_HINT, self)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setObjectName("cancelCommand")
        self.cancel.setToolTip("Cancel the running command (Esc)")
        self.cancel.clicked.connect(self.cancel_clicked)
        layout.addWidget(self.badge)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.cancel)
        self.cancel.hide()
        self.hide()

    def show_phase(self, phase: CommandPhase, line: str) -> None:
        """Reflect ``phase`` with ``line`` as the message."""
        self.setVisible(phase is not CommandPhase.OFF)
        self.text.setText(line)
        self.setAccessibleDescription(line)
        self.cancel.setVisible(phase is CommandPhase.RUNNING)


class CommandMode(QObject):
    """Command mode of one editor; see the module docstring."""

    record_ready = Signal(object)
    """The ``terminal`` record of a finished run, to insert at the composer's caret."""
    notice = Signal(str)
    """Why a run did not produce a record (failed, cancelled, no workspace)."""
    phase_changed = Signal(str)

    def __init__(self, editor: QTextEdit, *, announce: Callable[[str], None] | None = None,
                 indicator_parent: QWidget | None = None) -> None:
        super().__init__(editor)
        self._editor = editor
        self._announce = announce or ComposerA11y(editor).announce
        self.state = CommandModeState()
        self._runner: CommandRun | None = None
        self._cancel: Callable[[], None] | None = None
        self._run_id = 0
        self._started = 0.0
        self._placeholder = editor.placeholderText()
        self.indicator = CommandModeIndicator(indicator_parent)
        self.indicator.cancel_clicked.connect(self.cancel)
        self._ticker = QTimer(self)
        self._ticker.setInterval(1000)
        self._ticker.timeout.connect(self._show_progress)

    @property
    def phase(self) -> CommandPhase:
        """The current phase."""
        return self.state.phase

    def set_runner(self, runner: CommandRun | None) -> None:
        """Runs go through ``runner`` (None: the thread has no workspace)."""
        self._runner = runner

    # -- keys -----------------------------------------------------------------------------------
    def handle_key(self, event: QKeyEvent) -> bool:
        """Handle a key press of the editor; True when consumed."""
        key = event.key()
        plain_mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        phase = self.state.phase
        if phase is CommandPhase.OFF:
            if enters_command_mode(event.text(), self._editor.document().isEmpty(), phase):
                self._enter()
                return True
            return False
        if phase is CommandPhase.RUNNING:
            if key == Qt.Key.Key_Escape:
                self.cancel()
                return True
            return key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if key == Qt.Key.Key_Escape or (
            key == Qt.Key.Key_Backspace and self._editor.document().isEmpty()
        ):
            self.leave()
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
            plain_mods & Qt.KeyboardModifier.ShiftModifier
        ):
            self.run()
            return True
        return False

    # -- transitions ------------------------------------------------------------------------------
    def _enter(self) -> None:
        self.state.enter()
        self._placeholder = self._editor.placeholderText()
        self._editor.setPlaceholderText(PLACEHOLDER)
        self._update(EDITING_HINT)
        self._announce("Command mode")

    def start(self) -> bool:
        """Switch an empty composer to command mode (the *Run a command…* entry); False when the
        composer holds text or command mode is already on."""
        if self.state.phase is not CommandPhase.OFF or not self._editor.document().isEmpty():
            return False
        self._editor.setFocus()
        self._enter()
        return True

    def leave(self) -> None:
        """Back to writing a message (the typed text stays)."""
        if self.state.phase is not CommandPhase.EDITING:
            return
        self.state.leave()
        self._editor.setPlaceholderText(self._placeholder)
        self._update("")
        self._announce("Message mode")

    def run(self) -> bool:
        """Run the editor's command; False when nothing was started."""
        if self._runner is None:
            if self.state.phase is CommandPhase.EDITING:
                self.notice.emit(NO_RUNNER)
            return False
        command = self.state.start(self._editor.toPlainText())
        if command is None:
            return False
        self._run_id += 1
        run_id = self._run_id
        self._started = time.monotonic()
        self._editor.setReadOnly(True)
        self._ticker.start()
        self._show_progress()
        self._announce(f"Running {command_summary(command)}")
        self._cancel = self._runner(
            command,
            lambda chunk: self._on_output(run_id, chunk),
            lambda outcome: self._on_done(run_id, outcome),
        )
        return True

    def cancel(self) -> None:
        """Cancel the running command (its ``on_done`` then reports the cancel)."""
        if self.state.phase is CommandPhase.RUNNING and self._cancel is not None:
            cancel, self._cancel = self._cancel, None
            self.indicator.text.setText("Cancelling…")
            cancel()

    def _on_output(self, run_id: int, chunk: str) -> None:
        if run_id == self._run_id and self.state.phase is CommandPhase.RUNNING:
            self.state.output(chunk)

    def _on_done(self, run_id: int, outcome: object) -> None:
        if run_id != self._run_id or self.state.phase is not CommandPhase.RUNNING:
            return
        self._ticker.stop()
        self._cancel = None
        self._editor.setReadOnly(False)
        succeeded = not isinstance(outcome, str) and outcome is not None
        command = self.state.command
        self.state.finish(succeeded)
        if not succeeded:
            reason = outcome if isinstance(outcome, str) else "The command gave no output."
            self._update(f"{command_summary(command)}: {reason}")
            self.notice.emit(reason)
            self._announce(reason)
            return
        self._editor.clear()
        self._editor.setPlaceholderText(self._placeholder)
        self._update("")
        self._announce(f"Output of {command_summary(command)} added")
        self.record_ready.emit(outcome)

    def _show_progress(self) -> None:
        if self.state.phase is CommandPhase.RUNNING:
            elapsed = time.monotonic() - self._started
            self._update(progress_line(self.state.command, self.state.output_lines, elapsed))

    def _update(self, line: str) -> None:
        self.indicator.show_phase(self.state.phase, line)
        self.phase_changed.emit(str(self.state.phase))
