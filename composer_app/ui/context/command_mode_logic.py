"""Rules of the composer's command mode (Qt-free).

A ``!`` typed as the first character of an empty composer switches it to command mode: the text
is then a shell command that Enter runs in the thread's workspace; its output comes back as a
``terminal`` record inserted at the caret instead of a message being sent.

Invariants:
* The phases go OFF → EDITING → RUNNING → (EDITING on failure or cancel | OFF on success); nothing
  else changes them. ``cancel`` is only meaningful while RUNNING.
* The command is the editor's plain text without chips, trimmed; an empty command never runs.
* A failed or cancelled run keeps the command text (nothing typed is lost).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from composer_app.core.text import collapse_whitespace, cut_utf16, trim

TRIGGER = "!"
SUMMARY_MAX_UNITS = 60

CommandRun = Callable[[str, Callable[[str], None], Callable[[object], None]], Callable[[], None]]
"""``run(command, on_output, on_done) -> cancel``: starts a run in the workspace. ``on_output``
gets text chunks as they arrive; ``on_done`` gets the contract ``terminal`` record of the run, or
a reason string when it could not run (or was cancelled). Both run on the GUI thread."""


class CommandPhase(StrEnum):
    """Where command mode is."""

    OFF = "off"
    EDITING = "editing"
    RUNNING = "running"


def enters_command_mode(typed: str, composer_is_empty: bool, phase: CommandPhase) -> bool:
    """True when ``typed`` (a key's text) switches an empty composer to command mode."""
    return phase is CommandPhase.OFF and composer_is_empty and typed == TRIGGER


def command_text(plain: str) -> str:
    """The command in the editor's plain text (chips dropped, trimmed)."""
    return trim(plain.replace("\ufffc", ""))


def command_summary(command: str) -> str:
    """The command on one short line (for progress lines and notices)."""
    line = collapse_whitespace(command)
    return line if len(line) <= SUMMARY_MAX_UNITS else cut_utf16(line, SUMMARY_MAX_UNITS - 1) + "…"


def progress_line(command: str, lines: int, seconds: float) -> str:
    """The line shown while a command runs."""
    plural = "line" if lines == 1 else "lines"
    return (f"Running {command_summary(command)} · {lines} {plural} · {int(seconds)} s"
            " · Esc cancels")


@dataclass
class CommandModeState:
    """The phase of one composer's command mode."""

    phase: CommandPhase = CommandPhase.OFF
    command: str = ""
    output_lines: int = 0

    def enter(self) -> None:
        """The composer switched to command mode."""
        self.phase = CommandPhase.EDITING

    def leave(self) -> None:
        """Back to writing a message (not while a run is going)."""
        if self.phase is CommandPhase.EDITING:
            self.phase = CommandPhase.OFF

    def start(self, plain: str) -> str | None:
        """Start running the command in ``plain``; returns it, or None when there is nothing to
        run (or not editing)."""
        command = command_text(plain)
        if self.phase is not CommandPhase.EDITING or not command:
            return None
        self.phase = CommandPhase.RUNNING
        self.command = command
        self.output_lines = 0
        return command

    def output(self, chunk: str) -> None:
        """Count output lines as they arrive."""
        self.output_lines += chunk.count("\n")

    def finish(self, succeeded: bool) -> None:
        """The run ended: success leaves command mode, failure returns to editing."""
        if self.phase is CommandPhase.RUNNING:
            self.phase = CommandPhase.OFF if succeeded else CommandPhase.EDITING
