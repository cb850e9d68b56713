"""The kind of value a question asks for, and whether a sentence states one."""

from __future__ import annotations

import pytest

from composer_app.server.providers.answer_kinds import (
    asked_for,
    holds_kind,
    kind_nouns,
    lacks_kind,
    value_shapes,
    wanted_kind,
)


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


def test_a_share_of_the_very_price_asked_for_does_not_state_it() -> None:
    sentence = "If you cancel your entry by 31 January, half of the entry fee is refunded."
    assert lacks_kind(sentence, "How much is the entry fee for the full marathon?", "amount")
    assert not lacks_kind(sentence, "How much do I get back if I cancel in January?", "amount")
    deposit = "A date is reserved once we have received a deposit of 30 percent of the hire fee."
    assert lacks_kind(deposit, "How much is the hire fee?", "amount")
    assert not lacks_kind(deposit, "How much deposit do we have to pay?", "amount")
    assert not lacks_kind("Half of the fee, 40 euros, is due on booking.", "How much is the fee?",
                          "amount")


@pytest.mark.parametrize("question", [
    "What does Millbrook County Archive charge if I want to take my own photos?",
    "What do you charge for a second key?",
    "What does the bike shop charge?",
])
def test_what_someone_charges_is_asked_as_an_amount(question: str) -> None:
    assert wanted_kind(question) == "amount"


def test_a_bare_percentage_answers_only_a_difference() -> None:
    sentence = "On Sundays, the surcharge is 50 percent."
    assert not holds_kind(sentence, "amount")
    assert lacks_kind(sentence, "How much does a move cost?", "amount")
    assert not lacks_kind(sentence, "How much extra is a Sunday move?", "amount")
    assert lacks_kind("30 percent of customers pay by card.", "How much is it?", "amount")
    # bringing a car back asks no difference; getting money back does
    battery = "Return the car with a quarter of a tank (or 25% charge for electric cars)."
    assert lacks_kind(battery, "What do you charge if I bring the car back empty?", "amount")
    assert not lacks_kind("You get 50% back.", "How much money do I get back?", "amount")


@pytest.mark.parametrize(("question", "kind"), [
    ("What number do I ring when I spot a swarm of bees?", "phone"),
    ("What is the phone number of the main reception?", "phone"),
    ("Which number should we call at night?", "phone"),
    ("What's the emergency number?", "phone"),
    ("What number of guests is allowed?", "quantity"),
    ("What is the maximum number of players?", None),
])
def test_a_question_for_a_number_to_call_asks_for_a_phone_number(question: str,
                                                                  kind: str | None) -> None:
    assert wanted_kind(question) == kind


@pytest.mark.parametrize(("sentence", "lacks"), [
    ("If you see a swarm, call the swarm hotline on 0171 448 2210.", False),
    ("Reception: +49 (30) 12 34 56", False),
    ("Do not try to catch a swarm yourself.", True),
    ("The hotline is open from 8:00 to 20:00 on 12 May 2026.", True),
    ("A call costs 120 euros.", True),
])
def test_a_sentence_without_a_phone_number_is_a_near_miss_for_one(sentence: str,
                                                                   lacks: bool) -> None:
    assert lacks_kind(sentence, "What number do I ring?", "phone") is lacks


@pytest.mark.parametrize("sentence", [
    "If you only need a translation checked, proofreading costs 0.05 euros per word.",
    "A single ticket costs 4.50 euros for adults.",
    "The poster costs €12.90.",
    "The account pays 3.15% AER.",
])
def test_a_price_with_decimals_is_no_clock_time(sentence: str) -> None:
    assert not holds_kind(sentence, "time")
    assert lacks_kind(sentence, "How soon can I get my text translated?", "time")


def test_a_duration_without_a_number_states_a_time() -> None:
    assert holds_kind("For most travellers, one dose of the vaccine is valid for life.", "time")
    assert not lacks_kind("The records are kept indefinitely.", "How long are they kept?", "time")


def test_a_time_word_the_question_names_itself_states_no_time() -> None:
    question = "Until when does the bathing season last?"
    assert lacks_kind("An adult season ticket costs 60 euros.", question, "time")
    assert not lacks_kind("The bathing season runs from 15 May to 15 September.", question,
                          "time")


