"""A number joined to the thing it counts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.counted_things import counts_other

MOVE = "How much would it cost to move a 2-bedroom house on a Friday?"


@pytest.mark.parametrize(("sentence", "other"), [
    ("Property size: 3-bedroom house; Crew: 4 movers, 2 vans; Friday: £960", True),
    ("Property size: 4 bedrooms or more; Crew: by home survey", True),
    ("Property size: 2-bedroom flat or house; Crew: 3 movers, 1 van; Friday: £690", False),
    ("We carry 2 sofas free of charge.", False),  # counts no bedrooms at all
    ("A 2 bedroom house or a 3-bedroom flat takes one day.", False),  # counts ours too
])
def test_a_number_counts_for_the_thing_the_question_counts_with_it(sentence: str,
                                                                   other: bool) -> None:
    assert counts_other(MOVE, "2", sentence) is other


def test_number_words_count_as_their_digits() -> None:
    assert counts_other("What is a two-night stay?", "2", "A 3-night stay costs £200.")
    assert not counts_other("What is a two-night stay?", "2", "A 2-night stay costs £150.")
    assert not counts_other("What is a stay?", "2", "A 3-night stay costs £200.")


@given(st.integers(0, 999), st.integers(0, 999), st.sampled_from(["day", "bedroom", "hour"]))
def test_another_count_of_the_same_thing_is_told_apart(asked: int, stated: int,
                                                       thing: str) -> None:
    question = f"How much is a {asked}-{thing} booking?"
    assert counts_other(question, str(asked), f"A {stated}-{thing} booking costs £5.") is \
        (asked != stated)
