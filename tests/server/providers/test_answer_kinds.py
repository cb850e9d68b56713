"""The kind of value a question asks for, and whether a sentence states one."""

from __future__ import annotations

import pytest

from composer_app.server.providers.answer_kinds import holds_kind, lacks_kind, wanted_kind


@pytest.mark.parametrize("sentence", [
    "A date is reserved once we have received a deposit of 30 percent of the hire fee.",
    "If you cancel by 31 January, half of the entry fee is refunded.",
    "A service charge of 10 % of the bill is added.",
])
def test_a_share_of_a_price_is_an_amount(sentence: str) -> None:
    question = "How much deposit do we have to pay?"
    assert wanted_kind(question) == "amount"
    assert holds_kind(sentence, "amount")
    assert not lacks_kind(sentence, question, "amount")


def test_a_bare_percentage_answers_only_a_difference() -> None:
    sentence = "On Sundays, the surcharge is 50 percent."
    assert not holds_kind(sentence, "amount")
    assert lacks_kind(sentence, "How much does a move cost?", "amount")
    assert not lacks_kind(sentence, "How much extra is a Sunday move?", "amount")
    assert lacks_kind("30 percent of customers pay by card.", "How much is it?", "amount")
