"""Parts of the body that come in pairs: a question about one side, a rule for one or both."""

from __future__ import annotations

import pytest

from composer_app.server.providers.body_pairs import bounds, stated
from composer_app.server.providers.conditions import read


@pytest.mark.parametrize(("text", "count"), [
    ("only my left ear is blocked with wax.", [1]),
    ("my right knee hurts when i run.", [1]),
    ("only one eye is affected.", [1]),
    ("both my eyes are sore.", [2]),
    ("my ear is blocked.", []),  # no side: one or both
    ("i'm left with one question.", []),
])
def test_a_question_states_one_of_a_pair_only_by_its_side(text: str, count: list[int]) -> None:
    assert list(stated(text)) == count


@pytest.mark.parametrize(("text", "count"), [
    ("microsuction for both ears costs £60.", [2]),
    ("if only one ear needs treatment, the cost is £45.", [1]),
    ("a single lens costs £40.", [1]),
    ("the treatment takes 15 minutes.", []),
])
def test_a_rule_is_for_one_or_both_of_a_pair(text: str, count: list[int]) -> None:
    assert list(bounds(text)) == count


def test_one_blocked_ear_is_answered_by_the_rule_for_one() -> None:
    question = "Only my left ear is blocked with wax. What will microsuction cost?"
    assert read(question, "Microsuction for both ears costs £60.").failed
    assert read(question, "If only one ear needs treatment, the cost is £45.").met
