"""Dense retrieval over a small knowledge folder: embedded in the background, kept in the index,
re-embedded when a file changes, never started for a large folder (real model, real SQLite)."""

from __future__ import annotations

from pathlib import Path

import pytest

from composer_app.server.providers.knowledge_index import KnowledgeIndex
from composer_app.server.providers.local import LocalProvider
from composer_app.server.providers.sentence_embeddings import SentenceEmbeddings
from composer_app.server.providers.sentence_vectors import SentenceVectors, digest
from tests.server.providers.support import request, run_turn

DENTAL = """# Patient information

## Opening hours

The practice is open Monday to Thursday from 8:00 to 18:00 and on Friday
from 8:00 to 13:00. In an emergency outside these hours, patients call the
regional dental emergency service.

## Costs

A routine check-up is covered by statutory health insurance twice a year.
"""
HOTEL = """# Harbour View Hotel

Rooms are ready from 15:00 on the day of arrival. Breakfast is served in
the garden restaurant from 7:00 to 10:30.
"""
QUESTION = "Who should I contact about a toothache on a Saturday night?"


@pytest.fixture(scope="module")
def model() -> SentenceEmbeddings:
    return SentenceEmbeddings()


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "knowledge"
    folder.mkdir()
    (folder / "dental-practice.md").write_text(DENTAL, encoding="utf-8")
    (folder / "hotel.md").write_text(HOTEL, encoding="utf-8")
    return folder


def test_a_paraphrase_sharing_no_word_with_its_answer_is_answered_once_the_folder_is_embedded(
        tmp_path: Path, model: SentenceEmbeddings) -> None:
    provider = LocalProvider(_folder(tmp_path), tmp_path / "data", embeddings=model)
    try:
        provider.answer(request("What is in the folder?"))  # builds the index, starts embedding
        assert provider.vectors is not None and provider.vectors.wait(120)
        assert provider.vectors.state == "ready"
        outcome = run_turn(provider, request(QUESTION))
        assert [e.title for e in outcome.by_usage("used")] == ["dental-practice.md"]
        assert "emergency service" in outcome.text
    finally:
        provider.close()


def test_the_first_question_its_words_do_not_answer_waits_for_the_folder_to_be_embedded(
        tmp_path: Path, model: SentenceEmbeddings) -> None:
    """Asked first, right after the folder is opened, the paraphrase gets the answer it gets
    later, not a "not found" only because the folder's sentences were still being embedded."""
    provider = LocalProvider(_folder(tmp_path), tmp_path / "data", embeddings=model)
    try:
        outcome = run_turn(provider, request(QUESTION))
        assert [e.title for e in outcome.by_usage("used")] == ["dental-practice.md"]
        assert "emergency service" in outcome.text
        assert provider.vectors is not None and provider.vectors.wait(0)
    finally:
        provider.close()


def test_a_first_question_its_words_answer_does_not_wait_for_the_embedding(
        tmp_path: Path, model: SentenceEmbeddings) -> None:
    folder = _folder(tmp_path)
    (folder / "notes.md").write_text("\n".join(f"Note {n}: the locker code is {n:04d} on day {n}."
                                             for n in range(400)), encoding="utf-8")
    provider = LocalProvider(folder, tmp_path / "data", embeddings=model)
    try:
        outcome = run_turn(provider, request("When is breakfast served at the Harbour View "
                                             "Hotel?"))
        assert "7:00 to 10:30" in outcome.text
        assert provider.vectors is not None and not provider.vectors.wait(0)  # still embedding
    finally:
        provider.close()


def test_a_document_far_from_the_question_in_meaning_is_not_listed_as_checked(
        tmp_path: Path, model: SentenceEmbeddings) -> None:
    """The hotel's breakfast hours are nearest to a toothache question only because the folder
    has nothing else: they are not a passage the answer looked at."""
    provider = LocalProvider(_folder(tmp_path), tmp_path / "data", embeddings=model)
    try:
        run_turn(provider, request("What is in the folder?"))
        assert provider.vectors is not None and provider.vectors.wait(120)
        outcome = run_turn(provider, request(QUESTION))
        assert [e.title for e in outcome.entries()] == ["dental-practice.md"]
    finally:
        provider.close()


