"""Lines that frame a document: its masthead and its words about itself."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.document_frames import describes_itself, is_masthead


@pytest.mark.parametrize("line", [
    "Westmarch Valley Railway",
    "Halvergate Blood Test Clinic, outpatients wing, Halvergate Community Hospital.",
    "Quarrendon Fibre Ltd, full-fibre broadband for homes in Oxfordshire and Buckinghamshire.",
    "Voluntary Services Team, Brackenmoor Hospitals Trust Updated: 3 March 2025",
    "Oldcastle Friendly Society, a mutual owned by its members since 1868.",
    "Bank of Ashdown & Marlow",
])
def test_a_line_that_names_who_publishes_the_document_is_a_masthead(line: str) -> None:
    assert is_masthead(line)


@pytest.mark.parametrize("line", [
    "On Saturdays, a day ticket costs 3 euros.",
    "Students, trainees and people aged 65 or over receive a reduction of 15 percent.",
    "Main Barn: 180 guests seated, 250 standing.",
    "Saturday and Sunday: 09:00 to 20:00",
    "Hollis Family House, across the road from the main entrance, offers free rooms to families "
    "of children expected to stay on Otter Ward for more than five nights.",
    "Managers, principal scientists and directors give 3 months' notice.",
    "The Main Barn, which seats 180, can be hired for weddings.",
    "Ashdown Lane Surgery, where appointments must be booked online.",
    "Free Wi-Fi is available in every room.",
])
def test_a_sentence_that_states_something_is_no_masthead(line: str) -> None:
    assert not is_masthead(line)


@pytest.mark.parametrize("line", [
    "This page explains how marks are given in graded music exams and when results arrive.",
    "This key facts sheet, January 2026 edition, explains how the Over-50s Life Plan works.",
    "This summary gives the key facts about our two levels of cover for cats and dogs.",
    "This guide sets out what to do before your first shift.",
    "These rules apply to every team and player in the league.",
    "It applies to all exams taken from 1 January 2026.",
    "These terms apply from 1 April 2025.",
])
def test_a_sentence_about_the_document_itself_describes_it(line: str) -> None:
    assert describes_itself(line)


@pytest.mark.parametrize("line", [
    "This discount does not apply to emergency emptying.",
    "The discount applies to the weekly price only.",
    "This applies only to runners whose home address is more than 50 km away.",
    "The guide dog area is next to the main entrance.",
    "Our guides explain the history of the castle on every tour.",
])
def test_a_rule_that_mentions_a_page_or_a_scope_is_not_about_the_document(line: str) -> None:
    assert not describes_itself(line)


@given(st.text(max_size=200))
def test_any_text_is_read_without_error_and_a_semicolon_makes_no_masthead(text: str) -> None:
    assert isinstance(describes_itself(text), bool)
    assert isinstance(is_masthead(text), bool)
    assert not is_masthead(f"{text}; {text}")
