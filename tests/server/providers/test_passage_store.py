"""The FTS5 passage store: replace, delete, rank with bm25()."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from composer_app.server.providers.passage_store import SCHEMA_VERSION, PassageStore
from composer_app.server.providers.passages import Passage


@pytest.fixture
def store() -> Iterator[PassageStore]:
    opened = PassageStore()
    yield opened
    opened.close()


def test_replacing_a_document_replaces_all_its_passages(store: PassageStore):
    store.put_document("a", "a.txt", [Passage(1, 1, "apple pie"), Passage(3, 3, "apple tart")])
    store.put_document("a", "a.txt", [Passage(1, 1, "pear crumble")])
    assert store.passage_count() == 1
    assert store.search(["apple"]) == []
    assert [h.text for h in store.search(["pear"])] == ["pear crumble"]
    store.delete_document("a")
    store.delete_document("a")
    assert store.passage_count() == 0 and store.document_titles() == []


def test_ranking_prefers_more_specific_passages_and_counts_terms(store: PassageStore):
    store.put_document("long", "long.txt", [Passage(1, 1, "kiwi " + "filler " * 200)])
    store.put_document("short", "short.txt", [Passage(1, 1, "kiwi and mango salad")])
    hits = store.search(["kiwi", "mango"])
    assert [(h.key, h.matched) for h in hits] == [("short", 2), ("long", 1)]
    assert hits[0].score < hits[1].score


def test_title_matches_count(store: PassageStore):
    store.put_document("r", "roadmap.md", [Passage(1, 1, "quarterly goals")])
    assert [h.key for h in store.search(["roadmap"])] == ["r"]


def test_meta_values_round_trip(store: PassageStore):
    assert store.get_meta("schema") == SCHEMA_VERSION
    store.set_meta("root", "x")
    store.set_meta("root", "y")
    assert store.get_meta("root") == "y" and store.get_meta("missing") is None


def test_frequency_any_counts_passages_with_at_least_one_of_the_words(store: PassageStore):
    store.put_document("a", "a.txt", [Passage(1, 1, "the price of tyres"),
                                      Passage(3, 3, "cost and price"), Passage(5, 5, "pears")])
    assert store.frequency_any(["price", "cost"]) == 2
    assert store.frequency_any(["tyre", "pear"]) == 2  # FTS5's own stemming
    assert store.frequency_any(["kiwi"]) == 0 and store.frequency_any([" ", ""]) == 0
    assert store.frequency_any(['"price" OR *']) == 0  # quoted: never query syntax


def test_documents_naming_a_word_in_their_title_or_opening_line_and_holding_it_anywhere(
        store: PassageStore):
    store.put_document("stable.md", "stable.md", [
        Passage(1, 3, "# Reitstall Birkenhof – Riding Lessons\n\nLessons run all year."),
        Passage(5, 5, "The Birkenhof has 14 school horses.")])
    store.put_document("news.md", "news.md", [Passage(1, 1, "# News"),
                                               Passage(3, 3, "We met at the Birkenhof.")])
    store.put_document("birkenhof.txt", "birkenhof.txt", [Passage(1, 1, "Opening hours")])
    store.put_document("laundry.md", "laundry.md", [Passage(1, 1, "Horse rugs: machine 12")])
    store.put_document("big.md", "big.md", (), searchable=False, problem="too large")
    assert store.naming_documents("Birkenhof") == {"stable.md", "birkenhof.txt"}
    assert store.naming_documents("news") == {"news.md"} and store.naming_documents("met") == set()
    everything = ["stable.md", "news.md", "birkenhof.txt", "laundry.md", "big.md", "gone.md"]
    assert store.holding(everything, "birkenhof") == {"stable.md", "news.md", "birkenhof.txt"}
    assert store.holding(["laundry.md"], "birkenhof") == set()
    assert store.holding(everything, " ") == set()
    assert store.holding(everything, '"hof" OR horse') == set()  # one quoted token, no query
    store.put_document("news.md", "news.md", [Passage(1, 1, "# Birkenhof news")])
    assert store.naming_documents("birkenhof") == {"stable.md", "news.md", "birkenhof.txt"}
    store.delete_document("stable.md")
    assert store.naming_documents("birkenhof") == {"news.md", "birkenhof.txt"}