def test_a_question_for_a_time_of_day_is_not_answered_by_days_alone() -> None:
    question = "By what time do I have to pick her up from the camp?"
    assert wanted_kind(question) == "time"
    assert lacks_kind("The camp runs Monday to Friday in July and August.", question, "time")
    assert not lacks_kind("The day camp runs from 8:30 to 16:30.", question, "time")
    assert not lacks_kind("Children are collected in the afternoon.", question, "time")


@pytest.mark.parametrize("sentence", [
    "Monthly and annual season tickets are valid on all night lines without a surcharge.",
    "Alterations are done at no additional charge.",
    "Children and young people under 18 are exempt from the co-payment.",
    "For juniors, the joining fee is waived.",
])
def test_a_sentence_saying_nothing_is_charged_answers_a_price_question(sentence: str) -> None:
    assert not lacks_kind(sentence, "Do I need to pay anything extra?", "amount")


@pytest.mark.parametrize("question", [
    "How short notice can I cancel the visit?",
    "How much notice do I have to give?",
    "How tall may the headstone be?",
])
def test_notice_and_size_questions_ask_for_a_value(question: str) -> None:
    assert wanted_kind(question) in ("time", "quantity")


def test_a_sentence_saying_you_are_not_charged_answers_whether_you_pay() -> None:
    assert not lacks_kind("If a bike is stolen during your ride, you are not charged.",
                          "Do I have to pay for it?", "amount")


@pytest.mark.parametrize("question", [
    "Is there a Christmas surcharge at Whisker Lodge?",
    "Are there any fees for cancelling?",
])
def test_asking_whether_there_is_a_charge_asks_for_an_amount(question: str) -> None:
    assert wanted_kind(question) == "amount"
    assert lacks_kind("The Christmas surcharge is not affected by this notice.", question,
                      "amount")


@pytest.mark.parametrize("question", [
    "During which months can allotment holders get water?",
    "What is the deadline for quitting my allotment plot?",
])
def test_months_and_deadlines_are_asked_as_times(question: str) -> None:
    assert wanted_kind(question) == "time"


def test_the_verb_may_states_no_time_and_the_month_does() -> None:
    assert not holds_kind("Each student may register for at most 36 credit points.", "time")
    assert holds_kind("The bathing season runs from 15 May to 15 September.", "time")
    assert holds_kind("The kiosk is open in May and June.", "time")


@pytest.mark.parametrize(("question", "focus"), [
    ("How much is a riding lesson for my 8-year-old daughter?", {"lesson"}),
    ("How much does a late departure from the hotel cost?", {"departur"}),
    ("What is the phone number of the main reception?", {"phon"}),  # "number": a kind
    ("How much is the entry fee for the full marathon?", set()),  # the price word itself
])
def test_the_thing_a_price_question_asks_about_is_its_head_word(question: str,
                                                                 focus: set[str]) -> None:
    stemmed = {"lesson", "rid", "departur", "late", "hotel", "phon", "number", "entry",
               "marathon", "fee"}
    assert asked_for(question, stemmed) == focus & stemmed


@pytest.mark.parametrize("question", [
    "What's the yearly fee for me?",  # contracted
    "How much is shoe rental at the bouldering hall?",  # without an article
    "How much is parking per day?",
    "How much is that each year?",  # how much is that, it, would it be, are they
    "How much is it for a family of four?",
    "How much would that be for a week?",
    "How much are they per night?",
])
def test_contracted_article_less_and_how_much_is_that_questions_ask_for_a_price(
        question: str) -> None:
    assert wanted_kind(question) == "amount"


def test_a_question_for_a_day_is_not_answered_by_a_duration_alone() -> None:
    question = "By what day of the month does my rent have to be paid?"
    assert wanted_kind(question) == "time"
    assert lacks_kind("The deposit is two months' rent.", question, "time")
    assert not lacks_kind("Rent must reach our account by the 3rd working day of each month.",
                          question, "time")
    assert not lacks_kind("Rent is collected on Mondays.", question, "time")


