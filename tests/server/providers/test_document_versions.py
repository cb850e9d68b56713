"""Which documents can be versions of one another (a newer one correcting an older one)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from composer_app.server.providers.answer_ranking import Sentence, passage_sentences
from composer_app.server.providers.document_versions import lead, may_revise
from composer_app.server.providers.term_forms import stem


@pytest.mark.parametrize(("title", "word"), [
    ("rowing_club.md", "rowing"),
    ("model_railway_club.md", "model"),
    ("sauna_notice_2026.md", "sauna"),
    ("cellar_and_cork_notice_march_2026.md", "cellar"),
    ("2025-household-insurance.md", "household"),
    ("Notice of changes 2026.txt", None),
    ("2026-update.md", None),
])
def test_a_document_is_led_by_the_first_word_of_its_name_that_is_no_version_mark(
        title: str, word: str | None) -> None:
    assert lead(title) == (stem(word) if word else None)


def _sentence(title: str, text: str) -> Sentence:
    return passage_sentences(title, 0, 0, title, text)[-1]


@pytest.mark.parametrize(("older", "newer", "versions"), [
    (("rowing_club.md", "# Lakeside Rowing Club\nYouth members pay 90 euros."),
     ("model_railway_club.md", "# Eastfield Model Railway Club\nYouth members pay 30 euros."),
     False),
    (("rowing_club.md", "# Lakeside Rowing Club\nYouth members pay 90 euros."),
     ("rowing_club_notice_2026.md", "# Notice\nYouth members pay 30 euros."), True),
    (("municipal_sauna.md", "# Stadtbad sauna\nA day ticket costs 18 euros."),
     ("sauna_notice_2026.md", "# Notice\nA day ticket costs 21 euros."), True),
    (("repairs-policy.md", "# Harbourline Lettings: Repairs Policy\nA call-out costs £60."),
     ("fees-update-2026.md", "# Changes to Fees and Repair Targets\nA call-out costs £75."),
     True),  # the newer names the older's thing in its title
    (("allotment_garden.md", "# Allotment rules\nThe yearly rent is 180 euros."),
     ("2026-notice.md", "# Notice\nThe yearly rent is 200 euros."), True),  # says nothing
])
def test_documents_are_versions_when_one_leads_with_what_the_other_is_about(
        older: tuple[str, str], newer: tuple[str, str], versions: bool) -> None:
    first, second = _sentence(*older), _sentence(*newer)
    assert may_revise(first, second) is versions
    assert may_revise(second, first) is versions


_NAMES = st.lists(st.sampled_from(["club", "rowing", "notice", "2026", "rules", "sauna", "march",
                                   "the", "fees", "v2", "update"]), min_size=1, max_size=5)


@given(_NAMES, _NAMES)
def test_a_document_may_always_revise_itself_and_the_relation_is_symmetric(
        one: list[str], other: list[str]) -> None:
    first = _sentence("_".join(one) + ".md", "A fee is 5 euros.")
    second = _sentence("_".join(other) + ".md", "A fee is 6 euros.")
    assert may_revise(first, first)
    assert may_revise(first, second) == may_revise(second, first)
