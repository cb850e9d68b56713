"""Search terms and listing requests read from a question."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.questions import (
    TWO_THINGS_MAX_CHARS,
    ListingRequest,
    asked_pieces,
    asks_whether,
    listing_request,
    question_terms,
)
from composer_app.server.providers.term_forms import stems


def test_terms_drop_stop_words_and_keep_order_and_numbers():
    assert question_terms("What port does the Staging server use on 8443? Staging!") == [
        "port", "staging", "server", "use", "8443"
    ]
    assert question_terms("What's in it for me?") == []


def test_a_compound_whose_hyphen_is_only_spelling_is_one_term_as_documents_read_it():
    """A document's *Wi-Fi* is the word *wifi* (``term_forms.words``): the question's must be
    too, or no sentence about Wi-Fi ever holds the question's terms."""
    assert question_terms("Is there Wi-Fi, and can I e-mail my log-in details?") == [
        "wifi", "email", "login", "details"]
    assert stems("Free Wi-Fi for guests") == ["fre", "wifi", "for", "guest"]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("List the files in the knowledge folder", ListingRequest()),
        ("list markdown files", ListingRequest((".md", ".markdown"))),
        ("Show me the python files about billing", ListingRequest((".py", ".pyi"), ("billing",))),
        ("which documents are there?", ListingRequest()),
        ("What's in my knowledge folder?", ListingRequest()),
    ],
)
def test_listing_requests(question: str, expected: ListingRequest):
    assert listing_request(question) == expected


@pytest.mark.parametrize(
    "question",
    ["What does the deploy doc say about ports?", "Which port does staging use?",
     "Why did the file upload fail?"],
)
def test_other_questions_are_not_listings(question: str):
    assert listing_request(question) is None


def test_a_negative_contraction_is_no_term() -> None:
    assert question_terms("Can we return the rolls we didn't sell? Won't they keep?") == \
        ["return", "rolls", "sell", "keep"]


def test_reflexive_pronouns_are_not_terms():
    assert question_terms("I can't get to the expo myself. Can my brother go?") == [
        "expo", "brother", "go"]
    assert question_terms("Do we have to clean the rooms ourselves?") == ["clean", "rooms"]


def test_what_the_asker_would_like_is_said_by_the_rest_of_the_question() -> None:
    assert question_terms("I'd like to have my hair dyed next Friday.") == [
        "hair", "dyed", "next", "friday"]
    assert question_terms("We would like a table for four.") == ["table", "four"]


def test_a_number_with_thousands_separators_or_decimals_is_one_term() -> None:
    assert question_terms("How soon can I get a 1,500-word text translated?") == \
        ["soon", "1,500", "word", "text", "translated"]
    assert "0.45" in question_terms("Is the price 0.45 euros a page?")


def test_a_letter_that_names_a_category_is_a_term() -> None:
    assert question_terms("What does a Category B ticket cost?") == ["category", "b", "ticket",
                                                                   "cost"]
    assert "a" not in question_terms("Is there a café?")


@pytest.mark.parametrize(("question", "whether"), [
    ("Does Blue Reef Aquatics sell tortoises or other reptiles?", True),
    ("My son is 8. Can he join the club?", True),
    ("Is there a bus to the reserve?", True),
    ("Who should I contact about a toothache on a Saturday night?", False),
    ("Can I bring my dog? How much does it cost?", False),  # the last sentence asks what
    ("", False),
])
def test_a_question_asks_yes_or_no_when_its_last_sentence_opens_with_an_auxiliary(
        question: str, whether: bool) -> None:
    assert asks_whether(question) is whether


@pytest.mark.parametrize(("asked", "pieces"), [
    ("On what day and at what time does the on-call shift change over?",  # the subject shared
     ["On what day does the on-call shift change over",
      "at what time does the on-call shift change over"]),
    ("When and where is the meeting?", ["When is the meeting", "where is the meeting"]),
    ("When and why?", ["When and why"]),  # no subject to share: one piece
    ("What are the monthly fees for a full-day place and for a half-day place?",  # two things
     ["What are the monthly fees for a full-day place",
      "What are the monthly fees for a half-day place"]),
    ("How much is parking on weekdays and on Saturdays?",
     ["How much is parking on weekdays", "How much is parking on Saturdays"]),
    ("How much does it cost, and when do I pay?", ["How much does it cost", "when do I pay"]),
    ("Which command rolls back production, and how soon must it start?",
     ["Which command rolls back production", "how soon must it start"]),
    ("How much is the deposit? When is it returned?",
     ["How much is the deposit", "When is it returned"]),
])
def test_a_question_is_cut_into_parts_and_a_piece_that_only_asks_takes_the_next_subject(
        asked: str, pieces: list[str]) -> None:
    assert asked_pieces(asked) == pieces


_ASKED = st.lists(st.sampled_from(["how", "much", "when", "on", "what", "day", "and", "is", "the",
                                   "fee", "?", ",", "at", "time", "does", "it", "open"]),
                  min_size=1, max_size=20)


def test_tell_is_a_term_when_it_asks_to_notify_someone() -> None:
    assert "tell" in question_terms("How quickly do I need to tell IT about a lost laptop?")
    assert "tell" in question_terms("How early do we have to tell the school?")
    assert "tell" not in question_terms("Can you tell me the opening hours?")
    assert "tell" not in question_terms("Tell us what the fee is.")


def test_a_long_piece_is_not_read_as_a_question_about_two_things() -> None:
    long_question = "What are the fees " + "for a place " * 40 + "and for a half-day place?"
    assert len(long_question) > TWO_THINGS_MAX_CHARS
    assert len(asked_pieces(long_question)) == 1


def _within(piece: list[str], words: list[str]) -> bool:
    """Whether ``piece`` is a subsequence of ``words``."""
    rest = iter(words)
    return all(any(w == x for x in rest) for w in piece)


@given(_ASKED)
def test_each_piece_is_taken_in_order_from_the_question_and_no_word_is_lost(
        words: list[str]) -> None:
    asked = " ".join(words)
    pieces = [[w for w in re.findall(r"\w+", p) if w != "and"] for p in asked_pieces(asked)]
    content = [w for w in re.findall(r"\w+", asked) if w != "and"]
    assert all(_within(piece, content) for piece in pieces)
    assert set(content) <= {w for piece in pieces for w in piece}
