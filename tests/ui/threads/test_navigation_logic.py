"""Pure decisions about which thread the window shows."""

from __future__ import annotations

from composer_app.ui.threads import navigation_logic as logic
from composer_app.ui.threads.navigation_logic import parse_archived, thread_to_open


def test_archived_set_and_thread_to_open() -> None:
    assert parse_archived(["a", "b"]) == {"a", "b"} and parse_archived("a,b") == {"a", "b"}
    assert parse_archived(None) == frozenset()
    assert thread_to_open(["t1", "t2"], "t2", "") == "t2"
    assert thread_to_open(["t1", "t2"], "gone", "") == "t1"
    assert thread_to_open(["t1", "t2"], "t2", "t1") == "t1"
    assert thread_to_open([], "t2", "") == ""
    # A thread created here and not listed yet stays open; listed or not, others follow the rules.
    assert thread_to_open(["t1"], "t9", "t9", awaiting={"t9"}) == "t9"
    assert thread_to_open(["t1"], "t9", "t9") == "t1"


def test_the_assistant_menu_checks_one_known_provider_of_a_thread_that_has_one() -> None:
    assert [name for name, _label in logic.ASSISTANT_CHOICES] == ["local", "openai"]
    assert logic.assistant_choice("openai") == "openai"
    assert logic.assistant_choice("echo") == ""  # a development provider: nothing checked
    assert logic.assistant_choice(None) == ""
    assert logic.can_choose_assistant("thr_1", "local")
    assert not logic.can_choose_assistant("thr_1", None)  # the server names no provider
    assert not logic.can_choose_assistant("", "local")
