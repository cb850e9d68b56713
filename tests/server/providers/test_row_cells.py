"""A table row answered for the group a question asks about."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.row_cells import defined_periods, for_the_asked

CARD = "Ticket: 10-visit card; Adults: 125 euros; Students: 105 euros; Children (6 to 13): 70 euros"
FERRY = ("Ticket: Return ticket (valid for 2 months); Adults (15 and over): 23.40 euros; "
         "Children (6 to 14): 11.70 euros; Children under 6: free")


def test_a_student_reads_the_students_price() -> None:
    assert for_the_asked("I'm a student. What does a 10-visit card cost me?", CARD) == \
        "Ticket: 10-visit card; Students: 105 euros"


def test_a_childs_age_keeps_the_column_whose_range_holds_it() -> None:
    assert for_the_asked("What's the return fare for my 10-year-old son?", FERRY) == \
        "Ticket: Return ticket (valid for 2 months); Children (6 to 14): 11.70 euros"


CHARGER = ("Charger type: Rapid (50 kW); Where you will find it: Tarnley Leisure Centre; "
           "Pay as you go: 69p per kWh; With a ChargeCard: 64p per kWh")


def test_the_alternative_a_question_names_by_its_heading_is_kept() -> None:
    assert for_the_asked("I have a ChargeCard. What's the price per kWh at Tarnley?", CHARGER) \
        == ("Charger type: Rapid (50 kW); Where you will find it: Tarnley Leisure Centre; "
            "With a ChargeCard: 64p per kWh")


def test_alternatives_named_only_by_words_of_paying_are_all_kept() -> None:
    assert for_the_asked("What do I pay per kWh at Tarnley?", CHARGER) == CHARGER


def test_a_question_naming_no_group_reads_the_whole_row() -> None:
    assert for_the_asked("What does a 10-visit card cost?", CARD) == CARD


SITE = ("Site: Hollins Lane; April to September: 8:00am to 7:00pm every day; "
        "October to March: 8:00am to 4:00pm every day")


def test_the_season_a_question_states_keeps_the_column_whose_months_hold_it() -> None:
    november = "It's November and I'm going to Hollins Lane after work. When does it close?"
    assert for_the_asked(november, SITE) == \
        "Site: Hollins Lane; October to March: 8:00am to 4:00pm every day"
    assert for_the_asked("It is 3 June. When does Hollins Lane close?", SITE) == \
        "Site: Hollins Lane; April to September: 8:00am to 7:00pm every day"
    assert for_the_asked("When does Hollins Lane close?", SITE) == SITE  # no season stated


POOL = "Pool: Main pool; Monday to Friday: 06:30 to 21:00; Saturday and Sunday: 08:00 to 18:00"


def test_the_day_a_question_states_keeps_the_column_for_that_day() -> None:
    assert for_the_asked("Can I swim at the main pool at 7 on a Saturday morning?", POOL) == \
        "Pool: Main pool; Saturday and Sunday: 08:00 to 18:00"
    assert for_the_asked("When does the main pool open on Wednesday?", POOL) == \
        "Pool: Main pool; Monday to Friday: 06:30 to 21:00"
    assert for_the_asked("When does the main pool open?", POOL) == POOL


def test_a_row_that_is_not_heading_and_value_cells_is_left_alone() -> None:
    row = "Opening hours; Monday to Friday; 9:00 to 17:00"
    assert for_the_asked("I'm a student. When are you open?", row) == row


@given(st.text(max_size=200))
def test_any_row_is_kept_whole_or_narrowed_to_its_own_cells(row: str) -> None:
    narrowed = for_the_asked("I'm a student. What does it cost for my 10-year-old?", row)
    assert narrowed == row or set(narrowed.split("; ")) < set(row.split("; "))
    assert narrowed.split("; ")[0] == row.split("; ")[0]


CAR_CLUB = ("Vehicle: Family estate; Weekday per hour: £6.90; Weekend per hour: £7.80; "
            "Per day (24 hours): £62")
FERRY_FARES = ("Ticket: Child (5 to 15); Single: £3.40; Day return: £5.80; "
               "Book of 10 single journeys: £26.00")


def test_after_a_group_is_left_out_the_alternative_the_question_names_is_kept() -> None:
    assert for_the_asked("What is the hourly rate for a family estate at the weekend?",
                         CAR_CLUB) == "Vehicle: Family estate; Weekend per hour: £7.80"
    assert for_the_asked("What is the day return fare for a child?", FERRY_FARES) == \
        "Ticket: Child (5 to 15); Day return: £5.80"


SEASONS = ["Prices are per pitch, per night.",
           "Peak season runs from 15 June to 10 September, and from 20 December to 2 January.",
           "All other dates are off-peak."]
PITCH = "Pitch: Tent pitch; Off-peak season: £18.00; Peak season: £26.00"


@pytest.mark.parametrize(("question", "kept", "left"), [
    ("How much is a tent pitch in July?", "£26.00", "£18.00"),
    ("How much is a tent pitch on 28 December?", "£26.00", "£18.00"),
    ("How much is a tent pitch in April?", "£18.00", "£26.00"),
])
def test_a_period_the_document_defines_names_the_column_for_a_date(question: str, kept: str,
                                                                  left: str) -> None:
    periods = defined_periods(SEASONS)
    assert periods == {"peak season": "from 15 June to 10 September, and from 20 December to "
                                      "2 January."}
    narrowed = for_the_asked(question, PITCH, periods)
    assert kept in narrowed and left not in narrowed


def test_without_a_date_or_a_definition_both_periods_stay() -> None:
    assert for_the_asked("How much is a tent pitch?", PITCH, defined_periods(SEASONS)) == PITCH
    assert for_the_asked("How much is a tent pitch in July?", PITCH) == PITCH


VOLTBRIDGE = ("Charger type: Rapid, 50 kW; Voltbridge Plus members: 59p per kWh; "
              "Pay as you go: 72p per kWh")


def test_a_heading_the_question_holds_whole_names_its_alternative() -> None:
    asked = "What does Voltbridge charge per kWh on a rapid charger if I pay as I go?"
    assert for_the_asked(asked, VOLTBRIDGE, title="Voltbridge Charging: Tariffs") == \
        "Charger type: Rapid, 50 kW; Pay as you go: 72p per kWh"


def test_a_word_of_the_documents_title_names_no_alternative() -> None:
    asked = "What does Voltbridge charge per kWh on a rapid charger?"
    assert for_the_asked(asked, VOLTBRIDGE, title="Voltbridge Charging: Tariffs") == VOLTBRIDGE


PHYSIO = ("Appointment: Follow-up treatment; Length: 30 minutes; Weekdays before 17:00: £48; "
          "Evenings and Saturdays: £55")


@pytest.mark.parametrize(("question", "kept"), [
    ("How much is a follow-up if I book it for 6pm on a Wednesday?", "Evenings and Saturdays: £55"),
    ("How much is a follow-up at 10am on a Wednesday?", "Weekdays before 17:00: £48"),
    ("How much is a follow-up at 10am on a Saturday?", "Evenings and Saturdays: £55"),
])
def test_a_heading_with_a_clock_time_or_a_part_of_the_day_holds_for_the_time_asked(
        question: str, kept: str) -> None:
    assert for_the_asked(question, PHYSIO) == \
        f"Appointment: Follow-up treatment; Length: 30 minutes; {kept}"


DELAY = ("Delay on arrival: 60 minutes or more; Single or advance ticket: 100% of the single fare; "
         "Return ticket (one way delayed): 50% of the return fare")
DEADLINES = ("Change: new bank account; Monthly-paid staff: by the 5th of the month; "
             "Weekly-paid staff: by Wednesday at 12:00")


@pytest.mark.parametrize(("question", "row", "kept"), [
    ("My train was over an hour late and I had bought a return ticket. What can I claim?", DELAY,
     "Delay on arrival: 60 minutes or more; Return ticket (one way delayed): 50% of the return "
     "fare"),
    ("I'm weekly-paid and have a new bank. By when must payroll hear about it?", DEADLINES,
     "Change: new bank account; Weekly-paid staff: by Wednesday at 12:00"),
])
def test_alternatives_whose_headings_end_on_one_noun_are_told_apart_by_the_word_before_it(
        question: str, row: str, kept: str) -> None:
    assert for_the_asked(question, row) == kept


SUPPORT = ("Plan: Basic; Normal requests: reply within 2 working days; "
           "Urgent requests: reply within 4 hours")


def test_a_word_the_question_negates_names_no_alternative() -> None:
    assert for_the_asked("I have a non-urgent request on Basic. When will I hear back?",
                         SUPPORT) == SUPPORT
    assert for_the_asked("I have non-urgent requests on Basic. When will I hear back?",
                         SUPPORT) == SUPPORT
    assert for_the_asked("I have an urgent request on Basic. When will I hear back?", SUPPORT) \
        == "Plan: Basic; Urgent requests: reply within 4 hours"
