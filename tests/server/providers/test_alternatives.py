"""The alternative a question turns down, and sentences about it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.alternatives import turned_down

_GLASS = ("My back window is cracked and I'd rather go to my own glazier than Fernwick Motor "
          "Cover's repairer. What will I pay?")
_RETURN = "Can I take my Larchmont order back to a shop instead of posting it?"


@pytest.mark.parametrize(("question", "sentence", "title", "down"), [
    (_GLASS, "If you use our approved repairer, the excess is £90.", "fernwick-motor-cover.md",
     True),
    (_GLASS, "If you choose your own glazier, the excess is £200.", "fernwick-motor-cover.md",
     False),
    (_GLASS, "Replacing a window costs an excess of £90.", "fernwick-motor-cover.md", False),
    (_RETURN, "Returns by post cost £4.95 unless the item is faulty.", "larchmont-returns.md",
     True),
    (_RETURN, "You can return any order to a shop within 30 days, free of charge.",
     "larchmont-returns.md", False),
    # a sentence that names both alternatives is about the one taken too
    (_RETURN, "Orders can go back to a shop or by post within 30 days.", "larchmont-returns.md",
     False),
    # the organisation's name in the alternative turned down is no alternative
    ("I'd rather use my own garage than Fernwick.", "Fernwick pays garages within 10 days.",
     "fernwick-motor-cover.md", False),
    # a question that turns nothing down
    ("What is the excess for a new windscreen?", "If you use our approved repairer, the excess "
     "is £90.", "", False),
])
def test_a_sentence_about_the_alternative_turned_down_is_told_apart(
        question: str, sentence: str, title: str, down: bool) -> None:
    assert turned_down(question, sentence, title) is down


@given(st.text(max_size=120), st.text(max_size=120))
def test_a_sentence_without_the_turning_words_in_its_question_is_never_turned_down(
        words: str, sentence: str) -> None:
    question = words.replace("rather", "").replace("instead", "").replace("prefer", "")
    assert not turned_down(question, sentence)
