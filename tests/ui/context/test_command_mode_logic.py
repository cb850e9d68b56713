"""Command mode phases and texts."""

from __future__ import annotations

from composer_app.ui.context.command_mode_logic import (
    CommandModeState,
    CommandPhase,
    command_summary,
    command_text,
    enters_command_mode,
    progress_line,
)


def test_only_a_bang_in_an_empty_composer_enters() -> None:
    assert enters_command_mode("!", True, CommandPhase.OFF)
    assert not enters_command_mode("!", False, CommandPhase.OFF)
    assert not enters_command_mode("a", True, CommandPhase.OFF)
    assert not enters_command_mode("!", True, CommandPhase.EDITING)


def test_command_text_drops_chips_and_blank() -> None:
    assert command_text("  ls -la \ufffc\n") == "ls -la"
    assert command_text(" \ufffc ") == ""


def test_phases() -> None:
    state = CommandModeState()
    assert state.start("ls") is None  # not in command mode
    state.enter()
    assert state.start("   ") is None
    assert state.start(" make test ") == "make test"
    assert state.phase is CommandPhase.RUNNING
    state.leave()  # cannot leave while running
    assert state.phase is CommandPhase.RUNNING
    state.output("a\nb\n")
    state.output("c")
    assert state.output_lines == 2
    state.finish(False)
    assert state.phase is CommandPhase.EDITING
    state.start("x")
    state.finish(True)
    assert state.phase is CommandPhase.OFF


def test_summary_and_progress() -> None:
    assert command_summary("echo   a\nb") == "echo a b"
    long = command_summary("x" * 100)
    assert len(long) == 60 and long.endswith("…")
    assert progress_line("make", 1, 2.7) == "Running make · 1 line · 2 s · Esc cancels"
