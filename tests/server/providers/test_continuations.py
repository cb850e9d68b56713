"""The sentence that goes on with an answer by referring back to it."""

from __future__ import annotations

from composer_app.server.providers.answer_ranking import Sentence, passage_sentences
from composer_app.server.providers.continuations import antecedent, continuation

COACHES = ("Children under 14 must travel with an adult. Young people aged 14 and 15 may travel "
           "alone on daytime services if a parent completes the travel form. They may not travel "
           "alone on any service departing after 21:00.\n\n"
           "Luggage is limited to one suitcase per passenger.")


def _units(text: str) -> list[Sentence]:
    return passage_sentences("doc", 0, 0, "rules.md", text)


def _sentence(units: list[Sentence], words: str) -> Sentence:
    return next(u for u in units if words in u.text)


def test_a_sentence_referring_back_to_the_answer_goes_on_with_it() -> None:
    units = _units(COACHES)
    going_on = continuation(_sentence(units, "aged 14 and 15"), units)
    assert going_on is not None and going_on.text.startswith("They may not travel alone")
    visitors = _units("Visitors staying fewer than five days do not take the full induction. "
                      "Instead, they receive a short escorted briefing from their host.")
    instead = continuation(_sentence(visitors, "full induction"), visitors)
    assert instead is not None and "escorted briefing" in instead.text


def test_a_sentence_with_no_word_referring_back_or_in_another_paragraph_is_no_continuation(
) -> None:
    units = _units(COACHES)
    assert continuation(_sentence(units, "under 14"), units) is None  # "Young people …"
    assert continuation(_sentence(units, "after 21:00"), units) is None  # next paragraph
    there = _units("Classes run Monday to Thursday. There are no classes on Fridays.")
    assert continuation(_sentence(there, "Monday"), there) is None


def test_a_former_value_is_no_continuation_of_what_holds_now() -> None:
    for former in ("This replaces the deposit of 250 euros in the 2025 terms.",
                   "It was previously 2.10 euros per hour.",
                   "It used to cost 40 euros."):
        units = _units(f"The deposit is now 300 euros. {former}")
        assert continuation(_sentence(units, "now 300"), units) is None, former


def test_an_answer_opening_with_a_word_referring_back_is_quoted_after_the_sentence_before_it(
) -> None:
    units = _units(COACHES)
    before = antecedent(_sentence(units, "after 21:00"), units)
    assert before is not None and "aged 14 and 15" in before.text
    assert antecedent(_sentence(units, "aged 14 and 15"), units) is None  # "Young people …"
    assert antecedent(_sentence(units, "Luggage"), units) is None
    changed = _units("The deposit is now 300 euros. It was previously 250 euros.")
    assert antecedent(_sentence(changed, "previously"), changed) is None
    excepted = _units("Annual customers get 15% off scheduled emptying. This discount does not "
                      "apply to emergency emptying.")
    assert antecedent(_sentence(excepted, "does not apply"), excepted) is None
