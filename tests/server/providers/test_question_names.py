"""The names a question gives, and the documents that hold them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.question_names import holding_documents, question_names


def test_a_capitalised_word_inside_a_sentence_is_a_name():
    assert question_names("Can I keep my own horse at the Birkenhof?") == ["birkenhof"]
    assert question_names("How much is the exam at Lingua Viva?") == ["lingua", "viva"]
    assert question_names("We have annual passes. Is the Tierpark car park free?") == [
        "tierpark"]


def test_openings_days_months_languages_and_i_are_not_names():
    assert question_names("Nordhost: can I restore a backup?") == []
    assert question_names("Can I come on a Sunday in December, or is the Friday better?") == []
    assert question_names("I had four years of French. Can I join the English course?") == []
    assert question_names("Is it OK if I bring The dog?") == []


def test_a_place_named_by_what_it_is_is_a_name():
    assert question_names("Will it cost anything to get a helmet at the rink?") == ["rink"]
    assert question_names("Is there parking at your ice rink on Sundays?") == ["ice", "rink"]
    assert question_names("Can I pay at the door?") == ["door"]
    assert question_names("What time should I be at the start of the race?") == ["start"]
    assert question_names("What time does the hearing centre close on Saturdays?") == [
        "hearing", "centre"]
    assert question_names("How much does colour printing cost in the library?") == ["library"]
    assert question_names("What does the campsite charge for a second car?") == ["campsite"]
    assert question_names("How much is the first hour of the call-out?") == []


def test_days_in_the_plural_are_not_names():
    assert question_names("Is the Tierpark open on Sundays and Mondays?") == ["tierpark"]


def test_a_hyphenated_or_possessive_name_gives_its_capitalised_pieces():
    assert question_names("Is the Harbour-Museum open?") == ["harbour", "museum"]
    assert question_names("When does Berger's workshop open?") == ["berger"]


def test_only_names_a_document_is_about_restrict_the_documents():
    titled = {"birkenhof", "viva"}
    holders = {"birkenhof": {"stable", "news"}, "viva": {"school"}, "smith": {"letters"}}

    def holding(name: str) -> set[str]:
        return holders.get(name, set())

    assert holding_documents(["birkenhof"], titled.__contains__, holding) == {"stable", "news"}
    assert holding_documents(["birkenhof", "viva"], titled.__contains__, holding) == frozenset()
    assert holding_documents(["smith"], titled.__contains__, holding) is None  # not a title
    assert holding_documents(["unknown"], titled.__contains__, holding) is None
    assert holding_documents([], titled.__contains__, holding) is None


@given(st.text(max_size=200))
def test_names_are_folded_words_of_the_question_once_each(text: str):
    names = question_names(text)
    assert len(names) == len(set(names))
    for name in names:
        assert name == name.casefold() and len(name) >= 2
        assert name in text.casefold()
        assert name not in {"i", "sunday", "december", "french"}
