"""``ReadOrder``: a late answer to an older read never replaces a newer one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.ui.read_order import ReadOrder


def test_answers_in_order_all_apply_and_an_older_one_after_a_newer_is_dropped() -> None:
    order = ReadOrder()
    first, second, third = order.ask(), order.ask(), order.ask()
    assert order.applies(first) and order.applies(third)
    assert not order.applies(second)  # read before the third, answered after it
    assert not order.applies(third)  # the same answer never applies twice


@given(st.permutations(list(range(1, 9))))
def test_the_applied_answers_are_increasing_whatever_the_arrival_order(arrival: list[int]) -> None:
    order = ReadOrder()
    for _ in arrival:
        order.ask()
    applied = [read for read in arrival if order.applies(read)]
    assert applied == sorted(applied) and applied[-1] == max(arrival)
