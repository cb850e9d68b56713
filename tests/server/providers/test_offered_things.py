"""A question whether something is offered, and a later part that speaks of the same thing."""

from __future__ import annotations

from composer_app.server.providers.answer_ranking import idf
from composer_app.server.providers.offered_things import never_named, speaks_of, thing_asked
from composer_app.server.providers.question_parts import Part, read_question
from tests.server.providers.support import ranked_sentences


def _parts(question: str) -> list[Part]:
    return read_question(question, lambda _: idf(40, 3))


def test_the_thing_asked_about_is_the_first_key_word_after_the_asking_ones():
    (sauna, _) = _parts("Does Granby Hall have a sauna, and is it included in the membership?")
    thing = thing_asked(sauna)
    assert thing is not None and thing.word == "sauna"
    (wifi,) = _parts("Is there Wi-Fi I can use with my laptop in the reading room?")
    thing = thing_asked(wifi)
    assert thing is not None and thing.word == "wifi"


def test_a_question_that_asks_for_no_offered_thing_has_none():
    for question in ("Can I get my money back?", "Do I have to book a court in advance?",
                     "Is there any way she can join later?", "When does the pool open?"):
        assert thing_asked(_parts(question)[0]) is None, question


def test_a_later_part_speaks_of_the_thing_by_a_pronoun_or_by_its_name():
    first, pronoun = _parts("Does Granby Hall have a sauna, and is it included in the membership?")
    assert speaks_of(pronoun, first)
    first, named = _parts("Does the salon offer cat grooming, and what does a groom for a cat "
                          "cost?")
    assert speaks_of(named, first)


def test_a_later_part_about_something_else_does_not_speak_of_the_thing():
    first, other = _parts("Does Granby Hall have a sauna, and when does the pool close?")
    assert not speaks_of(other, first)
    first, second = _parts("When does the pool open, and is it busy on Sundays?")
    assert not speaks_of(second, first)  # the first part asks for no offered thing


def test_a_document_names_the_thing_by_any_of_its_forms_only():
    part, units, ranked = ranked_sentences(
        "Does Granby Hall have a sauna?", "granby-hall.md",
        "Membership includes the gym and the pool. Towels can be hired at reception.")
    assert never_named(part, ranked[0], units)
    part, units, ranked = ranked_sentences(
        "Does Granby Hall have a sauna?", "granby-hall.md",
        "Membership includes the gym, the pool and the saunas. Towels can be hired.")
    assert not never_named(part, ranked[0], units)