def test_an_unrelated_question_still_finds_nothing_in_an_embedded_folder(
        tmp_path: Path, model: SentenceEmbeddings) -> None:
    provider = LocalProvider(_folder(tmp_path), tmp_path / "data", embeddings=model)
    try:
        provider.answer(request("What is in the folder?"))
        assert provider.vectors is not None and provider.vectors.wait(120)
        outcome = run_turn(provider, request("What is the capital of Australia?"))
        assert outcome.by_usage("used") == []
    finally:
        provider.close()


def test_vectors_survive_a_restart(tmp_path: Path, model: SentenceEmbeddings) -> None:
    folder = _folder(tmp_path)
    index = KnowledgeIndex.in_data_dir(folder, tmp_path / "data")
    stats = index.refresh()
    vectors = SentenceVectors(index.store, model)
    vectors.follow(stats)
    assert vectors.wait(120) and vectors.embedded == 5
    table = vectors.table()
    assert table is not None and len(table) == 5
    index.close()

    again = KnowledgeIndex.in_data_dir(folder, tmp_path / "data")
    restarted = SentenceVectors(again.store, model)
    restarted.follow(again.refresh())
    assert restarted.wait(120) and restarted.state == "ready"
    assert restarted.embedded == 0  # every vector read back from the index
    reread = restarted.table()
    assert reread is not None and reread.texts == table.texts
    assert float((reread.matrix * table.matrix).sum(axis=1).min()) > 0.999  # float16 storage
    again.close()


def test_a_changed_file_is_re_embedded_and_its_old_sentences_are_forgotten(
        tmp_path: Path, model: SentenceEmbeddings) -> None:
    folder = _folder(tmp_path)
    index = KnowledgeIndex.in_data_dir(folder, tmp_path / "data")
    vectors = SentenceVectors(index.store, model)
    vectors.follow(index.refresh())
    assert vectors.wait(120)
    old = "Rooms are ready from 15:00 on the day of arrival."
    (folder / "hotel.md").write_text(HOTEL.replace("15:00", "14:00"), encoding="utf-8")
    vectors.follow(index.refresh())
    assert vectors.wait(120)
    table = vectors.table()
    assert table is not None
    assert "Rooms are ready from 14:00 on the day of arrival." in table.texts
    assert old not in table.texts
    assert vectors.embedded == 1  # only the changed sentence went through the model
    assert index.store.vectors([digest(old)]) == {}
    index.close()


def test_the_table_is_withheld_from_a_change_until_the_folder_is_embedded_again(
        tmp_path: Path, model: SentenceEmbeddings) -> None:
    folder = _folder(tmp_path)
    index = KnowledgeIndex.in_data_dir(folder, tmp_path / "data")
    vectors = SentenceVectors(index.store, model)
    vectors.follow(index.refresh())
    assert vectors.wait(120) and vectors.table() is not None
    (folder / "hotel.md").unlink()
    vectors.follow(index.refresh())
    assert vectors.table() is None or "hotel" not in {p.key for p in vectors.table().passages}
    assert vectors.wait(120)
    table = vectors.table()
    assert table is not None and {p.key for p in table.passages} == {"dental-practice.md"}
    index.close()


def test_a_large_folder_never_starts_embedding(tmp_path: Path) -> None:
    loads: list[int] = []
    folder = _folder(tmp_path)
    index = KnowledgeIndex.in_data_dir(folder, tmp_path / "data")
    untouched = SentenceEmbeddings(locate=lambda: loads.append(1) or None)
    vectors = SentenceVectors(index.store, untouched, limit=3)
    vectors.follow(index.refresh())
    assert vectors.wait(30)
    assert vectors.state == "too large" and vectors.table() is None
    assert loads == [] and not untouched.started  # the model was never even loaded
    index.close()
