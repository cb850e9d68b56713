"""Qualifiers that set one group apart from another: which sentence is about the group asked."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.qualifiers import read
from tests.server.providers.support import ranked_sentences


@pytest.mark.parametrize(("question", "sentence", "matched", "contrasted"), [
    ("When is the hall open on a Saturday?", "At weekends it opens at 10:00.",
     {"saturday"}, False),
    ("When is the hall open on a Saturday?", "On weekdays it opens at 7:00.", set(), True),
    ("When is the hall open on a Saturday?", "Monday to Saturday: 8:00 to 20:00.",
     {"saturday"}, False),
    ("When is the hall open on a Wednesday?", "Monday to Friday: 8:00 to 20:00.",
     {"wednesday"}, False),
    ("When is the hall open on a Saturday?", "On Sundays and public holidays it is closed.",
     set(), True),
    ("When is the hall open at the weekend?", "On Sundays it opens at noon.", {"weekend"}, False),
    ("Does the bakery deliver on public holidays?", "Sunday and Monday deliveries leave at 5:00.",
     set(), True),
    ("Is the shop open on Sundays?", "It is closed on Sundays and public holidays.",
     {"sundays"}, False),
    ("Can I mow the lawn on a bank holiday?", "On public holidays, power tools must not be used.",
     {"bank", "holiday"}, False),
    ("What does an adult pay?", "Children under 14 pay 7 euros.", set(), True),
    ("What does a pensioner pay?", "Seniors over 65 pay 3.50 euros.", {"pensioner"}, False),
    ("What does a non-member pay for the hall?", "Members pay 12 euros an hour.", set(), True),
    ("What does a non-member pay for the hall?", "Guests pay 20 euros an hour.",
     {"non", "member"}, False),
    ("What do members pay for the hall?", "Non-members pay 20 euros an hour.", set(), True),
    ("Which key signs requests in test mode?", "Live mode uses the secret key.", set(), True),
    ("Where does the secondary database run?", "The primary database runs in Frankfurt.",
     set(), True),
    ("How fast do new employees accrue vacation?", "All employees receive 25 days.",
     {"employees"}, False),
    ("How long can a contractor borrow a laptop?", "Staff may borrow a laptop for 10 days.",
     set(), True),
    ("How long can a contractor borrow a laptop?", "Contractors may borrow one for 3 days.",
     {"contractor"}, False),
    ("I work part-time. How much leave do I get?", "Full-time employees get 25 days.",
     set(), True),
    ("Do you ship overseas?", "Domestic parcels arrive in 2 days.", set(), True),
    ("Is the helpline open on Easter Monday?", "On weekdays it opens at 8:00.", set(), True),
    ("How much is the Level 3 course?", "The Level 2 course costs £295.", set(), True),
    ("How much is the Level 3 course?", "Level 1 costs £160 and Level 3 costs £450.",
     {"level", "3"}, False),
    ("How much is the Level 3 course?", "Courses are paid in advance.", set(), False),
    ("Which band is that treatment?", "Band 2 costs £73.50.", set(), False),
    ("Can I join with a Level 2 certificate?", "You need level 3 or above.", set(), False),
    ("I own a semi-detached house. How far can I extend?",
     "Up to 8 metres on a detached house may be allowed.", set(), True),
    ("I own a semi-detached house. How far can I extend?",
     "On a semi-detached or terraced house the limit is 3 metres.", {"semi", "detached"}, False),
    ("I'm 72. Can I get the reduction?", "Working-age residents get up to 80 per cent.",
     set(), True),
    ("I'm 72. Can I get the reduction?", "For pension-age residents the savings limit is higher.",
     {"72"}, False),
    ("Is the helpline open on Easter Monday?", "On bank holidays it opens at 10:00.",
     {"easter", "monday"}, False),
    ("How many rehearsals are there?", "Rehearsals are on Mondays.", set(), False),
    ("We brought our e-bikes back 40 minutes late. What is the charge?",
     "Late returns cost £5 for every 30 minutes for standard bikes", set(), True),
    ("We brought our e-bikes back 40 minutes late. What is the charge?",
     "£10 for every 30 minutes for e-bikes", {"e", "bikes"}, False),
    ("I had a return ticket and the train was 40 minutes late.",
     "Single tickets: 50% of the ticket price", set(), True),
    ("I had a return ticket and the train was 40 minutes late.",
     "Return tickets: 50% of half the return price", {"return", "ticket"}, False),
    ("Can I return my bike at another station?", "Single tickets are valid for one day.",
     set(), False),  # "return" alone is a verb, not the ticket
])
def test_a_sentence_about_another_group_is_contrasted(question: str, sentence: str,
                                                       matched: set[str],
                                                       contrasted: bool) -> None:
    reading = read(question, sentence)
    assert set(reading.matched) == matched
    assert reading.contrasted is contrasted


def test_a_compound_that_names_a_thing_is_no_group() -> None:
    assert not read("How much is a guest room per night?", "Members pay 10 euros.").contrasted
    assert not read("How long is a resident parking permit valid?",
                    "Businesses may apply for a permit.").contrasted
    assert read("What do seniors pay?", "Overdue items on adult cards cost 30 cents.").contrasted


def test_words_inside_other_words_are_not_qualifiers() -> None:
    assert not read("Is the membership fee refunded?", "Non-members pay more.").contrasted
    assert not read("What does a member pay?", "The testament is read aloud.").contrasted
    assert not read("When do adults swim?", "Adulthood starts at 18.").contrasted


_WORDS = st.sampled_from(["saturday", "weekend", "weekdays", "adults", "children", "new",
                          "regular", "test", "live", "primary", "backup", "members",
                          "non-members", "summer", "winter", "morning", "evening", "the", "fee",
                          "pay", "monday", "to", "friday", "guests", "seniors"])


@given(st.lists(_WORDS, max_size=12), st.lists(_WORDS, max_size=12))
def test_a_reading_is_consistent(question_words: list[str], sentence_words: list[str]) -> None:
    question, sentence = " ".join(question_words), " ".join(sentence_words)
    reading = read(question, sentence)
    assert not read(question, question).contrasted  # a text is always about its own groups
    assert not read(question, "the fee").contrasted  # no qualifier: a rule for everyone
    assert reading.matched <= set(question.replace("-", " ").split())
    assert read(question, sentence) == reading  # it depends on the two texts only


RULES = ("# Opening hours\n"
         "On weekdays the climbing hall is open from 7:00 to 23:00 and day tickets cost 11 euros.\n"
         "At weekends the hall opens at 9:00 and day tickets cost 15 euros.\n")


def test_the_sentence_about_the_day_asked_beats_the_one_about_other_days() -> None:
    _, _, ranked = ranked_sentences("What does a day ticket cost on a Saturday?",
                                    "climbing-hall.md", RULES)
    assert ranked[0].sentence.text.startswith("At weekends")
    weekday = next(s for s in ranked if s.sentence.text.startswith("On weekdays"))
    assert weekday.coverage < 0.6 <= ranked[0].coverage


@pytest.mark.parametrize(("question", "sentence", "contrasted"), [
    ("Does my 12-year-old pay the joining fee?", "Juniors (under 18) pay 95 euros.", False),
    ("Does my twelve-year-old pay the joining fee?", "Students pay 150 euros.", True),
    ("What does my 70-year-old father pay?", "Seniors pay 9 euros.", False),
    ("What does my 70-year-old father pay?", "Adults pay 14 euros.", True),
    ("I'm not a member. What does an hour cost?", "Members pay 18 euros per hour.", True),
    ("I'm not a member. What does an hour cost?", "Non-members pay 26 euros.", False),
    ("I've been to the repair café before. What do I do?", "Regular visitors take a number.",
     False),
    ("I've been to the repair café before. What do I do?",
     "First-time visitors sign a waiver.", True),
    ("Is this my first visit?", "Regular visitors take a number.", True),
    ("We are a company. What do we pay per freezer?", "Residents hand them in free of charge.",
     True),
    ("We are a company. What do we pay per freezer?", "Businesses pay 25 euros each.", False),
    ("Until when can the DJ play inside the barn?", "Music outside the barn must end at 22:00.",
     True),
    ("Until when can the DJ play inside the barn?", "Music indoors must end at 23:00.", False),
    ("I'm visiting my daughter at uni. What do I pay for lunch?",
     "Guests pay 3 euros more per main dish.", False),
    ("I'm visiting my daughter at uni. What do I pay for lunch?",
     "Members of staff pay 1.50 euros more.", True),
    ("Do I need a skin test before my first colour treatment?",
     "Returning customers do not need another skin test.", True),
    ("Our youth group has to cancel. Will that cost us anything?",
     "Individual guests can cancel free of charge until two days before arrival.", True),
    ("Our youth group has to cancel. Will that cost us anything?",
     "Groups pay 50 percent of the booked price.", False),
])
def test_ages_visits_and_customers_name_their_group(question: str, sentence: str,
                                                    contrasted: bool) -> None:
    assert read(question, sentence).contrasted is contrasted


def test_an_earlier_visit_names_only_its_qualifier_word() -> None:
    reading = read("I've been to the repair café before. What do I do?",
                   "Regular visitors take a number.")
    assert reading.matched == {"before"}  # never "repair" or "café": those are not qualifiers


def test_new_names_the_newcomers_only_before_a_word_for_people_or_when_someone_is_new() -> None:
    question = "I'm having my hair dyed for the first time. Do I need to come in beforehand?"
    assert read(question, "Returning customers do not need a new skin test.").contrasted
    assert read("What do new members pay?", "Regular members pay 50 euros.").contrasted
    assert read("I'm new here. Where do I start?", "Regular visitors take a number.").contrasted
    assert not read("What do new members pay?", "The new route costs nothing.").contrasted
    assert read("Do newcomers pay?", "New employees pay nothing.").matched == {"newcomers"}


def test_a_rule_restricted_with_only_to_other_days_answers_for_the_day_asked() -> None:
    question = "Can I take my mountain bike on the night bus on a Wednesday?"
    assert not read(question, "Normal bicycles are carried only on Friday and Saturday nights."
                    ).contrasted
    assert not read(question, "Bikes go on Saturdays only.").contrasted
    assert read(question, "Bicycles are carried on Friday and Saturday nights.").contrasted


def test_an_age_bound_for_the_young_names_children() -> None:
    question = "What does a Category B ticket cost for my 13-year-old?"
    row = "Category B; Full price: 46 euros; Students under 27: 29 euros; Under 16: 17 euros"
    assert not read(question, row).contrasted  # "Under 16" is the child's price
    assert read(question, "Students under 27 pay 29 euros.").contrasted
    assert read("What does an adult pay?", "Children aged 6 to 14 pay 1.90 euros.").contrasted
    assert not read("What does an adult pay?", "Orders under 10 kg ship free.").contrasted



def test_a_persons_stated_age_names_their_group() -> None:
    question = "My daughter is 12. What do piano lessons cost per month?"
    assert read(question, "Adults who cannot come every week can buy a flexible card.").contrasted
    assert not read(question, "Children and teenagers pay 78 euros per month.").contrasted


def test_a_grown_persons_stated_age_names_no_group() -> None:
    question = "I'm 22 and study full-time. How much is a monthly pass for me?"
    assert not read(question, "Students aged 18 to 27 pay 39 euros per month.").contrasted


def test_being_at_university_names_the_student_group() -> None:
    question = "I'm 23 and still at university. How much would the choir cost me each month?"
    assert read(question, "Students and trainees pay 6 euros per month.").matched
    assert read(question, "Adults pay 12 euros per month.").contrasted
    assert not read("Where is the university library?", "Adults pay 12 euros.").contrasted


def test_check_in_and_check_out_are_other_ends_of_a_stay() -> None:
    assert read("What time is check-out at the guest house?", "Check-in is from 16:00.").contrasted
    assert not read("What time is check-out?", "Guests must check out by 10:30.").contrasted


def test_a_month_the_question_names_is_in_the_season_a_sentence_names() -> None:
    question = "We're visiting Port Meran in January. When does the last Red Line tour start?"
    winter = read(question, "In winter the last full loop leaves at 16:30.")
    assert winter.matched == {"january"} and not winter.contrasted
    assert read(question, "In summer the last full loop departs at 18:30.").contrasted
    assert not read(question, "The tour starts at 10:00.").contrasted
    assert read("Can we come during July?", "In winter tickets cost 8 euros.").contrasted
    assert not read("Can we come during July?", "Off-peak tickets cost 8 euros.").contrasted
    spring = "We're visiting in April. When does the last tour start?"  # no season of its own
    assert not read(spring, "In summer the last full loop departs at 18:30.").contrasted
    dated = "When is the market open?"  # a sentence's month is a date, not a season
    assert not read(dated, "In January the market opens at 9:00.").contrasted


def test_a_time_offices_are_shut_is_out_of_hours_against_office_hours() -> None:
    sunday = "I locked myself out late on a Sunday night. What will the locksmith cost me?"
    assert read(sunday, "If you are locked out during office hours, it costs £85.").contrasted
    outside = read(sunday, "Outside office hours, a lockout call-out costs £140.")
    assert outside.matched == {"sunday"} and not outside.contrasted
    late = read("I'm locked out at 11 pm on a Tuesday.", "During office hours it costs £85.")
    assert late.contrasted
    morning = "I'm locked out at 11 am on a Tuesday."  # offices are open then
    assert not read(morning, "During office hours it costs £85.").contrasted
    assert not read("I'm locked out at 12 pm on a Tuesday.", "During office hours: £85.").contrasted
    assert read("I'm locked out at 12.30 am on a Tuesday.", "During office hours: £85.").contrasted
    assert not read("I got there at 6.12pm.", "During office hours: £85.").contrasted  # minutes
    assert read("I got there at 21:40.", "During office hours: £85.").contrasted
    assert not read(sunday, "Replacement keys cost £15 each.").contrasted  # it says no hours
    assert not read("Is there outside seating?", "Outside office hours, ring 0800.").contrasted
    asked = read("Can I ring during office hours?", "Out of hours, ring the emergency line.")
    assert asked.contrasted  # the question's own class
