"""Word forms: stems, synonyms and related forms count as the same term, an exact word counts
more."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.term_forms import (
    NUMBER_VALUES,
    SYNONYM_CREDIT,
    number_value,
    phrasal_sources,
    related,
    single_verbs,
    spelling_variants,
    stem,
    stems,
    synonyms_of,
    term_credit,
    whole_amounts,
)


def test_inflections_share_a_stem():
    assert stem("employees") == stem("employee")
    assert stem("rotated") == stem("rotates") == stem("rotate")
    assert stem("stopped") == stem("stop")
    assert stem("paid") == stem("payment") == stem("pays")
    assert stem("policies") == stem("policy")
    assert stems("2,000 euros and 0.30") == ["2,000", "euro", "and", "0.30"]


def test_an_irregular_form_shares_the_stem_of_its_base_form():
    assert stem("takes") == stem("took") == stem("taken") == stem("take")
    assert stem("made") == stem("make") and stem("held") == stem("hold")


def test_an_exact_word_beats_a_synonym_or_a_related_form():
    assert term_credit(stem("staff"), {stem("staff")}) == 1.0
    assert term_credit(stem("staff"), {stem("employees")}) == SYNONYM_CREDIT
    assert term_credit(stem("deployment"), {stem("deploys")}) == SYNONYM_CREDIT
    assert term_credit(stem("secondary"), {stem("primary")}) == 0.0
    assert "employees" in synonyms_of("staff") and "staff" not in synonyms_of("staff")


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=20))
def test_stems_are_deterministic_and_lower_case(word: str):
    assert stem(word) == stem(word.upper()) == stem(word)
    assert stem(word) == stem(word).casefold()


def test_phrasal_verbs_become_the_single_verb_documents_use():
    assert single_verbs("Can newspapers be taken home?") == "Can newspapers be borrow?"
    assert single_verbs("What if I bring the car back late?") == "What if I return the car late?"
    assert single_verbs("When do I hand in my report?") == "When do I submit my report?"
    assert single_verbs("I take it in the morning.") == "I take it in the morning."
    assert single_verbs("Does the controller keep vents open?") == (
        "Does the controller keep vents open?")


def test_what_is_taken_out_decides_the_single_verb() -> None:
    assert single_verbs("Can he take money out on his own?") == "Can he withdraw money on his own?"
    assert single_verbs("How much cash can I take out per day?") == (
        "How much cash can I withdraw per day?")
    assert single_verbs("Can I take out £200?") == "Can I withdraw £200?"
    assert single_verbs("Am I too old to take out an Oldcastle Over-50s Life Plan?") == (
        "Am I too old to take out an Oldcastle Over-50s Life Plan?")
    assert single_verbs("I took out a HomeHeat plan last week.") == (
        "I took out a HomeHeat plan last week.")
    assert single_verbs("Can we take out a boat?") == "Can we borrow a boat?"
    assert single_verbs("Can I take my aunt out for lunch?") == "Can I take my aunt out for lunch?"
    assert single_verbs("We got back from Portugal.") == "We return from Portugal."
    assert single_verbs("Can I get my money back?") == "Can I get my money back?"
    assert single_verbs("How soon will you get back to us?") == "How soon will you get back to us?"
    assert single_verbs("I've got to bring it back.") == "I've got to return it."
    assert single_verbs("I want to take out a loan.") == "I want to borrow a loan."
    assert phrasal_sources("Can he take money out?") == {stem("withdraw"): ("tak", "out")}
    assert phrasal_sources("I took out a travel insurance policy.") == {}


def test_a_compound_spelt_with_a_hyphen_is_one_word() -> None:
    assert stems("The Wi-Fi and e-mail") == ["the", "wifi", "and", "email"]
    assert stem("sold") == stem("sell")
    assert related(stem("wireless")) >= {stem("wifi")}


def test_a_phrasal_noun_written_with_a_hyphen_is_its_single_verb() -> None:
    assert single_verbs("Late pick-up after closing time") == "Late collect after closing time"
    assert stem("indoor") in related(stem("inside"))


def test_a_prefixed_word_is_a_form_of_the_word_it_leads_with_less_credit() -> None:
    assert term_credit(stem("charge"), {stem("surcharge")}) == SYNONYM_CREDIT
    assert term_credit(stem("book"), {stem("overbooked")}) == SYNONYM_CREDIT
    assert term_credit(stem("charge"), {stem("surcharge"), stem("charge")}) == 1.0
    assert term_credit(stem("cat"), {stem("concat")}) == 0.0  # too short, and no prefix
    assert term_credit(stem("ring"), {stem("offering")}) == 0.0


def test_the_rest_due_is_the_remaining_balance_to_be_paid() -> None:
    assert term_credit(stem("rest"), set(stems("The remaining balance"))) == SYNONYM_CREDIT
    assert term_credit(stem("due"), set(stems("must be paid 8 weeks before"))) == SYNONYM_CREDIT


def test_keeping_quiet_is_the_night_rest() -> None:
    assert term_credit(stem("quiet"), set(stems("night rest begins at 23:00"))) == SYNONYM_CREDIT


def test_paying_up_front_is_paying_in_advance() -> None:
    assert single_verbs("If I pay for a year up front?") == "If I pay for a year in advance?"
    assert single_verbs("Upfront, UP-FRONT or up\tfront") == "in advance, in advance or in advance"
    assert single_verbs("Pick the keys up front of house") == "collect the keys front of house"


def test_a_membership_on_hold_is_a_paused_one() -> None:
    asked = single_verbs("Can I put my membership on hold for a month?")
    assert stem("pause") in stems(asked)
    assert stem("hold") not in stems(asked)


def test_whether_something_is_included_is_answered_by_what_is_paid_or_free() -> None:
    paid = set(stems("they pay the normal parking fee"))
    assert term_credit(stem("included"), paid) == SYNONYM_CREDIT
    assert term_credit(stem("included"), set(stems("Parking is free"))) == SYNONYM_CREDIT


def test_an_american_spelling_is_the_same_term_as_the_british_one() -> None:
    for american, british in (("tires", "tyres"), ("canceled", "cancelled"),
                              ("cancel", "cancelling"), ("colors", "colours"),
                              ("center", "centres"), ("organized", "organised"),
                              ("licenses", "licence")):
        assert stem(american) == stem(british)
        assert term_credit(stem(american), {stem(british)}) == 1.0
    assert stem("fill") == stem("filled") != stem("fil")  # a doubled l of another word stays


def test_a_search_for_one_spelling_is_widened_to_the_other() -> None:
    assert "tyre" in spelling_variants("tires")
    assert "tyre" in synonyms_of("tire")
    assert spelling_variants("bicycle") == ()


def test_reporting_a_move_is_registering_it():
    """*How long do we have to report the new address?* is answered by *you must register
    within two weeks of moving in*."""
    assert term_credit(stem("report"), {stem("register")}) == SYNONYM_CREDIT
    assert term_credit(stem("notify"), {stem("reported")}) == SYNONYM_CREDIT


def test_everyday_words_for_the_same_thing_are_synonyms() -> None:
    for question, document in [("kilo", "kg"), ("guarantee", "warranty"), ("grill", "barbecue"),
                               ("bike", "bicycles"), ("whole", "full"), ("tall", "high"),
                               ("nicked", "stolen"), ("lease", "rent"), ("claws", "nails"),
                               ("clipped", "trim"), ("security", "deposit"), ("shut", "closed"),
                               ("okayed", "approved"), ("ID", "identity"),
                               ("wiped", "deleted"), ("erased", "deletion"),
                               ("carer", "caregivers"), ("overseas", "international"),
                               ("GP", "doctor's"), ("cancel", "terminated"),
                               ("warning", "notice")]:
        assert term_credit(stem(question), {stem(document)}) == SYNONYM_CREDIT


def test_leaving_something_behind_is_forgetting_it() -> None:
    assert single_verbs("I left a jumper behind at the laundrette") == \
        "I forget a jumper at the laundrette"
    assert single_verbs("Please leave the key in the box") == "Please leave the key in the box"
    assert stem("Forgotten") == stem("forget") == stem("forgot")


def test_hanging_on_to_is_keeping_and_a_third_go_is_a_third_attempt() -> None:
    assert single_verbs("How long will you hang on to them?") == "How long will you keep them?"
    assert single_verbs("It's my third go at the exam; I failed on my first try.") == \
        "It's my third attempt at the exam; I failed on my first attempt."
    assert single_verbs("Let us try again, and have a go.") == "Let us try again, and have a go."


def test_a_text_message_is_an_sms_and_within_the_country_is_domestic() -> None:
    """*Can I use text message codes …?* is answered by *SMS codes are not accepted …*; *when I
    travel within the country* by *Employees travelling domestically receive …*."""
    assert single_verbs("Can I use text message codes for GitHub?") == \
        "Can I use SMS codes for GitHub?"
    assert single_verbs("when I travel within the country") == "when I travel domestically"
    assert single_verbs("a trip to another country") == "a trip to abroad"
    assert term_credit(stem("abroad"), {stem("international")}) == SYNONYM_CREDIT
    assert single_verbs("The text of the message stays") == "The text of the message stays"


def test_a_pr_is_a_pull_request() -> None:
    assert single_verbs("How many approvals does my PR need?") == \
        "How many approvals does my pull request need?"
    assert single_verbs("Review PRs within a day") == "Review pull requests within a day"
    assert single_verbs("Print the prices") == "Print the prices"


def test_backing_out_is_withdrawing() -> None:
    assert single_verbs("Can I still back out of the exam?") == \
        "Can I still withdraw of the exam?"


def test_giving_up_is_quitting() -> None:
    assert single_verbs("Members who want to give up their plot") == \
        "Members who want to quit their plot"


@given(st.integers(0, 10_000))
def test_a_whole_number_in_digits_reads_as_itself(value: int) -> None:
    assert number_value(str(value)) == value


def test_a_number_word_reads_as_its_value_and_other_words_as_none() -> None:
    assert number_value("eight") == NUMBER_VALUES["eight"] == 8
    assert number_value(" twelve ") == 12
    assert number_value("lunch") is None and number_value("") is None


def test_a_cut_off_is_a_deadline_and_cutting_off_is_not() -> None:
    assert single_verbs("What is the cut-off time for express orders?") == (
        "What is the time limit for express orders?")
    assert single_verbs("Is there a cutoff for entries?") == "Is there a deadline for entries?"
    assert single_verbs("the cut off date") == "the deadline"
    assert single_verbs("Will my water be cut off?") == "Will my water be cut off?"


def test_going_home_is_leaving() -> None:
    assert single_verbs("By what time must we be off the pitch on the day we go home?") == (
        "By what time must we be off the pitch on the day we leave?")
    assert single_verbs("Can we go out in the evening?") == "Can we go out in the evening?"


def test_taking_photos_is_photographing() -> None:
    assert stem("photograph") in stems(single_verbs("Can I take my own photos of the maps?"))
    assert single_verbs("Can I take pictures?") == "Can I photograph?"
    assert single_verbs("Take the photos home") == "borrow the photos"


def test_a_couple_of_days_is_a_few_and_a_couple_stays_a_couple() -> None:
    assert single_verbs("Am I off ill for a couple of days?") == "Am I off ill for a few days?"
    assert single_verbs("Is there a price for a couple?") == "Is there a price for a couple?"


def test_keeping_is_retaining_and_a_contract_an_agreement() -> None:
    assert term_credit(stem("kept"), set(stems("Logs are retained for 90 days"))) == \
        SYNONYM_CREDIT
    assert term_credit(stem("contract"), set(stems("the rental agreement"))) == SYNONYM_CREDIT


def test_a_bound_from_above_is_a_maximum() -> None:
    assert single_verbs("How many dogs can join one walk at most?") == \
        "How many dogs can join one walk maximum?"
    assert single_verbs("Groups are never larger than five dogs.") == \
        "Groups are maximum five dogs."
    assert single_verbs("Bring no more than 2 guests.") == "Bring maximum 2 guests."
    assert single_verbs("Most members pay more than that.") == "Most members pay more than that."


def test_a_whole_amount_of_money_is_the_same_word_with_or_without_its_cents() -> None:
    """*£16.00* in a price table is the *£16* a question names; a bare *8.00* may be a time of
    day, and amounts with cents keep them."""
    assert "16" in stems("Monthly price: £16.00; cover: boiler")
    assert stems("£1,250.00 a year") == stems("£1,250 a year")
    assert "8.00" in stems("The wash costs 8.00 euros") and "2.50" in stems("£2.50 a day")


@given(st.integers(0, 99_999), st.sampled_from("£$€"))
def test_whole_amounts_drops_only_zero_cents(amount: int, sign: str) -> None:
    assert whole_amounts(f"pay {sign}{amount}.00 now") == f"pay {sign}{amount} now"
    assert whole_amounts(f"pay {sign}{amount}.50 now") == f"pay {sign}{amount}.50 now"
