"""A sentence with one rule per case, answered for the asker's case."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.case_clauses import for_the_case


@pytest.mark.parametrize(("question", "sentence", "answer"), [
    ("My niece is 13. How much is an audio guide for her?",
     "Audio guides cost £3 for adults and £1.50 for children under 16.",
     "Audio guides cost … £1.50 for children under 16."),
    ("I'd like an e-bike through the cycle to work scheme that costs £3,000. Is that within the "
     "limit?",
     "Through our cycle to work scheme you can get a bike worth up to £2,000, or an electric "
     "bike worth up to £3,500, and pay for it out of your salary before tax over 12 months.",
     "An electric bike worth up to £3,500."),
    ("It's Saturday. When does the pool open?",
     "On weekdays the pool opens at 7:00; on Saturdays it opens at 9:00.",
     "On Saturdays it opens at 9:00."),
    ("We are a primary school. How many adults must come with the pupils?",
     "Primary schools must bring one adult for every six pupils, and secondary schools one "
     "adult for every ten pupils.",
     "Primary schools must bring one adult for every six pupils."),
    ("It's Saturday. What does an hour of cosmic bowling cost?",  # after the first clause's label
     "Cosmic bowling, per lane and hour: Monday to Friday 36 euros; Saturdays and Sundays 44 "
     "euros.",
     "Cosmic bowling, per lane and hour: … Saturdays and Sundays 44 euros."),
    ("What does an hour of cosmic bowling cost on a Saturday?",  # a row whose headings hold times
     "Offer: Cosmic bowling, per lane and hour; Monday to Friday before 18:00: not offered; "
     "Monday to Friday from 18:00: 40 euros; Saturdays, Sundays and public holidays: 44 euros",
     "Offer: Cosmic bowling, per lane and hour; Saturdays, Sundays and public holidays: 44 "
     "euros."),
    ("I drop my skates off on a Sunday at ten in the morning. When are they ready?",
     "At weekends, skates handed in before 12:00 are ready the same afternoon; on weekdays they "
     "are ready the next day.",  # "afternoon" is no other group when the time holds
     "At weekends, skates handed in before 12:00 are ready the same afternoon."),
    ("My daughter turned 18 last month but she's still at sixth form full time. Does she pay "
     "for check-ups?",  # an item of a list, after the words that open the list
     "You do not pay NHS dental charges if you are under 18, or under 19 and in full-time "
     "education, or pregnant, or have had a baby in the last 12 months.",
     "You do not pay NHS dental charges if you are … under 19 and in full-time education, or "
     "pregnant."),
    ("As a Friends member, how much would the yearly parking pass cost me?",  # a named group
     "The pass costs £45, or £30 for Friends of Glenmarrow.",
     "The pass costs … £30 for Friends of Glenmarrow."),
    ("Where do we meet the ranger for the dawn deer walk?",  # the exception the question names
     "Meeting point for all walks: the flagpole outside the Carnbrae Visitor Centre, except the "
     "dawn deer watch, which meets at the Marrow Bridge car park.",
     "Meeting point for all walks: … the dawn deer watch, which meets at the Marrow Bridge car "
     "park."),
    ("It'll be the second permit in our household. Is it cheaper for an electric car?",
     "Fully electric vehicles pay £30 a year for a first permit in any zone; second and third "
     "permits for electric vehicles are charged at the normal price.",
     "Second and third permits for electric vehicles are charged at the normal price."),
    ("We're on Team. This year one seat has been handed to a fifth person. Is that allowed?",
     "On Team, each seat may be reassigned up to 4 times in any 12-month period; on Business "
     "there is no limit on reassignment.",  # each clause opens with its case: the first too
     "On Team, each seat may be reassigned up to 4 times in any 12-month period."),
    ("My phone has liquid damage. Is the diagnosis free?",  # what sets the exception apart
     "Diagnosis is free of charge for all devices, except phones with liquid damage, which "
     "cost 35 EUR to diagnose.",
     "Phones with liquid damage, which cost 35 EUR to diagnose."),
    ("What is the yearly rent for a half plot?",  # a contrast word in each clause
     "The yearly rent for a full plot is £60, and the yearly rent for a half plot is £35.",
     "The yearly rent for a half plot is £35."),
    ("What is the yearly rent for a full plot?",  # the first clause too
     "The yearly rent for a full plot is £60, and the yearly rent for a half plot is £35.",
     "The yearly rent for a full plot is £60."),
    ("Up to what age can I take out Platinum cover?",
     "Standard cover is available to travellers aged up to 70; Platinum cover is available up "
     "to age 80.",
     "Platinum cover is available up to age 80."),
    ("How many hens can I keep on a half plot?",  # after the first clause's opening words
     "Tenants may keep up to six hens on a full plot, but only three hens on a half plot.",
     "Tenants may keep … only three hens on a half plot."),
    ("How much is breakfast for my 9-year-old?",  # a condition before the first clause
     "If breakfast is not in your rate, it costs £15 for adults and £7 for children aged 4 to "
     "12.",
     "If breakfast is not in your rate, it costs … £7 for children aged 4 to 12."),
    ("What does the music school charge per month to hire a cello?",  # a list's item, then ours
     "Beginners can hire violins and violas for £12 per month and cellos for £18 per month.",
     "Cellos for £18 per month."),
    ("We're on Business. How often can a seat be reassigned?",
     "On Team, each seat may be reassigned up to 4 times in any 12-month period; on Business "
     "there is no limit on reassignment.",
     "On Business there is no limit on reassignment."),
    # a frame with commas before the last comma, then two values at "and"
    ("When do I have to be online on a Friday?",
     "Core hours, when everyone must be reachable, are 09:30 to 15:30 from Monday to Thursday "
     "and 09:30 to 12:30 on Friday.",
     "Core hours, when everyone must be reachable, are … 09:30 to 12:30 on Friday."),
    # clock times at a bare "and", the kept one after the words before the first
    ("It's a Saturday. When does the lido open?",
     "The lido opens at 6:30 on weekdays and at 8:00 on Saturdays.",
     "The lido opens … at 8:00 on Saturdays."),
    # the end asked for, of a clause that opens and one that closes
    ("When can I start signing up for the spring pottery course?",
     "Enrolment opens on 3 February and closes on 24 February at 18:00.",
     "Enrolment opens on 3 February."),
    ("What's the last day to sign up for the spring pottery course? When does it close?",
     "Enrolment opens on 3 February and closes on 24 February at 18:00.",
     "Enrolment … closes on 24 February at 18:00."),
    ("What time does the Fenwick library close?", "The library opens at 9:00 and closes at 17:00.",
     "The library … closes at 17:00."),
    # one rule for two cases at a bare "and": the case by its contrast word
    ("Roughly how long is the wait for a full-size allotment plot?",
     "The current wait is about 18 months for a full plot and about 9 months for a half plot.",
     "The current wait is about 18 months for a full plot."),
    # one thing in two cases, each named by the words before it
    ("I need to move my follow-up appointment. Can I do that online?",
     "You can change a follow-up appointment online in the patient portal, but first "
     "appointments can only be changed by phone.",
     "You can change a follow-up appointment online in the patient portal."),
    ("I've got a monthly rail season. Do I get money off a parking permit?",
     "Holders of an annual season ticket get 20% off annual parking permits, but monthly season "
     "ticket holders get no discount.",
     "Monthly season ticket holders get no discount."),
])
def test_a_sentence_with_a_rule_per_case_answers_for_the_askers_case(
        question: str, sentence: str, answer: str) -> None:
    assert for_the_case(question, sentence) == answer


@pytest.mark.parametrize(("question", "sentence"), [
    # nothing in the question tells the cases apart
    ("How much is an audio guide?", "Audio guides cost £3 for adults and £1.50 for children."),
    # a piece without a value whose next piece states one only far on is no list's item
    ("My son is 22. Can he drive the courtesy car?",
     "Drivers of courtesy cars must be aged 25 or over and have held a full licence for at "
     "least 3 years."),
    ("I want to shift my booking to another week. How much warning do I need to give?",
     "From 1 March 2026 you must give at least 48 hours' notice to cancel or move a service "
     "booking if you want your £25 deposit back."),
    # the first clause's items are not told apart from each other by a bare "and"
    ("How much is it to hire a viola?",
     "Beginners can hire violins and violas for £12 per month and cellos for £18 per month."),
    # one clause, however long
    ("I'm 70. Is there a discount?", "Seniors aged 65 and over get 10% off every ticket."),
    # the case contradicts a clause but no other clause is the asker's
    ("I ordered at 12:00. Will it ship today?",
     "Orders placed before 11:00 ship the same day; all orders are tracked."),
    # clauses too short to stand alone
    ("Is it open on Saturday?", "Open Monday to Friday, and Saturday mornings."),
    # the clause that holds reads only after the one that fails
    ("I can't make my lesson, which is in 30 hours. Do I pay?",
     "Lessons cancelled at least 48 hours in advance are free; otherwise the full price is "
     "charged."),
    # a range, not two clauses
    ("My daughter turns 3 on 15 February. When can she start funded hours?",
     "A child who turns 3 between 1 January and 31 March can start funded hours from 1 April."),
    # a group nobody names
    ("How much would the yearly parking pass cost me?",
     "The pass costs £45, or £30 for Friends of Glenmarrow."),
    # an exception for another thing
    ("Where do we meet the ranger for the night sky walk?",
     "Meeting point for all walks: the flagpole outside the visitor centre, except the dawn deer "
     "watch, which meets at the Marrow Bridge car park."),
    # an exception that is a circumstance of the rule reads only with it
    ("Is the museum open on Easter Monday?",
     "We are closed on Mondays, except on bank holidays, when we open 10:00 to 17:30 as usual."),
    # an exception that says nothing of its own: alone it would read as the rule's opposite
    ("How big can my garden shed be, and am I allowed to sleep in it at weekends?",
     "Staying overnight in the shed is not permitted, except during the summer festival "
     "weekend."),
    # an exception for a kind of the rule's own things, the question naming only the thing
    ("Do I have to pay for you to find out what is wrong with my phone?",
     "Diagnosis is free of charge for all devices, except phones with liquid damage, which "
     "cost 35 EUR to diagnose."),
    # each clause opens with its case, and the question names none
    ("How often can a seat be reassigned?",
     "On Team, each seat may be reassigned up to 4 times in any 12-month period; on Business "
     "there is no limit on reassignment."),
    # the first clause opens with a case, the second does not
    ("We're on Team. Can a seat be reassigned?",
     "On Team, each seat may be reassigned up to 4 times in any 12-month period; reassigning "
     "a seat removes the old user's access."),
    # clauses about different things, not one thing for two cases
    ("How much is the pottery course?", "The pottery course runs for 10 weeks, and the fee is "
     "€200."),
    # two clauses that are not one rule for two cases (they share no words)
    ("Someone broke the staging database. How many days back can we restore?",
     "Staging databases are backed up once a day at 2:00, and these backups are kept for 7 "
     "days."),
    # a word against a pronoun is no contrast (*the notice period* / *it*)
    ("What is the notice period after probation?",
     "During probation the notice period is two weeks; after probation it is three months."),
    # the question names both cases
    ("How much more is a full plot than a half plot?",
     "The yearly rent for a full plot is £60, and the yearly rent for a half plot is £35."),
    # the question asks for both ends, or for neither
    ("When is enrolment for the spring pottery course open, from when until when?",
     "Enrolment opens on 3 February and closes on 24 February at 18:00."),
    ("Can I enrol for the spring pottery course online?",
     "Enrolment opens on 3 February and closes on 24 February at 18:00."),
    # opening hours, or being open, ask for both ends
    ("What are the opening hours of the Fenwick library?",
     "The library opens at 9:00 and closes at 17:00."),
    ("When is the Fenwick library open?", "The library opens at 9:00 and closes at 17:00."),
    # the later clause has a subject of its own
    ("What time does the library close?",
     "The library opens at 9:00 on Saturdays, and it closes at 17:00."),
    # one thing in two cases, and the question names neither case (*in the room* is in person)
    ("My dad needs an interpreter in the room with him. How much notice do we need to give?",
     "In-person interpreters need 48 hours' notice, while phone interpreters can be arranged on "
     "the day."),
    # at a semicolon the words before a shared word name the topic, not a case
    ("How much does it cost to book another bulky waste pickup?",
     "Book a bulky waste collection with the city; the first collection each year is free for "
     "tenants, and further collections cost 30 euros."),
    ("I found a vulnerability and emailed it in. How soon should I hear back?",
     "Send them by email to security@example.org instead; we answer security reports within 3 "
     "working days."),
    # the words before a shared word are a verb and a preposition, not a case
    ("I'm moving to Spain. Can you still post my contact lenses to me there?",
     "We can also deliver to addresses in the European Union for £6.50 per parcel, but we cannot "
     "send lenses to addresses outside the UK and the EU."),
    # a list of days, not two clauses
    ("Our cat got hurt on a Sunday. How much extra do we pay?",
     "On Saturdays after 12:00, Sundays and public holidays, the surcharge is 80 euros."),
])
def test_a_sentence_is_kept_whole_when_the_case_does_not_pick_a_clause(question: str,
                                                                      sentence: str) -> None:
    assert for_the_case(question, sentence) == sentence


_WORDS = st.sampled_from(["adults", "children", "under", "16", "£3", "pay", "on", "Saturdays",
                          "weekdays", "members", "and", "or", "but", ";", ",", "from", "10:00",
                          "before", "after", "the", "fee", "is", "shorter", "contracts", "opens",
                          "closes", "start", "ends"])


@given(st.lists(_WORDS, min_size=1, max_size=30), st.lists(_WORDS, min_size=1, max_size=12))
def test_an_answer_is_the_sentence_or_clauses_taken_from_it(sentence_words: list[str],
                                                            question_words: list[str]) -> None:
    sentence = " ".join(sentence_words) + "."
    answer = for_the_case(" ".join(question_words) + "?", sentence)
    assert answer
    if answer != sentence:
        for clause in answer.rstrip(".").split(" … ")[-1].split("; "):
            assert clause[1:] in sentence