def test_a_question_for_times_in_the_plural_asks_for_times_of_day() -> None:
    question = "What times does the half-day coastal bike tour leave?"
    assert wanted_kind(question) == "time"
    assert lacks_kind("Tour: Coastal Loop (half day); Duration: 3.5 hours; Adult: £45",
                      question, "time")
    assert not lacks_kind("The Coastal Loop departs at 09:30 and 14:00 daily.", question, "time")


@pytest.mark.parametrize("sentence", [
    "Printing costs 5p per page in black and white and 25p per page in colour.",
    "Each extra kWh is charged at 45 pence.",
])
def test_pence_are_an_amount_of_money(sentence: str) -> None:
    question = "How much does colour printing cost in the library?"
    assert wanted_kind(question) == "amount"
    assert not lacks_kind(sentence, question, "amount")


def test_a_minimum_amount_to_pay_in_is_asked_as_an_amount() -> None:
    question = "Is there a minimum amount I have to pay in to open a Christmas Saver?"
    assert wanted_kind(question) == "amount"
    assert lacks_kind("You can pay into the Christmas Saver as often as you like.", question,
                      "amount")
    assert not lacks_kind("The minimum first payment is £10.", question, "amount")
    assert wanted_kind("Is there a maximum number of guests?") != "amount"


@pytest.mark.parametrize(("sentence", "lacks"), [
    ("The credit union is owned and run by its members.", True),
    ("We have 4,200 members across the county.", False),
    ("There is no limit on the number of members.", False),
    ("Membership is unlimited.", False),
])
def test_a_question_how_many_is_answered_by_a_number_or_no_limit(sentence: str,
                                                                 lacks: bool) -> None:
    question = "How many members does the credit union have?"
    assert wanted_kind(question) == "quantity"
    assert lacks_kind(sentence, question, "quantity") is lacks
    assert not lacks_kind(sentence, "How often do you meet?", "quantity")


def test_how_much_of_a_measure_is_no_price() -> None:
    assert wanted_kind("How much does that weigh?") != "amount"
    assert wanted_kind("How much is that in storage space?") != "amount"
    assert wanted_kind("How much would it be in kilos?") != "amount"


@pytest.mark.parametrize("question", [
    "What is the check-in time at the Harbour Hotel?",
    "What is the latest check-out time?",
])
def test_a_time_named_by_what_happens_then_asks_for_a_time_of_day(question: str) -> None:
    assert wanted_kind(question) == "time"
    assert lacks_kind("Check-in and check-out are at the front desk.", question, "time")
    assert lacks_kind("Rooms are cleaned every day.", question, "time")
    assert not lacks_kind("Check-in starts at 15:00.", question, "time")


def test_a_time_in_other_senses_asks_for_no_time() -> None:
    assert wanted_kind("What is the response time for an urgent ticket?") == "time"
    assert wanted_kind("What is the part time rate?") is None
    question = "What is the cut-off time for the marathon?"  # a time limit: a duration says it
    assert wanted_kind(question) == "time"
    assert not lacks_kind("The time limit for the marathon is 6 hours.", question, "time")
    assert wanted_kind("What is the full-time salary?") is None


def test_the_words_naming_what_is_asked_depend_on_the_question() -> None:
    assert "days" in kind_nouns("time", "On which days are releases shipped?")
    assert "days" not in kind_nouns("time", "How long does a release take?")
    assert "time" in kind_nouns("time", "How long does a release take?")
    assert kind_nouns("phone", "What number do I ring?") >= {"number"}
    assert "fee" in kind_nouns("amount", "What is the fee?")
    assert kind_nouns(None, "Who runs it?") == frozenset()


@pytest.mark.parametrize(("sentence", "lacks"), [
    ("Two values change: the parking charge for residents and the free cancellation window.",
     True),  # the cancellation is free, not the parking
    ("We offer free wifi in every room.", True),
    ("Guests enjoy free parking.", False),
    ("Parking is free for residents.", False),
    ("Parking is free.", False),
    ("Parking is free within 40 km of the hotel.", False),
    ("There are no fees for parking overnight.", False),
    ("No second parking fee is charged for a return visit.", False),
])
def test_free_says_nothing_about_a_price_when_it_frees_another_thing(sentence: str,
                                                                    lacks: bool) -> None:
    question = "How much does parking cost for residents?"
    assert lacks_kind(sentence, question, "amount") is lacks


