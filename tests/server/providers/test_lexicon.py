"""The lexicon: WordNet synonyms and derived forms of a word, read through its inflections, always
weaker than the word itself; the shipped table is well formed and carries WordNet's license."""

from __future__ import annotations

from importlib import resources

from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.lexicon import (
    DERIVED_CREDIT,
    LEXICON_CREDIT,
    TABLE,
    Lexicon,
    derived_stems,
    lemmas,
    lexicon,
    lexicon_credit,
    related_words,
    synonym_stems,
)
from composer_app.server.providers.term_forms import stem, stems

PACKAGE = "composer_app.server.providers"


def test_synonyms_are_related_both_ways():
    assert "price" in related_words("cost") and "cost" in related_words("price")
    assert "start" in related_words("begin") and "begin" in related_words("start")
    assert "guarantee" in related_words("warranty")
    assert "automobile" in related_words("car")


def test_inflections_are_read_back_to_their_lemmas():
    assert "price" in related_words("costs")
    assert "dismissed" in related_words("fired")
    assert "start" in related_words("began")  # an irregular form through its base form
    assert ("stop", "v") in lemmas("stopped") and ("big", "a") in lemmas("bigger")


def test_a_rule_applies_only_to_a_lemma_of_its_part_of_speech():
    assert ("din", "a") in lemmas("dinner")  # a candidate ...
    assert not {"noise", "racket", "commotion"} & set(related_words("dinner"))  # ... not taken


def test_derived_forms_are_related_and_count_more_than_synonyms():
    assert stem("dismissal") in derived_stems("dismissed")
    assert stem("arrival") in derived_stems("arrive")
    assert lexicon_credit("arrive", set(stems("on the day of arrival"))) == DERIVED_CREDIT
    assert lexicon_credit("costs", set(stems("the price is 5 euros"))) == LEXICON_CREDIT
    assert lexicon_credit("costs", set(stems("the garage has 20 spaces"))) == 0.0
    assert 0.0 < LEXICON_CREDIT < DERIVED_CREDIT < 1.0


def test_a_word_is_never_related_to_its_own_stem():
    for word in ("cost", "employees", "started", "dismissal", "arrive"):
        assert stem(word) not in synonym_stems(word) | derived_stems(word)
        assert all(stem(w) != stem(word) for w in related_words(word))


def test_function_words_and_vague_words_relate_to_nothing():
    assert related_words("the") == () and related_words("can") == ()
    assert related_words("take") == ()  # more than 30 senses: it stands for too much


def test_an_empty_or_malformed_table_is_an_empty_lexicon():
    empty = Lexicon("")
    assert len(empty) == 0 and empty.related_words("cost") == ()
    broken = Lexicon("@groups\ncost price\n@index\ncost\nprice n 7\n@derived\nx")
    assert broken.related_words("price") == () and broken.derived_words("x") == ()


@given(st.text(max_size=300), st.text(max_size=20))
def test_any_table_text_and_any_word_never_raise(text, word):
    table = Lexicon(text)
    assert isinstance(table.related_words(word), tuple)
    assert isinstance(table.derived_words(word), tuple)


def test_the_shipped_table_is_loaded_once_and_well_formed():
    assert lexicon() is lexicon()
    text = resources.files(PACKAGE).joinpath(TABLE).read_text(encoding="utf-8")
    lines = text.split("\n")
    groups = lines[lines.index("@groups") + 1: lines.index("@index")]
    index = lines[lines.index("@index") + 1: lines.index("@derived")]
    assert len(lexicon()) == len(groups) > 10_000
    assert index == sorted(index)
    for line in index:
        lemma, kinds, *ids = line.split()
        assert set(kinds) <= set("nvar") and ids
        assert all(lemma in groups[int(i)].split() for i in ids)
    assert len(text.encode("utf-8")) < 4_000_000


def test_wordnet_license_ships_beside_the_table():
    notice = resources.files(PACKAGE).joinpath("wordnet/LICENSE").read_text(encoding="utf-8")
    assert "Princeton University" in notice and "Permission to use, copy, modify" in notice
    header = resources.files(PACKAGE).joinpath(TABLE).read_text(encoding="utf-8")[:400]
    assert "WordNet 3.1" in header and "LICENSE" in header
