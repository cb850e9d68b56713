"""Reading a question and scoring sentences against it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from composer_app.server.providers.answer_choice import USED_THRESHOLD
from composer_app.server.providers.answer_ranking import (
    CONTRAST_FACTOR,
    FAILED_AGE_CREDIT,
    PAIR_BONUS,
    SUBJECT_FOLLOWS_FACTOR,
    answer_factor,
    context_quote,
    passage_sentences,
    same_subject,
    score,
    shares_subject,
    term_credits,
    topic_only,
    topic_words,
)
from composer_app.server.providers.question_parts import read_question
from composer_app.server.providers.term_forms import stem
from tests.server.providers.support import ranked_sentences


def _weight(_word: str) -> float:
    return 1.0


def test_the_sentence_with_the_questions_subject_wins():
    [part] = read_question("When do new employees finish the training?", _weight)
    marked = ("## Training\nAll employees must complete the training once a year. New "
              "employees must complete it within their first week.")
    first, second = passage_sentences("kb:1", 0, 0, "handbook.md", marked)
    assert score(second, part).score > score(first, part).score


def test_a_missing_number_halves_the_coverage():
    [part] = read_question("What is the response time for priority 1 incidents?", _weight)
    one, two = passage_sentences("kb:1", 0, 0, "support.md", (
        "Priority 1 incidents get a response within 30 minutes. Priority 2 incidents get a "
        "response within four hours."))
    assert score(two, part).coverage <= score(one, part).coverage / 2 + 1e-9


def test_quotes_are_whole_sentences_of_the_paragraph():
    marked = "First sentence here. The answer is 42. Last one."
    answer = passage_sentences("kb:1", 0, 0, "a.md", marked)[1]
    assert context_quote(answer, marked) == marked
    assert context_quote(answer, marked, max_chars=20) == "The answer is 42."
    assert same_subject("The meal allowance is 40 euros.", "The meal allowance is 55 euros.")
    assert not same_subject("The meal allowance is 40 euros.", "Hotels cost 150 euros.")


def test_a_sentence_without_the_thing_asked_for_loses_coverage():
    [part] = read_question("What is the phone number of the main reception?", _weight)
    assert part.focus == {"phon"}
    marked = "Relatives can buy a weekly ticket at the main reception."
    [sentence] = passage_sentences("kb:1", 0, 0, "visitors.html", marked)
    assert score(sentence, part).coverage < 0.6  # main reception alone does not answer it
    [named] = passage_sentences("kb:1", 0, 0, "visitors.html",
                                "The main reception answers the phone day and night.")
    assert score(named, part).coverage > score(sentence, part).coverage


def test_subject_pairs_match_in_either_order_so_a_table_row_names_its_subject():
    [part] = read_question("How many seats does the Business plan include?", _weight)
    rows = passage_sentences("kb:1", 0, 0, "plans.md",
                             "Plan: Starter; Seats: 3; Support: 2 business days\n"
                             "Plan: Business; Seats: 25; Support: 4 hours")
    starter, business = (score(row, part) for row in rows)
    assert business.score > starter.score


def test_rows_of_different_things_are_not_a_conflict():
    [part] = read_question("What does an e-bike cost per day?", _weight)
    assert "e" in {t.word for t in part.terms}  # the prefix of a hyphenated word stays
    bike, reader = (passage_sentences("kb:1", 0, 0, "prices.pdf", text)[0] for text in (
        "Bike type: E-bike; Per hour: 6 euros; Per day: 35 euros",
        "Item type: E-readers; Loan period: 3 weeks; Late fee per day: 2.00 euros"))
    assert not shares_subject(bike, reader, part)
    assert shares_subject(bike, bike, part)


def test_a_question_that_denies_a_term_prefers_the_sentence_that_denies_it():
    [part] = read_question("What does a card cost for someone who does not live here?", _weight)
    marked = "A card is free for residents. Non-residents pay 18 euros for a card."
    residents, others = passage_sentences("kb:1", 0, 0, "library.md", marked)
    assert score(others, part).score > score(residents, part).score
    [plain] = read_question("What does a card cost for residents?", _weight)
    assert score(residents, plain).score > score(others, plain).score


def test_a_permission_question_is_answered_by_the_permission_not_the_next_sentence():
    [part] = read_question("Can I bring a potted plant to a patient?", _weight)
    marked = ("Potted plants are not allowed anywhere in the hospital. Please do not bring "
              "food for patients on a special diet.")
    plants, food = passage_sentences("kb:1", 0, 0, "visitors.html", marked)
    assert score(plants, part).coverage >= 0.6
    assert score(plants, part).score > score(food, part).score


def test_the_table_row_about_the_thing_asked_for_beats_a_general_sentence():
    [part] = read_question("What night temperature does the controller keep for lettuce?",
                           _weight)
    marked = ("The controller keeps a separate day and night temperature for each crop.\n"
              "Crop: Lettuce; Day temperature: 18 °C; Night temperature: 12 °C\n"
              "Crop: Tomatoes; Day temperature: 22 °C; Night temperature: 17 °C")
    general, lettuce, tomatoes = passage_sentences("kb:1", 0, 0, "controller.docx", marked)
    assert score(lettuce, part).score > score(general, part).score
    assert score(lettuce, part).score > score(tomatoes, part).score


def test_a_phrasal_verb_matches_the_single_verb_of_the_document():
    [part] = read_question("Can newspapers be taken home?", _weight)
    assert part.text == "Can newspapers be taken home"  # the words asked, as asked
    [sentence] = passage_sentences("kb:1", 0, 0, "library.md",
                                   "Newspapers cannot be borrowed; read them in the reading room.")
    assert score(sentence, part).coverage >= 0.6


def test_a_document_that_uses_the_phrasal_verb_itself_still_matches():
    [part] = read_question("Where can I pick up the keys?", _weight)
    [sentence] = passage_sentences("kb:1", 0, 0, "hotel.md",
                                   "Keys can be picked up at the front desk.")
    assert score(sentence, part).coverage >= 0.99


KEYS = ("# House rules\n## Keys\n"
        "A lost house key must be reported to the caretaker at once.\n"
        "The fee for a replacement key is 45 euros.\n"
        "A key for the bicycle cellar is free of charge.\n")


def test_a_price_question_is_answered_by_the_sentence_that_states_an_amount() -> None:
    part, units, ranked = ranked_sentences("How much does it cost if I lose my house key?",
                                           "house-rules.md", KEYS)
    assert part.wants == "amount"
    assert ranked[0].sentence.text.startswith("The fee for a replacement key")
    reported = next(s for s in ranked if s.sentence.text.startswith("A lost house key"))
    assert answer_factor(reported.sentence, part) < 1.0
    free = next(s for s in units if s.text.startswith("A key for the bicycle"))
    assert answer_factor(free, part) == 1.0  # "free" states the amount: nothing


CERTIFICATES = ("# Citizens' office\n## Certificates\n"
                "A certificate of good conduct costs 13 euros.\n"
                "The certificate is sent to you by post within two weeks.\n"
                "Certificates are issued once the fee is paid.\n")


def test_a_time_question_is_not_answered_by_a_sentence_that_states_no_time() -> None:
    part, units, ranked = ranked_sentences(
        "How long does it take to get a certificate of good conduct?", "citizens-office.md",
        CERTIFICATES)
    assert part.wants == "time"
    price = next(s for s in units if s.text.startswith("A certificate of good conduct costs"))
    assert answer_factor(price, part) < 1.0
    posted = next(s for s in units if s.text.startswith("The certificate is sent"))
    assert answer_factor(posted, part) == 1.0
    paid = next(s for s in units if s.text.startswith("Certificates are issued once"))
    assert answer_factor(paid, part) == 1.0  # a time placed by an event is no near miss
    # by its words alone, the price sentence no longer reaches the threshold of an answer
    assert next(s for s in ranked if s.sentence is price).coverage < USED_THRESHOLD


def test_a_percentage_answers_a_question_about_a_difference_in_price() -> None:
    text = ("# Removals\n## Prices\nOn Sundays and public holidays, the surcharge is 50 percent.\n"
            "A van with two movers costs 120 euros per hour.\n")
    extra, _, _ = ranked_sentences("How much extra do you charge on a Sunday?", "removals.md", text)
    cost, units, _ = ranked_sentences("How much does a move cost?", "removals.md", text)
    surcharge = next(s for s in units if s.text.startswith("On Sundays"))
    assert answer_factor(surcharge, extra) == 1.0
    assert answer_factor(surcharge, cost) < 1.0  # a share is no price


@pytest.mark.parametrize(("question", "wants"), [
    ("How long does it take?", "time"),
    ("When can I pick it up?", "time"),
    ("By when must I cancel?", "time"),
    ("What time does the pool open?", "time"),
    ("How many days back can we restore?", "time"),
    ("What does a day ticket cost?", "amount"),
    ("How much do I pay for a late return?", "amount"),
    ("What is the deposit for a bike?", "amount"),
    ("How much is a tandem for a whole week?", "amount"),
    ("Will it cost us anything to get one at the rink?", "amount"),
    ("Do I have to pay for a helmet?", "amount"),
    ("Is there a fee for late returns?", "amount"),
    ("How much is the entry fee?", "amount"),
    ("How much is a bag of flour in weight?", "quantity"),
    ("How much water does the pool hold?", "quantity"),
    ("How many credits can a student take?", "quantity"),
    ("Who signs the form?", "name"),
])
def test_what_kind_of_value_a_question_wants(question: str, wants: str) -> None:
    assert read_question(question, lambda _: 1.0)[0].wants == wants


CLIMBING = ("# Young climbers\n"
            "Children under 14 may only climb under the supervision of an adult.\n"
            "Young people aged 14 to 17 may climb on their own if a parent has signed the "
            "consent form.\n")


def test_a_number_inside_a_stated_range_answers_the_question() -> None:
    _, _, ranked = ranked_sentences("Can my 15-year-old climb on their own?", "climbing-gym.md",
                                    CLIMBING)
    assert ranked[0].sentence.text.startswith("Young people aged 14 to 17")


def test_how_much_of_what_is_the_focus_of_the_question() -> None:
    focus = read_question("How much electricity does the heat pump use in a year?",
                          lambda _: 1.0)[0].focus
    assert focus == {"electricity"}
    assert not read_question("How much does it cost?", lambda _: 1.0)[0].focus


LIFE_PLAN = ("# Who can apply\n"
             "The normal retirement age for members is 65.\n"
             "The plan pays a cash sum when you die.\n"
             "UK residents aged 50 to 80 can apply for the plan.\n")


def test_an_age_bound_that_excludes_the_stated_age_answers_whether_one_is_too_old() -> None:
    part, _, ranked = ranked_sentences("I'm 82. Am I too old to take out the plan?",
                                       "life-plan.md", LIFE_PLAN)
    [age] = [t for t in part.terms if t.number]
    assert term_credits(ranked[0].sentence, part)[part.terms.index(age)] == FAILED_AGE_CREDIT
    assert ranked[0].sentence.text.startswith("UK residents aged 50 to 80")


MUSEUM = ("# Tickets\n"
          "Ticket: Children under 6; Price: free\n"
          "Ticket: Children from 6 to 17; Price: 5 euros\n"
          "Ticket: Adults; Price: 14 euros\n")


def test_an_age_written_in_words_is_held_by_the_range_that_holds_its_number() -> None:
    part, _, ranked = ranked_sentences("How much is a ticket for an eight-year-old?",
                                       "museum.md", MUSEUM)
    assert any(t.number and t.word == "8" for t in part.terms)
    assert part.text == "How much is a ticket for an eight-year-old"  # as asked
    assert "from 6 to 17" in ranked[0].sentence.text


BAKERY = ("# Returns\n"
          "Please return our crates with the next delivery.\n"
          "We do not take back unsold goods.\n")


def test_a_sentence_with_the_phrasal_verb_answers_its_single_verb() -> None:
    [sentence] = passage_sentences("kb:1", 0, 0, "bakery.md", "We do not take back bread.")
    [part] = read_question("Can I return the bread?", _weight)
    assert score(sentence, part).coverage >= 0.99  # "take back" is "return"


def test_the_un_negative_answers_a_question_that_denies_the_verb() -> None:
    part, _, ranked = ranked_sentences("Can we return the rolls we didn't sell?", "bakery.md",
                                       BAKERY)
    assert [t.word for t in part.terms] == ["return", "rolls", "sell"]  # never "didn"
    assert ranked[0].sentence.text == "We do not take back unsold goods."
    crates = next(s for s in ranked if s.sentence.text.startswith("Please return"))
    assert crates.coverage < ranked[0].coverage


def test_a_situation_stated_before_the_question_is_no_part_of_its_own() -> None:
    parts = read_question("I'm stuck in traffic and will collect my dog 20 minutes after closing "
                          "time. What will that cost me?", _weight)
    assert len(parts) == 1  # "and will" inside a statement does not start a second question
    [part] = parts
    assert part.wants == "amount"  # read from the asking sentence, not from the situation
    assert {"traffic", "dog", "20", "closing"} <= {t.word for t in part.terms}
    assert part.text.startswith("I'm stuck in traffic")
    two = read_question("What does the pass cost if I pay at once, and what if I pay monthly?",
                        _weight)
    assert [p.text for p in two] == ["What does the pass cost if I pay at once",
                                     "what if I pay monthly"]


LESSONS = ("# Cancelling\n"
           "Practical lessons can be cancelled free of charge up to 48 hours before they start.\n"
           "Lessons on a Saturday must be cancelled by 12:00 on the Thursday before.\n")


def test_the_rule_for_the_group_asked_about_beats_the_general_rule() -> None:
    _, _, ranked = ranked_sentences("My lesson is on a Saturday. Until when can I cancel it?",
                                       "driving-school.md", LESSONS)
    general, saturday = (next(s for s in ranked if s.sentence.text.startswith(w))
                         for w in ("Practical", "Lessons on a Saturday"))
    assert saturday.score - saturday.coverage > general.score - general.coverage
    assert ranked[0] is saturday


HARBOUR = ("# Harbour Museum of Navigation\n"
           "The Harbour Museum of Navigation is in the old customs house at Pier 3.\n"
           "The museum café on the first floor serves lunch.\n")


def test_a_sentence_that_names_only_the_documents_topic_answers_nothing() -> None:
    _, units, ranked = ranked_sentences("Is there a café in the Harbour Museum of Navigation?",
                                        "harbour-museum.html", HARBOUR)
    assert ranked[0].sentence.text.startswith("The museum café")
    topic = next(s for s in ranked if s.sentence.text.startswith("The Harbour Museum"))
    assert topic.coverage < 0.6
    [where] = read_question("Where is the Harbour Museum of Navigation?", _weight)
    assert score(units[0], where).coverage >= 0.6  # asked about the topic itself: it answers


PRICES = ("# Bike rental\n"
          "All prices are in euros and include a lock.\n"
          "Bike type: Tandem; 1 day: 29; 1 week: 120\n"
          "Card: Credit card; Fee per payment: 1.39 %\n")


def test_a_price_table_row_without_a_currency_still_states_an_amount() -> None:
    part, units, _ = ranked_sentences("How much is a tandem for a whole week?", "bikes.md",
                                      PRICES)
    tandem = next(u for u in units if u.text.startswith("Bike type: Tandem"))
    fee = next(u for u in units if u.text.startswith("Card:"))
    assert answer_factor(tandem, part) == 1.0
    assert answer_factor(fee, part) < 1.0  # a percentage is no amount of money


def test_a_duration_in_other_units_answers_the_questions_unit() -> None:
    text = "# Self storage\n\nIf you pay 12 months in advance, you get one month free.\n"
    part, units, _ = ranked_sentences("If I pay for a whole year up front, do I get anything off?",
                                      "storage.md", text)
    year = next(i for i, t in enumerate(part.terms) if t.word == "year")
    assert term_credits(units[0], part)[year] == 1.0


def test_a_phone_question_is_answered_by_the_sentence_with_the_number() -> None:
    text = ("# Beekeepers\n## Swarms\nIf you see a swarm, call the swarm hotline on 0171 448 2210. "
            "Do not try to catch a swarm yourself unless you are an experienced beekeeper.\n")
    part, units, ranked = ranked_sentences("What number do I ring when I spot a swarm of bees?",
                                           "beekeepers.md", text)
    assert part.wants == "phone"
    advice = next(s for s in units if s.text.startswith("Do not try"))
    assert answer_factor(advice, part) < 1.0
    assert ranked[0].sentence.text.startswith("If you see a swarm")


def test_a_sentence_holding_only_the_topic_words_is_topic_only() -> None:
    text = ("# Harbour Museum of Navigation\n## Visit\nThe Harbour Museum of Navigation is in the "
            "old customs house at Pier 3. Coffee and cake are served in the café.\n")
    part, units, _ = ranked_sentences("Is there a café in the Harbour Museum of Navigation?",
                                      "harbour-museum.md", text)
    where = next(s for s in units if s.text.startswith("The Harbour Museum"))
    cafe = next(s for s in units if s.text.startswith("Coffee"))
    assert topic_only(where, part) and not topic_only(cafe, part)
    assert {t.word for t in topic_words(where, part)} == {"harbour", "museum", "navigation"}


CHOIR = ("# Choir handbook\n"
         "Sopranos and altos have their section rehearsal on the first Monday of each month at "
         "19:00. Tenors and basses meet on the second Monday of each month at the same time.\n")


def test_a_sentence_before_the_one_that_turns_to_the_subject_asked_about_is_a_near_miss() -> None:
    [part] = read_question("When do the tenors have their section rehearsal?", _weight)
    sopranos, tenors = passage_sentences("doc", 0, 0, "choir-handbook.md", CHOIR)
    assert sopranos.following == tenors.stems[:3] and not tenors.following
    unaware = replace(sopranos, following=())  # as if the paragraph ended there
    assert score(unaware, part).score > score(tenors, part).score
    assert score(sopranos, part).coverage == pytest.approx(
        SUBJECT_FOLLOWS_FACTOR * score(unaware, part).coverage)
    assert score(tenors, part).score > score(sopranos, part).score


def test_only_the_questions_heaviest_term_opening_the_next_sentence_turns_the_paragraph(
        ) -> None:
    weights = {"bring": 3.7, "potted": 3.7, "plant": 3.7, "patient": 2.4}
    [part] = read_question("Can I bring a potted plant to a patient?", lambda w: weights[w])
    plants, _ = passage_sentences("doc", 0, 0, "visitors.html", (
        "Potted plants are not allowed anywhere in the hospital. Patients on a special diet "
        "may not be given food without asking the nursing staff first.\n"))
    assert plants.following[0] == "patient"  # opens the next sentence, but weighs less
    assert score(plants, part).coverage == score(replace(plants, following=()), part).coverage


TYRES = ("# Tyre storage\n"
         "Storing four tyres without rims costs 35 euros per season. Storing a set of four "
         "complete wheels costs 45 euros per season.\n")


def test_a_sentence_about_the_case_without_a_thing_the_question_states_is_a_near_miss() -> None:
    [part] = read_question("You keep my winter wheels over the summer; they're on their own "
                           "rims. What do you charge for that each season?", _weight)
    without, complete = passage_sentences("doc", 0, 0, "tyre-service.md", TYRES)
    assert answer_factor(without, part) == CONTRAST_FACTOR
    assert answer_factor(complete, part) == 1.0
    [cost] = read_question("How much does storing tyres cost per season?", _weight)
    assert answer_factor(without, cost) == 1.0  # "without rims costs": only rims is lacking
    [asked] = read_question("What does storing tyres without rims cost?", _weight)
    assert answer_factor(without, asked) == 1.0  # the very case asked about


def test_a_word_the_sentence_holds_itself_is_not_topic_for_a_synonym_in_the_title() -> None:
    part, units, _ = ranked_sentences(
        "What voids the guarantee on a bicycle?", "Bicycle warranty",
        "The guarantee lapses if the bicycle was used in a race.")
    assert not topic_only(units[0], part)


def test_a_time_question_is_answered_by_the_opening_hours_of_its_month() -> None:
    text = ("# Cemetery rules\n\n## Opening hours\n\nFrom April to September the gates are "
            "open daily from 7:00 to 20:00. From October to March they are open daily from 8:00 "
            "to 17:00.\n\nCandles may only be lit in closed lanterns.\n")
    part, _, ranked = ranked_sentences("What time does the cemetery close in December?",
                                       "cemetery.md", text)
    assert ranked[0].sentence.text.startswith("From October to March")
    credits = dict(zip((t.word for t in part.terms), term_credits(ranked[0].sentence, part),
                       strict=True))
    assert credits["close"] > 0 and credits["december"] > 0 and credits["time"] > 0


def test_a_second_part_is_answered_by_a_sentence_of_its_own_subject() -> None:
    text = ("# Birkensee Bathing Lake\n\n## Season and opening hours\n\nThe bathing season runs "
            "from 15 May to 15 September.\n\n## Prices\n\nAn adult season ticket costs 60 euros."
            "\n")
    parts = read_question("How much is a season ticket for an adult, and until when does the "
                          "bathing season last?", lambda _: 1.0)
    second = parts[1]
    assert next(t for t in second.terms if t.word == "last").weight < 1.0  # "does it last"
    units = passage_sentences("doc", 0, 0, "Birkensee Bathing Lake", text)
    season = next(u for u in units if u.text.startswith("The bathing season"))
    assert not topic_only(season, second)  # the first part's words are no topic of the second
    ranked = sorted((score(u, second) for u in units), key=lambda s: -s.score)
    assert ranked[0].sentence == season


def test_a_deadline_is_answered_by_the_date_a_rule_sets() -> None:
    text = ("# Allotment rules\n\n## Plots\n\nThe yearly rent is 180 euros and is due by 31 "
            "January. Members who want to give up their plot must tell the board in writing by 30 "
            "September.\n")
    part, _, ranked = ranked_sentences("What is the deadline for quitting my allotment plot?",
                                       "allotment.md", text)
    assert part.wants == "time" and "deadlin" in part.focus
    assert ranked[0].sentence.text.startswith("Members who want to give up")
    assert ranked[0].coverage >= USED_THRESHOLD  # the date is the deadline asked for


def test_a_price_questions_word_for_the_price_is_answered_by_an_amount() -> None:
    part, _, ranked = ranked_sentences("How much does it cost to lease a garden plot for a year?",
                                       "allotment.md", "# Allotment rules\n\nThe yearly rent is "
                                       "180 euros and is due by 31 January.\n")
    credits = dict(zip((t.word for t in part.terms), term_credits(ranked[0].sentence, part),
                       strict=True))
    assert credits["cost"] > 0.0 and credits["lease"] > 0.0  # "180 euros", "rent"


def test_a_list_item_under_a_heading_whose_range_holds_the_age_keeps_the_number() -> None:
    text = ("# Piano school\n\n### Children and teenagers under 18\n\n- 45 minutes a week: 112 "
            "euros per month\n\n### Adults\n\n- 45 minutes a week: 132 euros per month\n")
    _, _, ranked = ranked_sentences("My daughter is 12. What do 45-minute piano lessons cost "
                                    "per month?", "piano.md", text)
    assert ranked[0].sentence.text.endswith("112 euros per month")
    assert ranked[0].coverage > ranked[1].coverage


def test_a_subject_pair_that_names_the_documents_topic_earns_no_bonus() -> None:
    """*residents' parking* names the whole document when its title holds it: every sentence of
    the permit rules is about it, so it must not lift the sentence on the zones' hours above
    the one on processing times."""
    question = "How long does it take to process an application for a residents' parking permit?"
    text = ("Residents' parking rules apply from Monday to Saturday, 8:00 to 20:00. "
            "Processing takes up to 3 weeks.")
    _, _, under_topic = ranked_sentences(question, "residents-parking-permits.txt", text)
    assert under_topic[0].sentence.text == "Processing takes up to 3 weeks."
    _, _, elsewhere = ranked_sentences(question, "city-rules.txt", text)
    hours = next(s for s in elsewhere if s.sentence.text.startswith("Residents'"))
    hours_under_topic = next(s for s in under_topic if s.sentence.text.startswith("Residents'"))
    assert hours.score - hours.coverage == pytest.approx(
        hours_under_topic.score - hours_under_topic.coverage + PAIR_BONUS / 2)


def test_a_question_in_the_document_is_a_near_miss_and_its_answer_follows() -> None:
    part, units, _ = ranked_sentences(
        "I left my scarf on the tram. Is there any point going to the lost property office?",
        "lost-property.md",
        "Lost something on one of our buses or trams? Items reach the lost property office "
        "after 2 working days.")
    asked, told = units
    assert asked.text.endswith("?")
    assert answer_factor(asked, part) == CONTRAST_FACTOR
    assert answer_factor(told, part) == 1.0


RELEASES = ("# Release process\n## Release train\n"
            "Production releases go out twice a week, on Tuesday and Thursday at 10:00.\n"
            "Hotfixes may be deployed to production at any time after review.\n")


def test_a_question_which_days_is_answered_by_the_days_a_sentence_names() -> None:
    part, units, _ = ranked_sentences("On which days of the week are production releases "
                                      "shipped?", "release-process.md", RELEASES)
    train = next(s for s in units if s.text.startswith("Production releases"))
    credits = dict(zip((t.word for t in part.terms), term_credits(train, part), strict=True))
    assert credits["days"] > 0.0  # "on Tuesday and Thursday" states the days asked for


VET = ("# Riverside Vet\n## Emergencies\n"
       "Outside opening hours, call the out-of-hours line on 0161 555 0142.\n")


def test_the_number_asked_for_is_held_by_a_phone_number() -> None:
    part, units, _ = ranked_sentences("What number do I ring for an emergency at Riverside Vet?",
                                      "riverside-vet.md", VET)
    assert part.wants == "phone"
    credits = dict(zip((t.word for t in part.terms), term_credits(units[0], part), strict=True))
    assert credits["number"] > 0.0


def test_a_cut_off_time_is_answered_by_the_time_an_order_must_be_placed_by() -> None:
    text = ("# Print shop\n## Express service\n"
            "Express orders are ready on the next working day, provided they are placed by "
            "12:00.\nStandard orders are ready in 3 working days.\n")
    part, _, ranked = ranked_sentences("What is the cut-off time for express orders at the "
                                       "print shop?", "print-shop.md", text)
    assert part.wants == "time"
    assert ranked[0].sentence.text.startswith("Express orders are ready")
    assert ranked[0].coverage >= USED_THRESHOLD


REMOVALS = ("# Removals\n## Prices\n"
            "| Property size | Crew | Friday |\n|---|---|---|\n"
            "| 3-bedroom house | 4 movers, 2 vans | £960 |\n"
            "| 2-bedroom flat or house | 3 movers, 1 van | £690 |\n")


def test_the_row_that_counts_the_asked_thing_with_its_number_ranks_first() -> None:
    _, _, ranked = ranked_sentences("How much would it cost to move a 2-bedroom house on a "
                                    "Friday?", "removals.md", REMOVALS)
    assert "2-bedroom" in ranked[0].sentence.text


TENANCY = ("# Tenancy summary: Flat 3, 27 Oriel Mews\n## Term and rent\n"
           "The holding deposit of £265 that you paid to reserve the flat is taken off your first "
           "month's rent.\n"
           "The rent is £1,150 per calendar month, payable in advance.\n")


def test_a_sentence_about_the_thing_asked_for_ranks_above_one_that_mentions_it() -> None:
    _, _, ranked = ranked_sentences("What is the rent for Flat 3, 27 Oriel Mews?",
                                    "tenancy-summary.md", TENANCY)
    assert ranked[0].sentence.text.startswith("The rent is")
    excess = "# Cover\nFrom 1 April 2026, you pay an excess of 75 euros for each claim.\n"
    part, units, _ = ranked_sentences("How much excess do I pay per claim?", "cover.md", excess)
    assert score(units[0], part).score > score(replace(units[0], text="You pay 75 euros for each "
                                                       "claim, as excess."), part).score


def test_a_sentence_that_introduces_a_list_lends_its_words_to_the_items() -> None:
    marked = ("# Family leave\nMaternity pay depends on your service:\n"
              "With one year's service: 18 weeks at full pay.\n"
              "With less service: statutory pay only.\n"
              "Tell us early. Partners get 2 weeks. Both may share the rest.\n"
              "Adopters are paid the same.\n## Other leave\nAsk your manager.\n")
    found = passage_sentences("kb:1", 0, 0, "leave.md", marked)
    opener, longer, shorter, paragraph, after, other = (
        next(s for s in found if s.text.startswith(opening))
        for opening in ("Maternity", "With one", "With less", "Tell", "Adopters", "Ask"))
    assert opener.leads_in and not longer.leads_in
    assert longer.opener == shorter.opener == opener.text
    assert longer.previous == shorter.previous == frozenset(opener.stems)
    assert paragraph.opener == opener.text and not after.opener  # a paragraph ends the list
    assert not other.opener and not other.previous  # and a heading does
    part = read_question("What pay do I get on maternity leave?", lambda word: 1.0)[0]
    assert score(opener, part).coverage < score(replace(opener, leads_in=False), part).coverage


def test_a_sentence_after_a_list_that_refers_to_its_items_holds_their_words() -> None:
    marked = ("# Repairs\nYou are responsible for:\n"
              "changing light bulbs, fuses and smoke alarm batteries;\n"
              "bleeding radiators and unblocking sinks.\n"
              "Tenants aged 70 or over can ask us to do these small jobs for them.\n"
              "Tenants must report damp within a week.\n")
    found = passage_sentences("kb:1", 0, 0, "repairs.md", marked)
    jobs, damp = (next(s for s in found if s.text.startswith(opening))
                  for opening in ("Tenants aged", "Tenants must"))
    assert {stem("smoke"), stem("alarm"), stem("radiators")} <= jobs.previous
    assert stem("smoke") not in damp.previous  # it refers to no item


CLAIMS = ("# Fernwick Motor Cover: claims guide\n"
          "Report any accident to us within 48 hours.\n"
          "If you use our approved repairer for a new windscreen, the excess is £90.\n"
          "If you choose your own glazier for a new windscreen, the excess is £200.\n")


def test_a_sentence_about_the_alternative_the_question_turns_down_is_a_near_miss() -> None:
    part, units, ranked = ranked_sentences(
        "I'd rather use my own glazier than Fernwick's repairer. What excess do I pay for a new "
        "windscreen?", "fernwick-claims.md", CLAIMS)
    repairer = next(s for s in units if "approved repairer" in s.text)
    glazier = next(s for s in units if "own glazier" in s.text)
    assert answer_factor(repairer, part) < 1.0 and answer_factor(glazier, part) == 1.0
    assert ranked.index(next(s for s in ranked if s.sentence is glazier)) < \
        ranked.index(next(s for s in ranked if s.sentence is repairer))


def test_a_sentence_opening_with_a_pronoun_is_stated_after_the_one_it_leans_on() -> None:
    marked = ("# Fuel\nElectric cars come charged. Return them with 70% charge. Keys go to the "
              "desk, and the desk keeps them.\nThey open at 08:00.\n")
    charged, returned, keys, hours = passage_sentences("kb:1", 0, 0, "terms.md", marked)
    assert returned.before == charged.text
    assert returned.stated() == "Electric cars come charged. Return them with 70% charge."
    assert not keys.before and keys.stated() == keys.text  # its pronoun is late: it names its own
    assert not hours.before  # the first sentence of its line leans on nothing before it
    assert not charged.before and charged.stated() == charged.text


def test_a_line_that_opens_with_a_label_states_the_case_of_its_later_sentences() -> None:
    marked = ("# Timetable\nSaturday: buses leave every 15 minutes. The last bus leaves at 19:15. "
              "It stops at Northgate.\nThe car park closes at 20:00.\n"
              "Permit: resident; monthly cost: £10; who can apply: residents\n")
    first, last, stops, park, row = passage_sentences("kb:1", 0, 0, "buses.md", marked)
    assert not first.label and last.label == stops.label == "Saturday:"
    assert last.labelled() == "Saturday: The last bus leaves at 19:15."
    assert stops.stated() == "Saturday: The last bus leaves at 19:15. It stops at Northgate."
    assert "saturday" in last.previous and "saturday" in stops.previous
    assert not park.label and not row.label