@pytest.mark.parametrize(("question", "kind"), [
    ("If my kid wants to quit music lessons, how much warning do we have to give?", "time"),
    ("If I cancel late, how much do I pay?", "amount"),
    ("When I arrive after midnight, how much is the late check-in fee?", "amount"),
    ("When does the pool open?", "time"),
    ("If I cancel 10 days before, do I get a full refund?", None),
])
def test_the_kind_is_read_after_a_condition_the_question_opens_with(question: str,
                                                                    kind: str | None) -> None:
    assert wanted_kind(question) == kind


def test_the_words_of_a_lead_time_are_held_by_a_time_stated_as_one() -> None:
    question = "How far ahead do I need to arrange a swap?"
    assert "ahead" in kind_nouns("time", question, "Swaps are entered at least 48 hours before.")
    assert "ahead" not in kind_nouns("time", question, "Engineers work up to 3 days per week.")
    assert "notice" in kind_nouns("time", "How much notice do I give?", "Give a month's notice.")


@pytest.mark.parametrize("question", [
    "What's the latest I can call off a walk the night before without paying?",
    "What is the earliest I can check in at the hostel?",
])
def test_the_latest_or_earliest_you_can_act_asks_for_a_time(question: str) -> None:
    assert wanted_kind(question) == "time"


def test_the_latest_of_a_thing_asks_for_no_time() -> None:
    assert wanted_kind("What is the latest version of the booking terms?") is None


@pytest.mark.parametrize("question", [
    "How much per night is it for two cats sharing a chalet?",
    "How much a session does it cost for a child?",
])
def test_how_much_per_unit_asks_for_an_amount(question: str) -> None:
    assert wanted_kind(question) == "amount"


def test_the_shapes_of_the_values_a_sentence_states() -> None:
    assert value_shapes("On Sundays, collection is now between 14:00 and 15:30.") == {"clock"}
    assert value_shapes("Residents now pay £16 per night.") == {"money"}
    assert value_shapes("For balances over £10,000 the rate becomes 3.15% AER.") == \
        {"money", "share"}
    assert value_shapes("Walks are matched by size and energy.") == set()


def test_how_much_compensation_is_an_amount_a_share_of_a_fare_states() -> None:
    question = "How much compensation can I claim?"
    assert wanted_kind(question) == "amount"
    assert not lacks_kind("Return ticket: 25% of the return fare", question, "amount")
    assert lacks_kind("If you arrive 15 minutes or more late, you can claim compensation.",
                      question, "amount")


def test_how_much_money_or_cash_asks_for_an_amount_of_money() -> None:
    question = "How much money do I need to open a 95 Day Notice Saver?"
    assert wanted_kind(question) == "amount"
    assert wanted_kind("How much cash can I take out per day?") == "amount"
    assert wanted_kind("How much water does the dishwasher use?") == "quantity"
    assert lacks_kind("On the 95 Day Notice Saver the charge is 60 days' interest.", question,
                      "amount")
    assert not lacks_kind("Account: 95 Day Notice Saver; Minimum to open: £1,000", question,
                          "amount")


@pytest.mark.parametrize(("sentence", "lacks"), [
    ("They last 40 minutes and do not count against your training budget.", True),
    ("Short talks are held in the canteen on Thursdays at 12:30.", False),
    ("Sessions start at 12:30.", False),
    ("The group meets every evening.", False),
    ("The market is held from May to September.", False),
])
def test_a_duration_alone_does_not_say_when_something_is_held(sentence: str,
                                                              lacks: bool) -> None:
    assert lacks_kind(sentence, "When are the lunch-and-learn sessions held?", "time") is lacks


def test_a_duration_still_says_how_long_something_lasts() -> None:
    assert not lacks_kind("They last 40 minutes.", "How long are the sessions?", "time")
