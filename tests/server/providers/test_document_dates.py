"""A document's own date, read from its head."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.document_dates import written_date


def test_a_named_date_wins_over_other_dates_of_the_head():
    text = "# Support\n\nSupport ends on 31 March 2026.\n\nPublished: 3 February 2025\n"
    assert written_date(text) == date(2025, 2, 3)


def test_the_formats_people_write():
    assert written_date("Effective date: 15 September 2025") == date(2025, 9, 15)
    assert written_date("Last updated: March 3, 2026") == date(2026, 3, 3)
    assert written_date("Version of 2024-01-15.") == date(2024, 1, 15)
    assert written_date("Revised September 2025") == date(2025, 9, 1)
    assert written_date("Meeting on 4th May 2025 in Lisbon") == date(2025, 5, 4)


def test_no_date_or_an_impossible_one_gives_none():
    assert written_date("# Notes\n\nNothing dated here.") is None
    assert written_date("Updated: 2025-02-30") is None
    assert written_date("\n" * 20 + "Updated: 2025-02-03") is None  # past the head


@given(st.text(max_size=300))
def test_any_text_gives_a_date_or_none(text: str):
    assert written_date(text) is None or isinstance(written_date(text), date)


def test_the_title_date_wins_over_the_date_of_the_rules_a_notice_revises():
    notice = ("# Riverside Library: Notice of 1 March 2026\n\n## Changes\n\n"
              "The board has revised two of the lending rules dated 1 September 2025.\n")
    assert written_date(notice) == date(2026, 3, 1)
    rules = "# Lending rules\n\nValid from 1 September 2025.\nLast updated: 3 October 2025\n"
    assert written_date(rules) == date(2025, 10, 3)  # no date in the title: the named one


def test_a_date_wrapped_across_two_lines_of_a_paragraph_is_read() -> None:
    text = ("# Guest Terms\n\nThese terms apply to all stays at the hotel from 1 January\n"
            "2025 until further notice.\n")
    assert written_date(text) == date(2025, 1, 1)
    assert written_date("# Rules\n\nValid from 1 September 2025.\nLast updated: 3 October 2025\n") \
        == date(2025, 10, 3)
